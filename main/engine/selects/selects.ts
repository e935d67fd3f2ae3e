// Selects and the lists they are ordered in (a string-out). A select is a run of words of one clip,
// kept as the job's id and the times of its first word's start and last word's end.
//
// Note (anchoring): a correction never moves time. Words typed in place of others are spread over
// the span the others took (transcript-edit.ts), a speaker's name is a label on the words, and a
// re-export writes the same words again. So the words of a select are, at any time, the words of the
// current transcript whose middle falls within its span: the same words, corrected or not, and a
// speaker renamed since shows under the new name. Nothing about a select has to be rewritten when
// the transcript changes, and an undone correction brings the words back as they were. Pure.
import { z } from 'zod';
import { USER_MARKER_COLOURS, type UserMarkerColour } from '../transcript/markers.js';
import { foldText } from '../transcript/search-text.js';
import { speakerName, type Transcript, type TranscriptWord } from '../transcript/transcript.js';
import { joinWords } from '../captions/normalize.js';
import { SELECT_LIMITS } from '../../../common/edit-limits.js';
import { SPACER, type Spacer } from './spacers.js';

/** A select's colour: the editor's marker colours, which every NLE has a marker of. */
export const SELECT_COLOURS = USER_MARKER_COLOURS;
export type SelectColour = UserMarkerColour;
export const DEFAULT_SELECT_COLOUR: SelectColour = 'Green';

export { SELECT_LIMITS };

export interface Select {
  /** Stable, given when the select is made. */
  id: string;
  jobId: string;
  /** The first word's start and the last word's end, in ms from the media's start (see the note above). */
  fromMs: number;
  toMs: number;
  /** Absent: the select's first words, as they read now. */
  label?: string;
  colour: SelectColour;
  note: string;
  /** The words when the select was made, to say what it was when its clip is gone. */
  text: string;
}

export interface SelectList {
  version: 1;
  name: string;
  /** Bumped by every change. */
  revision: number;
  selects: Select[];
  /** Gaps and title cards between the selects (spacers.ts); absent when there are none. */
  spacers?: Spacer[];
}

const ms = z
  .number()
  .int()
  .min(0)
  .max(48 * 3600 * 1000);

export const SELECT = z
  .object({
    id: z.string().min(1).max(64),
    jobId: z.string().min(1).max(200),
    fromMs: ms,
    toMs: ms,
    label: z
      .string()
      .max(SELECT_LIMITS.label * 4)
      .optional(),
    colour: z.enum(SELECT_COLOURS),
    note: z.string().max(SELECT_LIMITS.note * 4),
    text: z.string().max(100_000),
  })
  .refine((s) => s.toMs >= s.fromMs, 'a select ends after it starts');

export const SELECT_LIST = z.object({
  version: z.literal(1),
  name: z
    .string()
    .min(1)
    .max(SELECT_LIMITS.name * 4),
  revision: z.number().int().min(0),
  selects: z.array(SELECT).max(SELECT_LIMITS.selects),
  spacers: z.array(SPACER).max(SELECT_LIMITS.selects).optional(),
});

/** A select or list that cannot be made as asked; says what to do instead. */
export class SelectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectError';
  }
}

/**
 * What is wrong with a list's name, or null. Files are named after the list (`NAME.otio`), so the
 * name must be a file name on every system the state folder may be shared with.
 */
export function listNameProblem(name: string): string | null {
  const n = name.trim();
  if (n === '') return 'A list needs a name, such as "Interview rough cut".';
  if (Array.from(n).length > SELECT_LIMITS.name) return `A list's name has at most ${SELECT_LIMITS.name} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\\/:*?"<>|\u0000-\u001f]/.test(n) || n.startsWith('.') || /[. ]$/.test(n)) {
    return `"${n}" cannot name a file: leave out \\ / : * ? " < > | and a leading or trailing dot.`;
  }
  return null;
}

/** Two names of one list: letter case and accents set aside ("Rough Cut" is "rough cut"). */
export const sameListName = (a: string, b: string): boolean => foldText(a.trim()) === foldText(b.trim());

export function emptyList(name: string): SelectList {
  const problem = listNameProblem(name);
  if (problem) throw new SelectError(problem);
  return { version: 1, name: name.trim(), revision: 0, selects: [] };
}

/** Index range [first, end) of the words a select holds now: those whose middle lies within its span. */
export function selectWordRange(
  words: readonly TranscriptWord[],
  s: Pick<Select, 'fromMs' | 'toMs'>,
): [number, number] {
  let first = -1;
  let end = -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const mid = (w.startMs + w.endMs) / 2;
    if (mid < s.fromMs) continue;
    if (mid > s.toMs) break;
    if (first < 0) first = i;
    end = i + 1;
  }
  return first < 0 ? [0, 0] : [first, end];
}

export function selectWords(words: readonly TranscriptWord[], s: Pick<Select, 'fromMs' | 'toMs'>): TranscriptWord[] {
  const [first, end] = selectWordRange(words, s);
  return words.slice(first, end);
}

/** A label's default: the first words, cut at a word near 40 characters. */
const LABEL_CHARS = 40;
export function firstWordsLabel(text: string): string {
  const chars = Array.from(text.trim());
  if (chars.length <= LABEL_CHARS) return text.trim();
  const cut = chars.slice(0, LABEL_CHARS).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > LABEL_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** How a select reads now, on its clip's current transcript. */
export interface SelectReading {
  words: TranscriptWord[];
  text: string;
  label: string;
  /** The speaker of its first word, by the name shown now; absent without diarization. */
  speaker?: string;
}

export function readSelect(t: Transcript, s: Select): SelectReading {
  const words = selectWords(t.words, s);
  const text = words.length > 0 ? joinWords(words) : '';
  const speakerId = words[0]?.speaker;
  return {
    words,
    text,
    label: s.label ?? firstWordsLabel(text || s.text),
    ...(speakerId === undefined ? {} : { speaker: speakerName(t, speakerId) }),
  };
}

/** Words touched by a span of media time (any overlap); a span between two words takes the next. */
export function wordsTouching(words: readonly TranscriptWord[], fromMs: number, toMs: number): [number, number] | null {
  let first = -1;
  let end = -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const touches = w.endMs > fromMs && w.startMs < toMs;
    const within = fromMs === toMs && w.startMs <= fromMs && w.endMs >= fromMs;
    if (!touches && !within) continue;
    if (first < 0) first = i;
    end = i + 1;
  }
  return first < 0 ? null : [first, end];
}

const wordKey = (text: string): string => foldText(text).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/**
 * The first run of words from word `from` on that reads as `quote` (case, accents and punctuation
 * around words set aside): the CLI's `--quote` and a pull quote's words (select-from.ts).
 */
export function findQuote(words: readonly TranscriptWord[], quote: string, from = 0): [number, number] | null {
  const wanted = quote
    .split(/\s+/u)
    .map(wordKey)
    .filter((w) => w !== '');
  if (wanted.length === 0) return null;
  const keys = words.map((w) => wordKey(w.text));
  outer: for (let i = Math.max(0, from); i + wanted.length <= keys.length; i++) {
    for (let k = 0; k < wanted.length; k++) if (keys[i + k] !== wanted[k]) continue outer;
    return [i, i + wanted.length];
  }
  return null;
}

export interface NewSelect {
  id: string;
  jobId: string;
  /** Word range [first, end) of the clip's current transcript. */
  range: [number, number];
  label?: string;
  colour?: SelectColour;
  note?: string;
}

/** A select over words [first, end), at the end of the list. */
export function addSelect(list: SelectList, t: Transcript, n: NewSelect): SelectList {
  const [first, end] = n.range;
  if (!(first >= 0 && end > first && end <= t.words.length)) {
    throw new SelectError(`Words ${first} to ${end} are not in this transcript (it has ${t.words.length}).`);
  }
  if (list.selects.length >= SELECT_LIMITS.selects) {
    throw new SelectError(
      `A list holds at most ${SELECT_LIMITS.selects} selects (an EDL's limit); start another list.`,
    );
  }
  const label = n.label?.replace(/\s+/gu, ' ').trim();
  if (label !== undefined && Array.from(label).length > SELECT_LIMITS.label) {
    throw new SelectError(`A label has at most ${SELECT_LIMITS.label} characters.`);
  }
  const note = (n.note ?? '').trim();
  if (Array.from(note).length > SELECT_LIMITS.note) {
    throw new SelectError(`A note has at most ${SELECT_LIMITS.note} characters.`);
  }
  const words = t.words.slice(first, end);
  const select: Select = {
    id: n.id,
    jobId: n.jobId,
    fromMs: Math.round(words[0]!.startMs),
    toMs: Math.round(Math.max(words[0]!.startMs, words[words.length - 1]!.endMs)),
    ...(label ? { label } : {}),
    colour: n.colour ?? DEFAULT_SELECT_COLOUR,
    note,
    text: joinWords(words),
  };
  return { ...list, revision: list.revision + 1, selects: [...list.selects, select] };
}
