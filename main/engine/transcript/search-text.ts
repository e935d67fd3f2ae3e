// What History's transcript search compares: words folded so that case and accents do not matter
// ("Straßen", "STRASSEN" and "strassen" are one word; "Café" is "cafe"), and transcripts cut into
// lines of about 120 characters, each with the time of its words, to show a hit and play it. Pure.

/** NFKD, combining marks dropped, lower case, ß as ss. */
export function foldText(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss');
}

/** The folded words of a text: letters and digits, anything else separates. */
export function searchTokens(s: string): string[] {
  return foldText(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
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
): { text: string; atMs: number } | undefined {
  let best: { score: number; text: string; atMs: number } | undefined;
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
      best = { score, text: line.words.join(' '), atMs: line.at[first] ?? line.at[0] ?? 0 };
      if (score === terms.length) break;
    }
  }
  return best && { text: best.text, atMs: best.atMs };
}
