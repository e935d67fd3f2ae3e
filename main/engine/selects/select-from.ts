// The words a select takes when it is picked from something other than words: a moment of a
// History search hit widened to its sentence or its speaker's turn, a marker, a chapter or a pull
// quote. One rule for the review's panels, History and the bridge; the CLI's `--quote` finds its
// words with the same findQuote. Pure.
import { SELECT_WIDENINGS, type SelectSource } from '../../../common/select-sources.js';
import { formatTimestamp } from '../../../common/timestamp.js';
import type { UserMarkerColour } from '../transcript/markers.js';
import { paragraphsOf, type Transcript, type TranscriptWord } from '../transcript/transcript.js';
import { findQuote, firstWordsLabel, SELECT_LIMITS, SelectError } from './selects.js';

export { SELECT_WIDENINGS, type SelectSource };

export interface PickedWords {
  /** Word range [first, end) of the transcript. */
  range: [number, number];
  /** What the source was called (a chapter's title, a marker's name): the select's label. */
  label?: string;
  colour?: UserMarkerColour;
}

/** A word that ends a sentence: . ? ! … or the CJK 。？！, before any closing quote or bracket. */
const SENTENCE_END = /[.?!…。？！][\p{Pf}\p{Pe}"']*$/u;
export const endsSentence = (text: string): boolean => SENTENCE_END.test(text);

/** The word spoken at `ms`; a moment between two words (or before the first) takes the next. */
export function wordAt(words: readonly TranscriptWord[], ms: number): number {
  const i = words.findIndex((w) => w.endMs > ms || (w.startMs <= ms && w.endMs >= ms));
  if (i < 0) {
    const last = words[words.length - 1];
    throw new SelectError(
      last
        ? `Nothing is said at ${formatTimestamp(ms)} or after (the last word ends at ${formatTimestamp(last.endMs)}).`
        : 'This transcript has no timed words to pick from.',
    );
  }
  return i;
}

/** The speaker's turn word `i` is in: a run of one speaker (without speakers, as the review's paragraphs part). */
export function turnOf(words: readonly TranscriptWord[], i: number): [number, number] {
  const p = paragraphsOf(words).find((x) => x.first <= i && i < x.end);
  return p ? [p.first, p.end] : [i, i + 1];
}

/** The sentence word `i` is in, never past its speaker's turn. */
export function sentenceOf(words: readonly TranscriptWord[], i: number): [number, number] {
  const [turnFirst, turnEnd] = turnOf(words, i);
  let first = i;
  while (first > turnFirst && !endsSentence(words[first - 1]!.text)) first--;
  let end = i + 1;
  while (end < turnEnd && !endsSentence(words[end - 1]!.text)) end++;
  return [first, end];
}

const widened = (words: readonly TranscriptWord[], i: number, widen: 'sentence' | 'turn'): [number, number] =>
  widen === 'turn' ? turnOf(words, i) : sentenceOf(words, i);

/** A name as a select's label: cut to its first words when it is longer than a label may be. */
const labelOf = (name: string): string =>
  Array.from(name).length > SELECT_LIMITS.label ? firstWordsLabel(name) : name;

const none = (what: string, id: string, count: number, why: string): SelectError =>
  new SelectError(
    `There is no ${what} "${id}" in this transcript (${count > 0 ? `it has ${count} ${what}${count === 1 ? '' : 's'}` : why}).`,
  );

/**
 * The words a select from `from` holds: a moment's sentence or turn; a marker's sentence (markers
 * are moments); a chapter's words, up to the next chapter; a quote's first run of its words from
 * where it starts (its span's words when its text no longer reads there, typed by the editor).
 */
export function wordsFrom(t: Pick<Transcript, 'words' | 'markers' | 'outline'>, from: SelectSource): PickedWords {
  const words = t.words;
  if (words.length === 0) throw new SelectError('This transcript has no timed words to pick from.');
  switch (from.kind) {
    case 'moment':
      return { range: widened(words, wordAt(words, from.ms), from.widen) };
    case 'marker': {
      const markers = t.markers ?? [];
      const m = markers.find((x) => x.id === from.id);
      if (!m) throw none('marker', from.id, markers.length, 'it has none');
      return { range: sentenceOf(words, wordAt(words, m.atMs)), label: labelOf(m.name), colour: m.colour };
    }
    case 'chapter': {
      const chapters = t.outline?.chapters ?? [];
      const at = chapters.findIndex((x) => x.id === from.id);
      const c = chapters[at];
      if (!c) throw none('chapter', from.id, chapters.length, 'no recipe made chapters for it');
      const nextMs = chapters[at + 1]?.startMs ?? Infinity;
      const first = words.findIndex((w) => w.startMs >= c.startMs);
      let end = first;
      while (end >= 0 && end < words.length && words[end]!.startMs < nextMs) end++;
      if (first < 0 || end === first) throw new SelectError(`The chapter "${c.title}" holds no words.`);
      return { range: [first, end], label: labelOf(c.title) };
    }
    case 'quote': {
      const quotes = t.outline?.quotes ?? [];
      const q = quotes.find((x) => x.id === from.id);
      if (!q) throw none('quote', from.id, quotes.length, 'no recipe found quotes in it');
      const start = wordAt(words, q.startMs);
      const found = findQuote(words, q.text, start);
      if (found) return { range: found };
      let end = start;
      while (end < words.length && words[end]!.startMs < q.endMs) end++;
      return { range: [start, Math.max(end, start + 1)] };
    }
  }
}
