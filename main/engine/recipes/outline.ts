// The timed outline of a recording: the recipe answers with times taken from the transcript's
// words (align.ts), and what could not be placed, in words a person can act on. Every recipe
// format is written from it. Pure.
import type { NormalizedTranscript } from '../captions/normalize.js';
import type { ExportResult } from '../../service/types.js';
import { alignChapters, alignQuotes, type ChapterIn, type TimedChapter, type TimedQuote } from './align.js';
import { readAnswers, type AnswerFormats, type RecipeAnswers } from './answers.js';

export interface Outline extends Omit<RecipeAnswers, 'chapters' | 'quotes' | 'problems'> {
  chapters: TimedChapter[];
  quotes: TimedQuote[];
  /** End of the last word: where the last chapter ends when the media length is unknown. */
  endMs: number;
  /** Answers that could not be used as they came, then chapters and quotes left out, one sentence each. */
  notes: string[];
  /** The chapters answer came back but could not be used as it was (named in `notes`). */
  chaptersBroken?: boolean;
}

const listed = (items: readonly string[]): string => items.map((s) => `“${s}”`).join(', ');

/** `formats`: what the job sent for each answer (absent: the recipes' own), see answers.ts. */
export function buildOutline(
  result: ExportResult,
  transcript: NormalizedTranscript,
  formats: AnswerFormats = {},
): Outline {
  const { chapters: chapterIn, quotes: quoteIn, problems = [], ...rest } = readAnswers(result, formats);
  const words = transcript.words;
  const ch = alignChapters(words, chapterIn ?? []);
  const qu = alignQuotes(words, quoteIn ?? []);
  const notes: string[] = [...problems];
  if (ch.missing.length > 0) {
    notes.push(
      `${ch.missing.length === 1 ? '1 chapter was' : `${ch.missing.length} chapters were`} left out: ` +
        `their opening words are not in the transcript (${listed(ch.missing.map((c: ChapterIn) => c.title || c.firstWords))}).`,
    );
  }
  if (ch.merged.length > 0) {
    notes.push(
      `${ch.merged.length === 1 ? '1 chapter' : `${ch.merged.length} chapters`} merged into the one before, ` +
        `starting less than 10 seconds after it (${listed(ch.merged.map((c) => c.title))}).`,
    );
  }
  if (qu.missing.length > 0) {
    notes.push(
      `${qu.missing.length === 1 ? '1 quote was' : `${qu.missing.length} quotes were`} left out: not found word ` +
        `for word in the transcript (${listed(qu.missing)}).`,
    );
  }
  const endMs = words.reduce((m, w) => Math.max(m, w.endMs), 0);
  const chaptersBroken = problems.some((p) => p.startsWith('The chapters answer'));
  return {
    ...rest,
    chapters: ch.chapters,
    quotes: qu.quotes,
    endMs,
    notes,
    ...(chaptersBroken ? { chaptersBroken } : {}),
  };
}
