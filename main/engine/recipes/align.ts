// Times for what the AI layer quoted. It sees the transcript's text without times (§6.4), so a
// chapter or a pull quote comes back with a verbatim quote of its first words; the quote is found in
// the transcript's words, folded as History's search folds them (case, accents, punctuation), and
// takes the start of its first word. Pure. Nothing gets an invented time: a quote not found is
// reported and left out.
import { searchTokens } from '../transcript/search-text.js';

export interface AlignWord {
  text: string;
  startMs: number;
  endMs: number;
  speaker?: string;
}

/** The folded tokens of all words, each with the index of the word it came from. */
export interface TokenIndex {
  tokens: string[];
  wordOf: number[];
  /** True where a token is its word's first: a quote starts on a word, never inside one. */
  wordStart: boolean[];
}

export function indexWords(words: readonly Pick<AlignWord, 'text'>[]): TokenIndex {
  const out: TokenIndex = { tokens: [], wordOf: [], wordStart: [] };
  words.forEach((w, i) => {
    searchTokens(w.text).forEach((t, k) => {
      out.tokens.push(t);
      out.wordOf.push(i);
      out.wordStart.push(k === 0);
    });
  });
  return out;
}

/** Shortest prefix of a quote still searched for when the whole quote is not found verbatim. */
export const MIN_QUOTE_TOKENS = 4;

function findRun(index: TokenIndex, needle: readonly string[], from: number): number {
  const { tokens, wordStart } = index;
  outer: for (let i = from; i + needle.length <= tokens.length; i++) {
    if (!wordStart[i]) continue;
    for (let k = 0; k < needle.length; k++) if (tokens[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

export interface Match {
  /** Index of the first and last matched word. */
  first: number;
  last: number;
  /** Token position of the match, for searching on after it. */
  token: number;
}

/**
 * Where `quote` occurs, searching from token `from` on and then, only when it is nowhere after, from
 * the start: a quote given again is the next time it is said, even when said a little otherwise
 * then. The whole quote first; failing that, ever shorter prefixes down to MIN_QUOTE_TOKENS (the
 * model may misquote the end of a long quote, rarely its first words). Undefined when not found.
 */
export function findQuote(index: TokenIndex, quote: string, from = 0): Match | undefined {
  const needle = searchTokens(quote);
  if (needle.length === 0) return undefined;
  const shortest = Math.min(needle.length, MIN_QUOTE_TOKENS);
  for (const start of from > 0 ? [from, 0] : [0]) {
    for (let n = needle.length; n >= shortest; n--) {
      const at = findRun(index, needle.slice(0, n), start);
      if (at >= 0) return { first: index.wordOf[at]!, last: index.wordOf[at + n - 1]!, token: at };
    }
  }
  return undefined;
}

export interface ChapterIn {
  title: string;
  firstWords: string;
}

export interface TimedChapter {
  title: string;
  startMs: number;
}

export interface ChapterAlignment {
  chapters: TimedChapter[];
  /** Chapters whose opening words were not found in the transcript: left out. */
  missing: ChapterIn[];
  /** Chapters folded into the one before because they started less than MIN_CHAPTER_GAP_MS after it. */
  merged: TimedChapter[];
}

export const MIN_CHAPTER_GAP_MS = 10_000;

/**
 * Chapters in time order, the first at 0 (what comes before the first topic belongs to it), none
 * closer than MIN_CHAPTER_GAP_MS to the one before (the later one merges into it). A repeated
 * phrase is taken at its first occurrence after the previous chapter's.
 */
export function alignChapters(words: readonly AlignWord[], input: readonly ChapterIn[]): ChapterAlignment {
  const index = indexWords(words);
  const found: Array<TimedChapter & { order: number }> = [];
  const missing: ChapterIn[] = [];
  let from = 0;
  input.forEach((c, order) => {
    const m = findQuote(index, c.firstWords, from);
    if (!m) {
      missing.push(c);
      return;
    }
    from = m.token + 1;
    found.push({ title: c.title.trim() || `Chapter ${order + 1}`, startMs: words[m.first]!.startMs, order });
  });
  found.sort((a, b) => a.startMs - b.startMs || a.order - b.order);
  const { chapters, merged } = settleChapters(found.map((c) => ({ title: c.title, startMs: c.startMs })));
  return { chapters, missing, merged };
}

/**
 * The chapter rules on a list already in time order: the first starts at 0 (what comes before the
 * first topic belongs to it), and a chapter less than MIN_CHAPTER_GAP_MS after the one before
 * merges into it (left out, its title with it). Extra fields (an id) are kept.
 */
export function settleChapters<T extends TimedChapter>(sorted: readonly T[]): { chapters: T[]; merged: T[] } {
  const chapters: T[] = [];
  const merged: T[] = [];
  for (const [i, c] of sorted.entries()) {
    const startMs = i === 0 ? 0 : c.startMs;
    const prev = chapters[chapters.length - 1];
    if (prev && startMs - prev.startMs < MIN_CHAPTER_GAP_MS) merged.push({ ...c, startMs });
    else chapters.push({ ...c, startMs });
  }
  return { chapters, merged };
}

export interface TimedQuote {
  text: string;
  startMs: number;
  endMs: number;
  speaker?: string;
}

export interface QuoteAlignment {
  quotes: TimedQuote[];
  missing: string[];
}

/**
 * Pull quotes with the time and speaker of their first word, in time order. A quote given again
 * (the same words said twice) is the next time they are said after the last one taken.
 */
export function alignQuotes(words: readonly AlignWord[], input: readonly string[]): QuoteAlignment {
  const index = indexWords(words);
  const quotes: TimedQuote[] = [];
  const missing: string[] = [];
  /** Folded quote → the token after its last occurrence taken. */
  const after = new Map<string, number>();
  for (const q of input) {
    const key = searchTokens(q).join(' ');
    const m = findQuote(index, q, after.get(key) ?? 0);
    if (!m) {
      missing.push(q);
      continue;
    }
    after.set(key, m.token + 1);
    const first = words[m.first]!;
    quotes.push({
      text: q.trim(),
      startMs: first.startMs,
      endMs: words[m.last]!.endMs,
      ...(first.speaker === undefined ? {} : { speaker: first.speaker }),
    });
  }
  quotes.sort((a, b) => a.startMs - b.startMs);
  return { quotes, missing };
}
