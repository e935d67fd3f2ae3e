// Find and replace inside the open transcript: over its words (all of them, not only the paragraphs
// on screen), folded as History's search folds them (case, accents, ß, composed or decomposed), by
// whole words. A replacement keeps the punctuation around the words it replaces. Pure.

import { foldText } from '../../../../common/text-fold.js';

/** The folded letters-and-digits runs of a text. */
export function findTokens(s: string): string[] {
  return foldText(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

export interface FindMatch {
  /** words[from] up to, not including, words[to]. */
  from: number;
  to: number;
}

/**
 * Runs of consecutive words whose tokens are exactly the query's, in order and apart (a match
 * never starts inside the one before it). A query of no letters or digits finds nothing.
 */
export function findMatches(words: ReadonlyArray<{ text: string }>, query: string): FindMatch[] {
  const q = findTokens(query);
  if (q.length === 0) return [];
  const tokens = words.map((w) => findTokens(w.text));
  const out: FindMatch[] = [];
  let i = 0;
  while (i < words.length) {
    const to = matchAt(tokens, i, q);
    if (to > i) {
      out.push({ from: i, to });
      i = to;
    } else i++;
  }
  return out;
}

/** Where a match of `q` starting at word `i` ends (exclusive), or -1. */
function matchAt(tokens: readonly string[][], i: number, q: readonly string[]): number {
  let k = 0;
  let j = i;
  while (k < q.length) {
    const ts = tokens[j];
    if (!ts) return -1;
    if (ts.length === 0) {
      // A word of punctuation alone ("–") inside a match is passed over, never starts one.
      if (j === i) return -1;
      j++;
      continue;
    }
    for (const t of ts) {
      if (t !== q[k]) return -1;
      k++;
    }
    j++;
  }
  return j;
}

/**
 * The text that replaces a match: what was typed, with the punctuation before the first word and
 * after the last kept ("Jurgen," → "Jürgen,"), unless the typed text already carries it.
 */
export function replacementText(words: ReadonlyArray<{ text: string }>, m: FindMatch, typed: string): string {
  const text = typed.trim().replace(/\s+/g, ' ');
  const lead = /^[^\p{L}\p{N}]*/u.exec(words[m.from]?.text ?? '')?.[0] ?? '';
  const trail = /[^\p{L}\p{N}]*$/u.exec(words[m.to - 1]?.text ?? '')?.[0] ?? '';
  if (text === '') return '';
  return (text.startsWith(lead) ? '' : lead) + text + (text.endsWith(trail) ? '' : trail);
}

/** Every match's replacement as one edit's list (matches whose words would not change left out). */
export function replacementsOf(
  words: ReadonlyArray<{ text: string }>,
  matches: readonly FindMatch[],
  typed: string,
): Array<{ from: number; to: number; text: string }> {
  const out: Array<{ from: number; to: number; text: string }> = [];
  for (const m of matches) {
    const text = replacementText(words, m, typed);
    const before = words
      .slice(m.from, m.to)
      .map((w) => w.text)
      .join(' ');
    if (text !== before) out.push({ from: m.from, to: m.to, text });
  }
  return out;
}

/** The match to go to from the playhead's word: the first at or after it (wrapping), for `delta` +1. */
export function nearestMatch(matches: readonly FindMatch[], word: number): number {
  if (matches.length === 0) return -1;
  const i = matches.findIndex((m) => m.to > word);
  return i < 0 ? 0 : i;
}

/** The matches that hold words of [first, end), from matches in order (a binary search to the first). */
export function matchesIn(matches: readonly FindMatch[], first: number, end: number): FindMatch[] {
  let lo = 0;
  let hi = matches.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (matches[mid]!.to <= first) lo = mid + 1;
    else hi = mid;
  }
  const out: FindMatch[] = [];
  for (let i = lo; i < matches.length && matches[i]!.from < end; i++) out.push(matches[i]!);
  return out;
}
