// One correction applied to a transcript, pure: the words typed in place of others keep the time
// the others took (spread over it by characters), a speaker gets a name for the whole file, or a
// run of words moves to another speaker. Words outside the edit are never touched.
import {
  applyOutlineEdit,
  OutlineEditError,
  type OutlineEdit,
  type OutlineEditOptions,
} from '../recipes/outline-edit.js';
import { followReplaceAll, followWords, wordsBetween } from '../recipes/outline-follow.js';
import { applyMarkerEdit, MarkerEditError, type MarkerEdit } from './markers.js';
import type { Transcript, TranscriptWord } from './transcript.js';

export type TranscriptEdit =
  /** The editor's own markers (markers.ts). */
  | MarkerEdit
  /** The recipe's chapters and pull quotes (recipes/outline-edit.ts). */
  | OutlineEdit
  /** Words [from, to) become the words of `text`, spread over the original span ('' removes them). */
  | { kind: 'replace'; from: number; to: number; text: string }
  /** Names a speaker for the whole file ('' gives back the default name). */
  | { kind: 'renameSpeaker'; speaker: string; name: string }
  /** Words [from, to) (a paragraph) are given to another speaker. */
  | { kind: 'setSpeaker'; from: number; to: number; speaker: string }
  /**
   * Several replaces as one change (a find-and-replace): each range names words of the transcript
   * as it was before any of them, the ranges in order and apart, so the whole is undone in one step.
   */
  | { kind: 'replaceMany'; replacements: ReadonlyArray<{ from: number; to: number; text: string }> };

/** The edit does not fit the transcript (a stale range, an empty name...): nothing changed. */
export class TranscriptEditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptEditError';
  }
}

const MAX_NAME = 100;

function checkRange(t: Transcript, from: number, to: number): void {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to <= from || to > t.words.length) {
    throw new TranscriptEditError(`Words ${from} to ${to} are not in this transcript (it has ${t.words.length}).`);
  }
}

/** The typed text as words: split at white space, nothing empty. */
export function tokensOf(text: string): string[] {
  return text
    .normalize('NFC')
    .split(/\s+/u)
    .filter((w) => w !== '');
}

/**
 * Times of `tokens` laid over [startMs, endMs]: each token's share of the span is proportional to
 * its length in characters, so a long word gets more time than a short one. Integer milliseconds,
 * in order, within the span, each ending where the next starts.
 */
export function spreadTimes(tokens: readonly string[], startMs: number, endMs: number): Array<[number, number]> {
  const lengths = tokens.map((t) => Math.max(1, Array.from(t).length));
  const total = lengths.reduce((a, b) => a + b, 0);
  const span = Math.max(0, endMs - startMs);
  const out: Array<[number, number]> = [];
  let acc = 0;
  let prev = startMs;
  for (const len of lengths) {
    acc += len;
    const end = Math.max(prev, Math.min(endMs, startMs + Math.round((span * acc) / total)));
    out.push([prev, end]);
    prev = end;
  }
  return out;
}

function replace(t: Transcript, from: number, to: number, text: string): Transcript {
  checkRange(t, from, to);
  const old = t.words.slice(from, to);
  const tokens = tokensOf(text);
  const first = old[0]!;
  const last = old[old.length - 1]!;
  let fresh: TranscriptWord[];
  if (tokens.length === old.length) {
    // As many words as before: each keeps its own time (a fixed typo stays where it was said).
    fresh = old.map((w, i) => ({ ...w, text: tokens[i]!, corrected: w.corrected || w.text !== tokens[i] }));
  } else {
    const times = spreadTimes(tokens, first.startMs, last.endMs);
    fresh = tokens.map((text, i) => {
      const [startMs, endMs] = times[i]!;
      // The speaker of the original word heard at the new word's middle.
      const mid = (startMs + endMs) / 2;
      const under = old.find((w) => w.endMs >= mid) ?? last;
      // The keys the service gave the word heard there stay (scripts read them from the JSON).
      return {
        text,
        startMs,
        endMs,
        ...(under.speaker === undefined ? {} : { speaker: under.speaker }),
        ...(under.confidence === undefined ? {} : { confidence: under.confidence }),
        ...(under.language === undefined ? {} : { language: under.language }),
        spaceBefore: i === 0 ? first.spaceBefore : true,
        corrected: true,
      };
    });
  }
  const words = [...t.words.slice(0, from), ...fresh, ...t.words.slice(to)];
  // The recipe's quotes said over these words now quote the corrected ones (outline-follow.ts).
  const outline = t.outline && followWords(t.outline, words, first.startMs, last.endMs);
  return { ...t, words, ...(outline ? { outline } : {}) };
}

function rename(t: Transcript, speaker: string, name: string): Transcript {
  if (!t.speakers.includes(speaker))
    throw new TranscriptEditError(`There is no speaker "${speaker}" in this transcript.`);
  const clean = name.replace(/\s+/gu, ' ').trim();
  if (Array.from(clean).length > MAX_NAME)
    throw new TranscriptEditError(`A speaker name has at most ${MAX_NAME} characters.`);
  const names = { ...t.names };
  if (clean === '') delete names[speaker];
  else names[speaker] = clean;
  return { ...t, names };
}

function setSpeaker(t: Transcript, from: number, to: number, speaker: string): Transcript {
  checkRange(t, from, to);
  if (speaker.trim() === '') throw new TranscriptEditError('A speaker id cannot be empty.');
  const speakers = t.speakers.includes(speaker) ? t.speakers : [...t.speakers, speaker];
  const words = t.words.slice();
  for (let i = from; i < to; i++) {
    const w = words[i]!;
    if (w.speaker !== speaker) words[i] = { ...w, speaker, corrected: true };
  }
  return { ...t, words, speakers };
}

function replaceMany(
  t: Transcript,
  replacements: ReadonlyArray<{ from: number; to: number; text: string }>,
): Transcript {
  if (replacements.length === 0) throw new TranscriptEditError('A find-and-replace needs at least one match.');
  let end = 0;
  for (const r of replacements) {
    checkRange(t, r.from, r.to);
    if (r.from < end) throw new TranscriptEditError('The words to replace must be in order and must not overlap.');
    end = r.to;
  }
  // What each range said before, for the chapter titles and typed quotes that say it too.
  const phrases = replacements.map((r) => ({
    from: wordsBetween(t.words.slice(r.from, r.to), -Infinity, Infinity),
    to: tokensOf(r.text).join(' '),
  }));
  // From the last to the first, so the ranges still to apply keep naming the words they named.
  let out = t;
  for (let i = replacements.length - 1; i >= 0; i--) {
    const r = replacements[i]!;
    out = replace(out, r.from, r.to, r.text);
  }
  return out.outline ? { ...out, outline: followReplaceAll(out.outline, phrases) } : out;
}

/** `options.strict`: an edit as the editor makes it, refused where a replay would merge a chapter away. */
export function applyEdit(t: Transcript, edit: TranscriptEdit, options: OutlineEditOptions = {}): Transcript {
  switch (edit.kind) {
    case 'replace':
      return replace(t, edit.from, edit.to, edit.text);
    case 'renameSpeaker':
      return rename(t, edit.speaker, edit.name);
    case 'setSpeaker':
      return setSpeaker(t, edit.from, edit.to, edit.speaker);
    case 'addMarker':
    case 'updateMarker':
    case 'removeMarker':
      try {
        return { ...t, markers: applyMarkerEdit(t.markers ?? [], edit) };
      } catch (e) {
        throw e instanceof MarkerEditError ? new TranscriptEditError(e.message) : e;
      }
    case 'replaceMany':
      return replaceMany(t, edit.replacements);
    case 'addChapter':
    case 'updateChapter':
    case 'removeChapter':
    case 'addQuote':
    case 'updateQuote':
    case 'removeQuote':
      try {
        return { ...t, outline: applyOutlineEdit(t.outline, t.words, edit, options) };
      } catch (e) {
        throw e instanceof OutlineEditError ? new TranscriptEditError(e.message) : e;
      }
  }
}
