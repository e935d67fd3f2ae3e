// Playing a string-out in the Selects screen's player: which bites play and in what order (one, or
// every placed bite from a row on), what happens when the playhead reaches a bite's out (the next
// bite, on the same clip or across to another, or the end) or when the list changes under the run
// (a bite deleted while it plays), and which keys play and stop. Pure:
// the screen's player only carries these out on the media element.
import type { SelectView, TranscriptMediaView } from '../../../../preload/contract.js';

export type PlayableMedia = Extract<TranscriptMediaView, { url: string }>;

export interface PlayBite {
  id: string;
  jobId: string;
  /** The words' own times on the clip, ms from the media's start. */
  inMs: number;
  outMs: number;
  media: PlayableMedia;
}

export interface PlayRun {
  bites: readonly PlayBite[];
  /** The bite playing now. */
  index: number;
  /** Bites of the asked range passed over: their clip cannot be played here (moved, deleted). */
  skipped: number;
}

/**
 * A bite that starts this close after the last one ends, on the same clip, plays on without a seek
 * (two picks that meet): a seek there would repeat or drop a few frames.
 */
export const JOIN_MS = 40;

type SelectListMedia = Readonly<Record<string, TranscriptMediaView>>;

const playable = (s: SelectView, media: SelectListMedia): PlayBite | null => {
  const m = media[s.jobId];
  if (s.missing || !m || m.kind === 'missing' || s.toMs <= s.fromMs) return null;
  return { id: s.id, jobId: s.jobId, inMs: s.fromMs, outMs: s.toMs, media: m };
};

/**
 * What plays: `one`, the bite `from` alone; `all`, every placed bite in list order from `from`
 * (the first when absent) to the end. Null when nothing of it can be played.
 */
export function playRun(
  selects: readonly SelectView[],
  media: SelectListMedia,
  mode: 'one' | 'all',
  from?: string,
): PlayRun | null {
  const start = from === undefined ? 0 : selects.findIndex((s) => s.id === from);
  if (start < 0) return null;
  const asked = mode === 'one' ? selects.slice(start, start + 1) : selects.slice(start);
  const bites = asked.flatMap((s) => playable(s, media) ?? []);
  return bites.length === 0 ? null : { bites, index: 0, skipped: asked.length - bites.length };
}

export const playingBite = (run: PlayRun): PlayBite => run.bites[run.index]!;

export type PlayStep =
  /** Still inside the bite (or the player is still on the way to it). */
  | { kind: 'go-on' }
  /** The next bite: `seek` false when it follows on the same clip without a gap (JOIN_MS). */
  | { kind: 'next'; run: PlayRun; seek: boolean }
  /** The last bite's out: stop there. */
  | { kind: 'stop' };

/** The bite after the playing one, or the end: at its out, or when its media ended first. */
export function advance(run: PlayRun): PlayStep {
  const now = playingBite(run);
  const next = run.bites[run.index + 1];
  if (!next) return { kind: 'stop' };
  const joins = next.jobId === now.jobId && next.inMs >= now.outMs && next.inMs - now.outMs <= JOIN_MS;
  return { kind: 'next', run: { ...run, index: run.index + 1 }, seek: !joins };
}

/**
 * The playhead at `ms` of the media at `url`: past the playing bite's out, the next step; before
 * it, or on another clip (the player has not loaded the bite's clip yet), go on.
 */
export function stepAt(run: PlayRun, url: string, ms: number): PlayStep {
  const now = playingBite(run);
  if (url !== now.media.url || ms < now.outMs) return { kind: 'go-on' };
  return advance(run);
}

/** The run after the list changed under it: the same bite plays on, the next one, or nothing. */
export type RunChange = { kind: 'same'; run: PlayRun } | { kind: 'next'; run: PlayRun; seek: true } | { kind: 'stop' };

/**
 * The run after the list changed while it plays (a bite deleted here or by the CLI, trimmed, its
 * clip gone): the bites still in the list and playable stay, in the run's order, with their in and
 * out as they are now; the others leave it. The playing bite gone, the next one left plays (from
 * its in), or the run stops when none is.
 */
export function keepRun(run: PlayRun, selects: readonly SelectView[], media: SelectListMedia): RunChange {
  const now = new Map(selects.map((s) => [s.id, s]));
  const bites: PlayBite[] = [];
  // Where the playing bite is in what is left, or where the next one left would be.
  let index = 0;
  let playingLeft = false;
  run.bites.forEach((b, i) => {
    const s = now.get(b.id);
    const bite = s ? playable(s, media) : null;
    if (i === run.index) {
      index = bites.length;
      playingLeft = bite !== null;
    }
    if (bite) bites.push(bite);
  });
  if (playingLeft) return { kind: 'same', run: { ...run, bites, index } };
  if (index >= bites.length) return { kind: 'stop' };
  return { kind: 'next', run: { ...run, bites, index }, seek: true };
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
