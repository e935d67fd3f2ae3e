// What History's transcript search compares: words folded so that case and accents do not matter
// ("Straßen", "STRASSEN" and "strassen" are one word; "Café" is "cafe"), and transcripts cut into
// lines of about 120 characters, each with the time of its words, to show a hit and play it. Pure.

import { foldText } from '../../../common/text-fold.js';

export { foldText };

/** The folded words of a text: letters and digits, anything else separates. */
export function searchTokens(s: string): string[] {
  return foldText(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/**
 * Whether a file name answers a search, folded as transcript words are (so `jurgen`, `Jürgen` typed
 * composed and a name macOS stored decomposed are one): every word of the query is in the name, in
 * any order; a query of no words (only punctuation) is looked for as typed, folded. `fold` may be
 * a cached foldText (History folds up to 100,000 names per query).
 */
export function nameMatcher(query: string, fold: (name: string) => string = foldText): (name: string) => boolean {
  const terms = searchTokens(query);
  const whole = foldText(query).trim();
  return (name) => {
    const folded = fold(name);
    return terms.length > 0 ? terms.every((t) => folded.includes(t)) : folded.includes(whole);
  };
}

/**
 * What History's search looks in for a job: its file name and, for a shared folder's file, the
 * computer that processed it ("bay 2" finds EDIT-BAY-2's jobs). The index keeps the same text.
 */
export function searchable(name: string, host?: string): string {
  return host ? `${name}\n${host}` : name;
}

export interface SearchLine {
  /** The words of the line, as written. */
  words: string[];
  /** Start of each word, milliseconds. */
  at: number[];
}

export const LINE_CHARS = 120;

/** Consecutive words in lines of at most about `width` characters. */
export function searchLines(words: ReadonlyArray<{ text: string; startMs: number }>, width = LINE_CHARS): SearchLine[] {
  const out: SearchLine[] = [];
  let cur: SearchLine = { words: [], at: [] };
  let len = 0;
  for (const w of words) {
    if (cur.words.length > 0 && len + 1 + w.text.length > width) {
      out.push(cur);
      cur = { words: [], at: [] };
      len = 0;
    }
    len += (cur.words.length > 0 ? 1 : 0) + w.text.length;
    cur.words.push(w.text);
    cur.at.push(w.startMs);
  }
  if (cur.words.length > 0) out.push(cur);
  return out;
}

/**
 * The line that holds most of the query's terms (a term matches a word it starts), earliest first
 * among equals, and the time of its first matching word. Undefined when no line holds any.
 */
export function bestLine(
  lines: readonly SearchLine[],
  terms: readonly string[],
): { text: string; atMs: number; hits: Array<[number, number]> } | undefined {
  let best: { score: number; line: SearchLine; folded: string[][]; atMs: number } | undefined;
  for (const line of lines) {
    const folded = line.words.map((w) => searchTokens(w));
    let score = 0;
    let first = -1;
    for (const term of terms) {
      const i = folded.findIndex((ts) => ts.some((t) => t.startsWith(term)));
      if (i < 0) continue;
      score++;
      if (first < 0 || i < first) first = i;
    }
    if (score > 0 && (!best || score > best.score)) {
      best = { score, line, folded, atMs: line.at[first] ?? line.at[0] ?? 0 };
      if (score === terms.length) break;
    }
  }
  if (!best) return undefined;
  // The words that hold a term, as character ranges of the line's text: shown highlighted.
  const hits: Array<[number, number]> = [];
  let at = 0;
  best.line.words.forEach((w, i) => {
    if (best.folded[i]!.some((t) => terms.some((term) => t.startsWith(term)))) hits.push([at, at + w.length]);
    at += w.length + 1;
  });
  return { text: best.line.words.join(' '), atMs: best.atMs, hits };
}
