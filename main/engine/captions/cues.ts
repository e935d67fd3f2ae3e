// Subtitle cues from normalized words, by the rules subtitle editors work to (Netflix/BBC style
// guides, and what research/anchors-product.md §3.3 found missing in caption libraries, which
// split by word count only): a bounded number of short lines, a readable on-screen time, no
// overlaps, breaks at sentence ends, pauses and speaker changes. Pure: no I/O.
import { joinWords, type CaptionWord } from './normalize.js';

export interface CueOptions {
  maxLineChars: number;
  maxLines: number;
  /** A shorter cue is extended into the following gap, never over the next cue. */
  minDurationMs: number;
  /** A longer stretch of speech is split into several cues. */
  maxDurationMs: number;
  /** A silence at least this long between two words starts a new cue. */
  pauseMs: number;
  /** Blank time between two cues (broadcast asks for a couple of frames); 0 lets cues touch. */
  minGapMs: number;
  /** Off: no cue names its speaker (no label, no voice); speaker changes still start a new cue. */
  speakerLabels: boolean;
}

export const DEFAULT_CUE_OPTIONS: CueOptions = {
  maxLineChars: 42,
  maxLines: 2,
  minDurationMs: 1000,
  maxDurationMs: 7000,
  pauseMs: 700,
  minGapMs: 0,
  speakerLabels: true,
};

export interface Cue {
  startMs: number;
  endMs: number;
  words: CaptionWord[];
  /** Word text laid out in lines (without the speaker label). */
  lines: string[];
  speaker?: string;
  /** First cue of a speaker turn: formats that print labels as text print it here only. */
  showLabel: boolean;
}

/** "Speaker 1: " — the plain prefix players never strip (no brackets, no angle brackets). */
export const labelPrefix = (speaker: string): string => `${speaker}: `;

const chars = (s: string): number => Array.from(s).length;
const SENTENCE_END = /[.?!…]["'”’)\]]*$/u;
const CLAUSE_END = /[,;:–—]["'”’)\]]*$/u;
// Abbreviations whose full stop does not end a sentence.
const ABBREVIATION = /^(?:mr|mrs|ms|dr|prof|st|vs|etc|e\.g|i\.e)\.$/i;

export const endsSentence = (w: string): boolean => SENTENCE_END.test(w) && !ABBREVIATION.test(w);

/**
 * Lays words out in as few lines as possible (≤ maxLines, each ≤ maxLineChars counting `prefix`
 * on the first line), then balances them, preferring breaks after punctuation and at spaces.
 * Returns null when the words do not fit.
 */
export function layoutLines(
  words: ReadonlyArray<Pick<CaptionWord, 'text' | 'spaceBefore'>>,
  maxLineChars: number,
  maxLines: number,
  prefix = 0,
): string[] | null {
  const n = words.length;
  if (n === 0) return [];
  const lineText = (i: number, j: number): string => joinWords(words.slice(i, j));
  // Prefix sums of characters, so a line's width costs O(1) (this runs for every word added).
  const cum = [0];
  words.forEach((w, k) => cum.push(cum[k]! + chars(w.text) + (k > 0 && w.spaceBefore ? 1 : 0)));
  const width = (i: number, j: number): number =>
    cum[j]! - cum[i]! - (i > 0 && words[i]!.spaceBefore ? 1 : 0) + (i === 0 ? prefix : 0);
  const breakBonus = (j: number): number => {
    const prev = words[j - 1]?.text ?? '';
    let bonus = 0;
    if (endsSentence(prev)) bonus += 100;
    else if (CLAUSE_END.test(prev)) bonus += 60;
    if (words[j]?.spaceBefore === false) bonus -= 200;
    return bonus;
  };
  for (let lines = 1; lines <= maxLines; lines++) {
    const target = width(0, n) / lines;
    // best[k][i]: cheapest layout of words i.. in k lines; cut[k][i]: where its first line ends.
    const best: number[][] = [];
    const cut: number[][] = [];
    for (let k = 0; k <= lines; k++) {
      best.push(new Array<number>(n + 1).fill(Infinity));
      cut.push(new Array<number>(n + 1).fill(-1));
    }
    best[0]![n] = 0;
    for (let k = 1; k <= lines; k++) {
      for (let i = n - 1; i >= 0; i--) {
        for (let j = i + 1; j <= n; j++) {
          const w = width(i, j);
          if (w > maxLineChars) break;
          const rest = best[k - 1]![j]!;
          if (rest === Infinity) continue;
          const cost = (w - target) ** 2 + rest - (j < n ? breakBonus(j) : 0);
          if (cost < best[k]![i]!) {
            best[k]![i] = cost;
            cut[k]![i] = j;
          }
        }
      }
    }
    if (best[lines]![0] === Infinity) continue;
    const out: string[] = [];
    for (let k = lines, i = 0; k > 0; k--) {
      const j = cut[k]![i]!;
      out.push(lineText(i, j));
      i = j;
    }
    return out;
  }
  return null;
}

interface Draft {
  words: CaptionWord[];
  showLabel: boolean;
}

export function buildCues(words: readonly CaptionWord[], options: Partial<CueOptions> = {}): Cue[] {
  const o: CueOptions = { ...DEFAULT_CUE_OPTIONS, ...options };
  const drafts: Draft[] = [];
  let current: Draft | null = null;
  let lastSpeaker: string | undefined;

  const prefixOf = (d: Draft): number =>
    d.showLabel && d.words[0]?.speaker ? chars(labelPrefix(d.words[0].speaker)) : 0;
  const fits = (d: Draft): boolean => {
    const first = d.words[0];
    const last = d.words[d.words.length - 1];
    if (!first || !last) return true;
    if (d.words.length > 1 && last.endMs - first.startMs > o.maxDurationMs) return false;
    return layoutLines(d.words, o.maxLineChars, o.maxLines, prefixOf(d)) !== null;
  };
  const open = (w: CaptionWord): Draft => {
    const d: Draft = { words: [w], showLabel: w.speaker !== undefined && w.speaker !== lastSpeaker };
    lastSpeaker = w.speaker;
    drafts.push(d);
    return d;
  };

  for (const w of words) {
    const prev = current?.words[current.words.length - 1];
    const mustBreak =
      !current || !prev || w.speaker !== prev.speaker || w.startMs - prev.endMs >= o.pauseMs || endsSentence(prev.text);
    if (mustBreak) {
      current = open(w);
      continue;
    }
    const grown: Draft = { words: [...current!.words, w], showLabel: current!.showLabel };
    if (fits(grown)) {
      current!.words.push(w);
      continue;
    }
    // Too long: end the cue after its last clause if that leaves a fuller cue behind.
    const d = current!;
    const clause = lastClauseBreak(d.words);
    if (clause > 0) {
      const carried: Draft = { words: [...d.words.slice(clause), w], showLabel: false };
      if (fits(carried)) {
        d.words = d.words.slice(0, clause);
        drafts.push(carried);
        current = carried;
        continue;
      }
    }
    current = open(w);
  }
  adoptOrphans(drafts, o, fits);
  const cues = timeCues(drafts, o);
  if (o.speakerLabels) return cues;
  return cues.map(({ speaker: _speaker, ...c }) => ({ ...c, showLabel: false }));
}

/**
 * A cue of one word that finishes what the cue before it was saying (the sentence's last word
 * after a full two-line cue) would flash alone for a second: it takes words from the end of that
 * cue until it holds half a line, or as many as still fit in both. Cues at a sentence end, a
 * speaker change or a pause stay as they are.
 */
function adoptOrphans(drafts: Draft[], o: CueOptions, fits: (d: Draft) => boolean): void {
  for (let i = 1; i < drafts.length; i++) {
    const d = drafts[i]!;
    const prev = drafts[i - 1]!;
    const first = d.words[0];
    const before = prev.words[prev.words.length - 1];
    if (d.words.length !== 1 || !first || !before || prev.words.length < 2) continue;
    const continues =
      first.speaker === before.speaker && first.startMs - before.endMs < o.pauseMs && !endsSentence(before.text);
    if (!continues) continue;
    const half = Math.ceil(o.maxLineChars / 2);
    while (prev.words.length > 1 && chars(joinWords(d.words)) < half) {
      const moved = prev.words[prev.words.length - 1]!;
      const grown: Draft = { words: [moved, ...d.words], showLabel: false };
      if (!fits(grown)) break;
      prev.words = prev.words.slice(0, -1);
      d.words = grown.words;
    }
  }
}

/** Index after the last clause-ending word in the second half of the cue; 0 when none. */
function lastClauseBreak(words: readonly CaptionWord[]): number {
  for (let i = words.length - 1; i >= Math.ceil(words.length / 2); i--) {
    if (CLAUSE_END.test(words[i - 1]?.text ?? '')) return i;
  }
  return 0;
}

/** Times: monotonic, never overlapping, ≥ minDuration where the gap allows, ≤ maxDuration. */
function timeCues(drafts: readonly Draft[], o: CueOptions): Cue[] {
  const cues: Cue[] = [];
  for (const d of drafts) {
    const first = d.words[0];
    const last = d.words[d.words.length - 1];
    if (!first || !last) continue;
    const speaker = first.speaker;
    const prefix = d.showLabel && speaker ? chars(labelPrefix(speaker)) : 0;
    // A single word too long for a line stands alone, overflowing rather than being cut.
    const lines = layoutLines(d.words, o.maxLineChars, o.maxLines, prefix) ?? [joinWords(d.words)];
    cues.push({
      startMs: first.startMs,
      endMs: last.endMs,
      words: d.words,
      lines,
      ...(speaker === undefined ? {} : { speaker }),
      showLabel: d.showLabel,
    });
  }
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i]!;
    const prevEnd = cues[i - 1]?.endMs ?? 0;
    c.startMs = Math.max(c.startMs, prevEnd);
    c.endMs = Math.min(Math.max(c.endMs, c.startMs), c.startMs + o.maxDurationMs);
  }
  for (let i = 0; i < cues.length; i++) {
    const c = cues[i]!;
    const next = cues[i + 1];
    const nextStart = next ? next.startMs - o.minGapMs : Infinity;
    if (c.endMs - c.startMs < o.minDurationMs)
      c.endMs = Math.max(c.endMs, Math.min(c.startMs + o.minDurationMs, nextStart));
    if (!next) continue;
    // The gap before the next cue: taken from this cue's end while it keeps some time on screen,
    // otherwise the next cue starts later. A zero-length cue is dropped by players, so every cue
    // keeps at least a millisecond.
    if (c.endMs > nextStart) c.endMs = Math.max(c.startMs + 1, nextStart);
    if (c.endMs <= c.startMs) c.endMs = c.startMs + 1;
    const earliest = c.endMs + o.minGapMs;
    if (next.startMs < earliest) {
      next.startMs = earliest;
      next.endMs = Math.max(next.endMs, next.startMs + 1);
    }
  }
  // Pushing a cue later can take it past its longest time: trim it back (never before its start).
  for (const c of cues) c.endMs = Math.min(c.endMs, c.startMs + o.maxDurationMs);
  return cues;
}
