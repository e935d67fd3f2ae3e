// The editor's review work carried from one run of a clip onto another run's transcript (a re-run,
// or the same clip processed again): what the corrections changed is read as a difference between
// the earlier run's transcript as received and as corrected, then placed on the new transcript
// where its words are found again, by text and time. What cannot be placed is named, never dropped
// in silence. Pure.
import { isOutlineEdit } from '../recipes/outline-edit.js';
import { replay, type Correction, type CorrectionsLayer, outlineChanged } from './corrections.js';
import { applyEdit, type TranscriptEdit } from './transcript-edit.js';
import { speakerName, type Transcript, type TranscriptWord } from './transcript.js';

/** How much review work a corrected transcript holds, by kind. */
export interface ReviewCounts {
  /** Places where the words or their speaker were changed. */
  corrections: number;
  speakerNames: number;
  markers: number;
  /** Chapters and pull quotes renamed, moved, added or removed. */
  chapters: number;
  quotes: number;
}

export const NO_REVIEW: ReviewCounts = { corrections: 0, speakerNames: 0, markers: 0, chapters: 0, quotes: 0 };

export const reviewTotal = (c: ReviewCounts): number =>
  c.corrections + c.speakerNames + c.markers + c.chapters + c.quotes;

/** "5 corrections, 1 speaker name and 1 marker"; '' for none. */
export function reviewWords(c: ReviewCounts): string {
  const n = (k: number, one: string, many: string): string[] => (k > 0 ? [`${k} ${k === 1 ? one : many}`] : []);
  const parts = [
    ...n(c.corrections, 'correction', 'corrections'),
    ...n(c.speakerNames, 'speaker name', 'speaker names'),
    ...n(c.markers, 'marker', 'markers'),
    ...n(c.chapters, 'chapter change', 'chapter changes'),
    ...n(c.quotes, 'quote change', 'quote changes'),
  ];
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** A word as compared across runs: case, composition and the punctuation around it set aside. */
const fold = (text: string): string =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** Two runs of the same media time their words apart by less than this. */
const TOLERANCE_MS = 600;

/**
 * Pairs of indices (a in `a`, b in `b`) of the same word at about the same time, both increasing.
 * Each word of `a` looks ahead in `b` only as far as its own time allows, so a long transcript is
 * aligned in one pass.
 */
export function alignWords(
  a: readonly TranscriptWord[],
  b: readonly TranscriptWord[],
  toleranceMs = TOLERANCE_MS,
  same: (x: TranscriptWord, y: TranscriptWord) => boolean = (x, y) => fold(x.text) === fold(y.text),
): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const w = a[i]!;
    // Words heard well before this one can match no later word either: passed once, for good.
    while (j < b.length && b[j]!.startMs < w.startMs - toleranceMs) j++;
    for (let k = j; k < b.length && b[k]!.startMs <= w.startMs + toleranceMs; k++) {
      const v = b[k]!;
      if (Math.abs(v.startMs - w.startMs) <= toleranceMs && same(w, v)) {
        pairs.push([i, k]);
        j = k + 1;
        break;
      }
    }
  }
  return pairs;
}

/** One place the corrections changed: words [from, to) of the transcript as received became `words`. */
interface Hunk {
  from: number;
  to: number;
  words: TranscriptWord[];
}

const exact = (x: TranscriptWord, y: TranscriptWord): boolean =>
  x.text === y.text && x.startMs === y.startMs && x.endMs === y.endMs;

/** The places where `current` differs from `base` in its words, and the speaker changes of words kept. */
function differences(base: Transcript, current: Transcript): { hunks: Hunk[]; pairs: Array<[number, number]> } {
  const pairs = alignWords(base.words, current.words, 0, exact);
  const hunks: Hunk[] = [];
  let a = 0;
  let c = 0;
  for (const [i, k] of [...pairs, [base.words.length, current.words.length] as [number, number]]) {
    if (i > a || k > c) {
      // A pure insertion takes the word before it along, so it names words of the base to replace.
      const from = i > a ? a : Math.max(0, a - 1);
      const fromC = i > a ? c : Math.max(0, c - 1);
      if (i > from) hunks.push({ from, to: i, words: current.words.slice(fromC, k) });
    }
    a = i + 1;
    c = k + 1;
  }
  return { hunks, pairs };
}

/** Runs of words kept as received whose speaker the editor changed. */
function speakerRuns(base: Transcript, current: Transcript, pairs: Array<[number, number]>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const [i, k] of pairs) {
    if (base.words[i]!.speaker === current.words[k]!.speaker) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === k) last[1] = k + 1;
    else runs.push([k, k + 1]);
  }
  return runs;
}

function changedItems<T extends { id: string }>(a: readonly T[], b: readonly T[]): number {
  const key = (x: T): string => JSON.stringify(x);
  const before = new Map(a.map((x) => [x.id, key(x)]));
  const after = new Map(b.map((x) => [x.id, key(x)]));
  let n = 0;
  for (const [id, k] of after) if (before.get(id) !== k) n++;
  for (const id of before.keys()) if (!after.has(id)) n++;
  return n;
}

/** The review work in `current` (the base with the editor's corrections). */
export function reviewOf(base: Transcript, current: Transcript): ReviewCounts {
  const { hunks, pairs } = differences(base, current);
  return {
    corrections: hunks.length + speakerRuns(base, current, pairs).length,
    speakerNames: Object.values(current.names).filter((n) => n !== '').length,
    markers: current.markers?.length ?? 0,
    chapters: changedItems(base.outline?.chapters ?? [], current.outline?.chapters ?? []),
    quotes: changedItems(base.outline?.quotes ?? [], current.outline?.quotes ?? []),
  };
}

export interface CarriedReview {
  /** The changes to record on the new transcript, in order (each fits the result of those before). */
  changes: Correction[];
  carried: ReviewCounts;
  /** What could not be placed, one phrase each ("“harbour office” at 0:12: the words there differ"). */
  notPlaced: string[];
}

const clock = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

const joined = (ws: readonly TranscriptWord[]): string => ws.map((w) => w.text).join(' ');

/** The speaker of the new run heard where most words of each earlier speaker are found again. */
function speakerMap(oldBase: Transcript, newBase: Transcript, pairs: Array<[number, number]>): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const [i, k] of pairs) {
    const from = oldBase.words[i]!.speaker;
    const to = newBase.words[k]!.speaker;
    if (from === undefined || to === undefined) continue;
    const v = votes.get(from) ?? new Map<string, number>();
    v.set(to, (v.get(to) ?? 0) + 1);
    votes.set(from, v);
  }
  // One earlier speaker per new one: two voices the new run heard as one keep neither name but the larger's.
  const best = [...votes].map(([from, v]) => {
    const [to, n] = [...v].sort((x, y) => y[1] - x[1])[0]!;
    return { from, to, n };
  });
  const out = new Map<string, string>();
  for (const b of best.sort((x, y) => y.n - x.n)) if (![...out.values()].includes(b.to)) out.set(b.from, b.to);
  return out;
}

/**
 * The earlier run's review work (its transcript as received, its corrections layer) placed on the
 * new run's transcript as received. Words are found again by text and time; a place whose words
 * the new run heard differently is named, as are speaker names of speakers the new run does not
 * have. Markers keep their time. Chapter and quote edits are replayed when the new run gave the
 * same chapters and quotes, and named otherwise.
 */
export function carryReview(oldBase: Transcript, layer: CorrectionsLayer, newBase: Transcript): CarriedReview {
  const oldCurrent = replay(oldBase, layer);
  const { hunks, pairs: kept } = differences(oldBase, oldCurrent);
  const across = alignWords(oldBase.words, newBase.words);
  const toNew = new Map(across);
  const heard = speakerMap(oldBase, newBase, across);
  // A speaker the editor added (not heard by the earlier run) is theirs: it keeps its id.
  const speakerOf = (id: string | undefined): string | undefined =>
    id === undefined ? undefined : (heard.get(id) ?? (oldBase.speakers.includes(id) ? undefined : id));
  const notPlaced: string[] = [];
  const carried: ReviewCounts = { ...NO_REVIEW };

  // Words: each place the editor changed, where all its words are found again side by side.
  const placed: Array<{ from: number; to: number; text: string; words: TranscriptWord[] }> = [];
  for (const h of hunks) {
    const mapped = Array.from({ length: h.to - h.from }, (_, n) => toNew.get(h.from + n));
    const first = mapped[0];
    const fits = first !== undefined && mapped.every((m, n) => m === first + n);
    const prev = placed[placed.length - 1];
    if (fits && (!prev || prev.to <= first)) {
      placed.push({ from: first, to: first + mapped.length, text: joined(h.words), words: h.words });
      carried.corrections++;
    } else {
      const what =
        h.words.length > 0 ? `“${joined(h.words)}”` : `the removal of “${joined(oldBase.words.slice(h.from, h.to))}”`;
      notPlaced.push(`${what} at ${clock(oldBase.words[h.from]!.startMs)}: the new transcript has other words there`);
    }
  }
  // From the last to the first, so each range still names the words it named.
  const changes: Correction[] = placed
    .reverse()
    .map((p) => ({ kind: 'replace', from: p.from, to: p.to, text: p.text }));
  let next = changes.reduce((t, c) => applyEdit(t, c as TranscriptEdit), newBase);

  // Speakers: words the editor gave to another speaker, as a run of the new words.
  const oldRuns = speakerRuns(oldBase, oldCurrent, kept);
  const byCurrent = new Map(kept.map(([i, k]) => [k, i]));
  const shift = (k: number): number | undefined => {
    const i = byCurrent.get(k);
    const n = i === undefined ? undefined : toNew.get(i);
    if (n === undefined) return undefined;
    // Placed word edits before it moved it by their change in length.
    let at = n;
    for (const p of placed) if (p.to <= n) at += tokenCount(p.text) - (p.to - p.from);
    return at;
  };
  for (const [from, to] of oldRuns) {
    const speaker = speakerOf(oldCurrent.words[from]!.speaker);
    const start = shift(from);
    const end = shift(to - 1);
    if (speaker !== undefined && start !== undefined && end !== undefined && end - start === to - 1 - from) {
      const edit: TranscriptEdit = { kind: 'setSpeaker', from: start, to: end + 1, speaker };
      next = applyEdit(next, edit);
      changes.push(edit);
      carried.corrections++;
    } else {
      notPlaced.push(
        `the speaker change at ${clock(oldCurrent.words[from]!.startMs)}: those words are not found again`,
      );
    }
  }

  // Names: the speaker the new run heard where the earlier one was.
  for (const [id, name] of Object.entries(oldCurrent.names)) {
    const to = speakerOf(id);
    if (name === '') continue;
    if (to === undefined || !next.speakers.includes(to)) {
      notPlaced.push(`the speaker name “${name}” (${speakerName(oldBase, id)} is not heard in the new transcript)`);
      continue;
    }
    const edit: TranscriptEdit = { kind: 'renameSpeaker', speaker: to, name };
    next = applyEdit(next, edit);
    changes.push(edit);
    carried.speakerNames++;
  }

  // Markers: at the same moment of the media.
  for (const m of oldCurrent.markers ?? []) {
    changes.push({ kind: 'addMarker', atMs: m.atMs, name: m.name, note: m.note, colour: m.colour });
    carried.markers++;
  }

  // Chapters and quotes: replayed only onto the same outline (their ids name its items).
  if (outlineChanged(oldBase, oldCurrent)) {
    const counts = reviewOf(oldBase, oldCurrent);
    const sameOutline =
      newBase.outline !== undefined &&
      JSON.stringify([oldBase.outline?.chapters, oldBase.outline?.quotes]) ===
        JSON.stringify([newBase.outline.chapters, newBase.outline.quotes]);
    if (sameOutline) {
      const edits = layer.changes.slice(lastRevert(layer) + 1, layer.applied).filter(isOutlineEdit);
      try {
        for (const e of edits) next = applyEdit(next, e);
        changes.push(...edits);
        carried.chapters = counts.chapters;
        carried.quotes = counts.quotes;
      } catch {
        notPlaced.push(`${outlineWords(counts)}: they no longer fit the new transcript`);
      }
    } else {
      notPlaced.push(
        `${outlineWords(counts)}: the new run gave ${newBase.outline ? 'other chapters and quotes' : 'no chapters or quotes'}`,
      );
    }
  }
  return { changes, carried, notPlaced };
}

const outlineWords = (c: ReviewCounts): string => reviewWords({ ...NO_REVIEW, chapters: c.chapters, quotes: c.quotes });

const tokenCount = (text: string): number => text.split(/\s+/u).filter((w) => w !== '').length;

/** The index of the last revert in effect, or -1: changes before it no longer count. */
function lastRevert(layer: CorrectionsLayer): number {
  for (let i = layer.applied - 1; i >= 0; i--) if (layer.changes[i]!.kind === 'revert') return i;
  return -1;
}
