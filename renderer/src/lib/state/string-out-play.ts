// Playing a string-out in the Selects screen's player: what plays and in what order (one bite, or
// every placed bite from a row on, holding for the gaps and title cards between them for their
// length on the timeline), what happens when the playhead reaches a bite's out or a hold its end
// (the next step: a bite on the same clip or across to another, a hold, or the end) or when the
// list changes under the run (a row deleted while it plays), and which keys play and stop. Pure:
// the screen's player only carries these out on the media element and its hold timer.
import type { SelectListView, SelectView, SpacerView, TranscriptMediaView } from '../../../../preload/contract.js';
import { rowsOfView } from './string-out-rows.js';

export type PlayableMedia = Extract<TranscriptMediaView, { url: string }>;

export interface PlayBite {
  kind: 'bite';
  id: string;
  jobId: string;
  /** The words' own times on the clip, ms from the media's start. */
  inMs: number;
  outMs: number;
  media: PlayableMedia;
}

/** A gap or a title card: the media paused (the picture black, or the card's text) for its length. */
export interface PlayHold {
  kind: 'hold';
  id: string;
  spacer: SpacerView['kind'];
  /** A title card's text. */
  text?: string;
  /** Its length on the timeline (whole frames), ms. */
  ms: number;
}

export type PlayItem = PlayBite | PlayHold;

export interface PlayRun {
  /** Bites and holds, in list order. */
  steps: readonly PlayItem[];
  /** The step playing now. */
  index: number;
  /** Bites of the asked range passed over: their clip cannot be played here (moved, deleted). */
  skipped: number;
}

/** What a run is played from: the list as the screen has it. */
export type PlayList = Pick<SelectListView, 'selects' | 'spacers' | 'media'>;

/**
 * A bite that starts this close after the last one ends, on the same clip, plays on without a seek
 * (two picks that meet): a seek there would repeat or drop a few frames.
 */
export const JOIN_MS = 40;

type SelectListMedia = Readonly<Record<string, TranscriptMediaView>>;

const playable = (s: SelectView, media: SelectListMedia): PlayBite | null => {
  const m = media[s.jobId];
  if (s.missing || !m || m.kind === 'missing' || s.toMs <= s.fromMs) return null;
  return { kind: 'bite', id: s.id, jobId: s.jobId, inMs: s.fromMs, outMs: s.toMs, media: m };
};

const held = (s: SpacerView): PlayHold | null =>
  s.durationMs > 0
    ? {
        kind: 'hold',
        id: s.id,
        spacer: s.kind,
        ms: s.durationMs,
        ...(s.kind === 'title' ? { text: s.text ?? '' } : {}),
      }
    : null;

export const isBite = (step: PlayItem): step is PlayBite => step.kind === 'bite';

/** The bites of a run, holds left out. */
export const runBites = (run: PlayRun): PlayBite[] => run.steps.filter(isBite);

/**
 * What plays: `one`, the bite `from` alone; `all`, every row in list order from `from` (a bite,
 * gap or title card; the first row when absent) to the end: each placed bite, and each gap and
 * title card as a hold of its length. Null when no bite of it can be played (holds alone are not
 * a run; nor is `one` on a gap or title card).
 */
export function playRun(list: PlayList, mode: 'one' | 'all', from?: string): PlayRun | null {
  const media = list.media ?? {};
  const rows = rowsOfView(list);
  const start = from === undefined ? 0 : rows.findIndex((r) => r.id === from);
  if (start < 0) return null;
  const asked = mode === 'one' ? rows.slice(start, start + 1).filter((r) => r.kind === 'select') : rows.slice(start);
  const steps = asked.flatMap((r) => (r.kind === 'select' ? playable(r.select, media) : held(r.spacer)) ?? []);
  const bites = steps.filter(isBite).length;
  if (bites === 0) return null;
  return { steps, index: 0, skipped: asked.filter((r) => r.kind === 'select').length - bites };
}

export const playingStep = (run: PlayRun): PlayItem => run.steps[run.index]!;

export type PlayStep =
  /** Still inside the bite or hold (or the player is still on the way to it). */
  | { kind: 'go-on' }
  /**
   * The next step: `seek` false when it is a bite that follows the last on the same clip without
   * a gap (JOIN_MS); into a hold, the player pauses, and out of one it seeks.
   */
  | { kind: 'next'; run: PlayRun; seek: boolean }
  /** The last step's end: stop there. */
  | { kind: 'stop' };

/** The step after the playing one, or the end: at a bite's out (or its media's end), a hold's end. */
export function advance(run: PlayRun): PlayStep {
  const now = playingStep(run);
  const next = run.steps[run.index + 1];
  if (!next) return { kind: 'stop' };
  const joins =
    now.kind === 'bite' &&
    next.kind === 'bite' &&
    next.jobId === now.jobId &&
    next.inMs >= now.outMs &&
    next.inMs - now.outMs <= JOIN_MS;
  return { kind: 'next', run: { ...run, index: run.index + 1 }, seek: !joins };
}

/**
 * The playhead at `ms` of the media at `url`: past the playing bite's out, the next step; before
 * it, on another clip (the player has not loaded the bite's clip yet), or in a hold (its timer
 * ends it), go on.
 */
export function stepAt(run: PlayRun, url: string, ms: number): PlayStep {
  const now = playingStep(run);
  if (now.kind === 'hold' || url !== now.media.url || ms < now.outMs) return { kind: 'go-on' };
  return advance(run);
}

/** The run after the list changed under it: the same step plays on, the next one, or nothing. */
export type RunChange = { kind: 'same'; run: PlayRun } | { kind: 'next'; run: PlayRun; seek: true } | { kind: 'stop' };

/**
 * The run after the list changed while it plays (a bite, gap or title card deleted here or by the
 * CLI, trimmed or lengthened, its clip gone): the steps still in the list and playable stay, in
 * the run's order, with their in and out (a hold: its length and text) as they are now; the
 * others leave it. The playing step gone, the next one left plays (a bite from its in, a hold
 * from its start), or the run stops when none is.
 */
export function keepRun(run: PlayRun, list: PlayList): RunChange {
  const media = list.media ?? {};
  const selects = new Map(list.selects.map((s) => [s.id, s]));
  const spacers = new Map((list.spacers ?? []).map((s) => [s.id, s]));
  const steps: PlayItem[] = [];
  // Where the playing step is in what is left, or where the next one left would be.
  let index = 0;
  let playingLeft = false;
  run.steps.forEach((step, i) => {
    let kept: PlayItem | null = null;
    if (step.kind === 'bite') {
      const s = selects.get(step.id);
      kept = s ? playable(s, media) : null;
    } else {
      const s = spacers.get(step.id);
      kept = s ? held(s) : null;
    }
    if (i === run.index) {
      index = steps.length;
      playingLeft = kept !== null;
    }
    if (kept) steps.push(kept);
  });
  if (playingLeft) return { kind: 'same', run: { ...run, steps, index } };
  if (index >= steps.length) return { kind: 'stop' };
  return { kind: 'next', run: { ...run, steps, index }, seek: true };
}

export interface PlayKey {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** In a text field: the key is the field's. */
  typing: boolean;
  /** Something is playing (or paused in a run not stopped). */
  playing: boolean;
}

export type PlayKeyAction = 'play' | 'playOn' | 'stop';

/**
 * The string-out's play keys. Space plays the bite that has focus, Shift+Space plays on from it to
 * the end of the list; while a run lasts, Space or Escape stops it. They win over a focused
 * button's own Space (Enter still presses the button): the rows are made of buttons.
 */
export function playKeyAction(e: PlayKey): PlayKeyAction | null {
  if (e.typing || e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === 'Escape') return e.playing ? 'stop' : null;
  if (e.key !== ' ') return null;
  if (e.playing) return 'stop';
  return e.shiftKey ? 'playOn' : 'play';
}

/** The Selects screen's keys, as the shortcut list shows them. */
export const stringOutShortcuts = (): Array<[string[], string]> => [
  [['Space'], 'Play the bite that has focus'],
  [['Shift', 'Space'], 'Play on from it to the end of the list'],
  [['Space or Esc'], 'Stop playing'],
  [['Alt', '↑', '↓'], 'Move the bite that has focus'],
];
