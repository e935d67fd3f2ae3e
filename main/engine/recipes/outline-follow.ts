// The recipe's chapters and pull quotes after the words are corrected, so that what gets published
// (show notes, chapters, the editor formats' markers) says what the corrected transcript says.
// A pull quote the recipe found is a run of the transcript: its text is the corrected words said
// between its start and end. A quote the editor typed or moved is theirs, and a chapter's title is
// the recipe's own summary of a topic: neither is read again from the words, but a Replace all
// (an "everywhere" the editor asked for, a guest's name fixed once) reaches them as a phrase.
// A single correction of a word does not rewrite titles: "their" fixed to "there" in one place is
// not a change to every title. Pure.
import type { EditableOutline, OutlineQuote } from './outline-types.js';

export interface FollowWord {
  text: string;
  startMs: number;
  endMs: number;
  spaceBefore: boolean;
}

/** The words said from `startMs` up to `endMs` (by where each starts), as one line. */
export function wordsBetween(words: readonly FollowWord[], startMs: number, endMs: number): string {
  let out = '';
  for (const w of words) {
    if (w.startMs < startMs || w.startMs >= endMs) continue;
    out += (out !== '' && w.spaceBefore ? ' ' : '') + w.text;
  }
  return out;
}

/**
 * Quotes the recipe found that overlap [startMs, endMs) (the span of the words just corrected),
 * their text read again from the corrected words. A quote left with no words keeps its text.
 */
export function followWords(
  outline: EditableOutline,
  words: readonly FollowWord[],
  startMs: number,
  endMs: number,
): EditableOutline {
  let changed = false;
  const quotes = outline.quotes.map((q): OutlineQuote => {
    if (q.typed || !(startMs < q.endMs && q.startMs < endMs)) return q;
    const text = wordsBetween(words, q.startMs, q.endMs);
    if (text === '' || text === q.text) return q;
    changed = true;
    return { ...q, text };
  });
  return changed ? { ...outline, quotes } : outline;
}

/** A phrase without the punctuation around it ("supplier." is the word "supplier"). */
const bare = (s: string): string => s.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every whole-word `from` (any case) made `to`. */
export function replacePhrase(text: string, from: string, to: string): string {
  const f = bare(from);
  if (f === '') return text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(f).replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(pattern, () => bare(to));
}

/**
 * After a Replace all: chapter titles and the quotes the editor typed get each replaced phrase
 * (`from` as the words read before, `to` as typed), whole words, any case.
 */
export function followReplaceAll(
  outline: EditableOutline,
  phrases: ReadonlyArray<{ from: string; to: string }>,
): EditableOutline {
  const pairs = phrases.filter((p) => bare(p.from) !== '' && bare(p.from) !== bare(p.to));
  if (pairs.length === 0) return outline;
  const apply = (s: string): string => pairs.reduce((acc, p) => replacePhrase(acc, p.from, p.to), s);
  let changed = false;
  const chapters = outline.chapters.map((c) => {
    const title = apply(c.title);
    if (title === c.title) return c;
    changed = true;
    return { ...c, title };
  });
  const quotes = outline.quotes.map((q) => {
    if (!q.typed) return q;
    const text = apply(q.text);
    if (text === q.text) return q;
    changed = true;
    return { ...q, text };
  });
  return changed ? { ...outline, chapters, quotes } : outline;
}
