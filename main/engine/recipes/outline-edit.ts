// The recipe's chapters and pull quotes as the editor corrects them in the review: renamed, moved
// to the playhead, removed, added at the playhead. Kept in the corrections layer like any
// correction (so undo, redo and revert cover them, and every result follows), applied to the
// outline aligned on the service's own words. Ids are given here, in order, so replaying the layer
// gives the same ids. The recipe's chapter rules hold after every edit (align.ts settleChapters):
// chapters are at least 10 s apart (YouTube shows none otherwise). A chapter added or moved closer
// than that to another is refused as the editor makes it, saying why; a layer made before the rule
// was checked (or by hand) still replays, and the chapter that merged away is named in the notes.
// Pure.
import { z } from 'zod';
import type { ExportResult } from '../../service/types.js';
import type { NormalizedTranscript } from '../captions/normalize.js';
import { MIN_CHAPTER_GAP_MS, settleChapters, type AlignWord } from './align.js';
import { youtubeTime } from './chapter-formats.js';
import { readAnswers, type AnswerFormats } from './answers.js';
import { buildOutline } from './outline.js';
import type { EditableOutline, OutlineChapter, OutlineQuote } from './outline-types.js';
import { OUTLINE_LIMITS } from '../../../common/edit-limits.js';

export type { EditableOutline, OutlineChapter, OutlineQuote };

export type OutlineEdit =
  /** A chapter starting at `atMs` (the playhead); an empty title becomes "Chapter N". */
  | { kind: 'addChapter'; atMs: number; title: string }
  /** A rename, or a move (`atMs`: to the playhead). */
  | { kind: 'updateChapter'; id: string; atMs?: number; title?: string }
  | { kind: 'removeChapter'; id: string }
  /** A pull quote at `atMs`; empty text takes the words said from there on. */
  | { kind: 'addQuote'; atMs: number; text: string }
  | { kind: 'updateQuote'; id: string; atMs?: number; text?: string }
  | { kind: 'removeQuote'; id: string };

export { OUTLINE_LIMITS };

const atMs = z
  .number()
  .int()
  .min(0)
  .max(48 * 3600 * 1000);
const title = z.string().max(OUTLINE_LIMITS.title * 4);
const text = z.string().max(OUTLINE_LIMITS.quote * 4);
const id = z.string().min(1).max(OUTLINE_LIMITS.id);

/** The outline edits as the corrections file and the bridge accept them. */
export const OUTLINE_EDITS = [
  z.object({ kind: z.literal('addChapter'), atMs, title }),
  z.object({ kind: z.literal('updateChapter'), id, atMs: atMs.optional(), title: title.optional() }),
  z.object({ kind: z.literal('removeChapter'), id }),
  z.object({ kind: z.literal('addQuote'), atMs, text }),
  z.object({ kind: z.literal('updateQuote'), id, atMs: atMs.optional(), text: text.optional() }),
  z.object({ kind: z.literal('removeQuote'), id }),
] as const;

const KINDS: ReadonlySet<string> = new Set([
  'addChapter',
  'updateChapter',
  'removeChapter',
  'addQuote',
  'updateQuote',
  'removeQuote',
]);
export const isOutlineEdit = (e: { kind: string }): e is OutlineEdit => KINDS.has(e.kind);

export class OutlineEditError extends Error {}

/**
 * The outline of an export that ran a recipe, aligned on the service's words, with ids in time
 * order; undefined when no recipe answered (no chapters and no quotes asked for).
 */
export function seedOutline(
  result: ExportResult,
  transcript: NormalizedTranscript,
  formats: AnswerFormats = {},
): EditableOutline | undefined {
  const answers = readAnswers(result, formats);
  if (answers.chapters === undefined && answers.quotes === undefined) return undefined;
  // Quotes keep the speaker's id, so a speaker renamed later is named by the new name.
  const words = transcript.words.map((w) => {
    const speaker = w.speakerId ?? w.speaker;
    return { ...w, ...(speaker === undefined ? {} : { speaker }) };
  });
  const o = buildOutline(result, { ...transcript, words }, formats);
  return {
    chapters: o.chapters.map((c, i) => ({ id: `c${i + 1}`, startMs: c.startMs, title: c.title })),
    quotes: o.quotes.map((q, i) => ({ id: `q${i + 1}`, ...q })),
    notes: o.notes,
  };
}

function clean(value: string, max: number, what: string): string {
  const t = value.replace(/\s+/gu, ' ').trim();
  if (Array.from(t).length > max) throw new OutlineEditError(`A ${what} has at most ${max} characters.`);
  return t;
}

const num = (id: string): number => Number(id.slice(1)) || 0;
const nextId = (prefix: string, items: readonly { id: string }[]): string =>
  `${prefix}${1 + Math.max(0, ...items.map((i) => num(i.id)))}`;
const byTime = <T extends { id: string; startMs: number }>(a: T, b: T): number =>
  a.startMs - b.startMs || num(a.id) - num(b.id);
const at = (ms: number): number => Math.max(0, Math.round(ms));

/** The word being said at `ms`, or the next one after it. */
function wordAt(words: readonly AlignWord[], ms: number): number {
  const i = words.findIndex((w) => w.endMs > ms);
  return i < 0 ? words.length - 1 : i;
}

/** Whether an edit that would merge a chapter away is refused (as the editor makes it) or replayed with a note. */
export interface OutlineEditOptions {
  strict?: boolean;
}

interface Settled {
  chapters: OutlineChapter[];
  /** What merged away on a replay, and into which chapter. */
  notes: string[];
}

function settled(chapters: readonly OutlineChapter[], strict: boolean, edited?: string): Settled {
  const { chapters: kept, merged } = settleChapters([...chapters].sort(byTime));
  const min = MIN_CHAPTER_GAP_MS / 1000;
  const apart = (a: OutlineChapter, b: OutlineChapter): string =>
    a.startMs === b.startMs
      ? 'at the same moment as'
      : `${(Math.abs(a.startMs - b.startMs) / 1000).toFixed(1)} s ${a.startMs > b.startMs ? 'after' : 'before'}`;
  const notes = merged.map((m) => {
    const before = kept.filter((c) => c.startMs <= m.startMs).pop()!;
    if (strict) {
      // Said of the chapter the editor added or moved, whichever of the two would go.
      const [mine, other] = m.id === edited || before.id !== edited ? [m, before] : [before, m];
      throw new OutlineEditError(
        `“${mine.title}” would start ${apart(mine, other)} “${other.title}” (${youtubeTime(other.startMs)}), and chapters are at least ${min} s apart (YouTube shows none otherwise): put it ${min} s or more from that chapter, or move or remove that one first.`,
      );
    }
    return `The chapter “${m.title}” at ${youtubeTime(m.startMs)} merged into “${before.title}” (${youtubeTime(before.startMs)}): it started ${apart(m, before)} it, and chapters are at least ${min} s apart.`;
  });
  return { chapters: kept, notes };
}

function chapterEdit(chapters: readonly OutlineChapter[], edit: OutlineEdit, strict: boolean): Settled {
  switch (edit.kind) {
    case 'addChapter': {
      if (chapters.length >= OUTLINE_LIMITS.items)
        throw new OutlineEditError(`A file keeps at most ${OUTLINE_LIMITS.items} chapters.`);
      const newId = nextId('c', chapters);
      const name = clean(edit.title, OUTLINE_LIMITS.title, "chapter's title") || `Chapter ${num(newId)}`;
      return settled([...chapters, { id: newId, startMs: at(edit.atMs), title: name }], strict, newId);
    }
    case 'updateChapter': {
      const old = chapters.find((c) => c.id === edit.id);
      if (!old) throw new OutlineEditError('That chapter is no longer there.');
      const name = edit.title === undefined ? old.title : clean(edit.title, OUTLINE_LIMITS.title, "chapter's title");
      const updated = {
        ...old,
        title: name || old.title,
        ...(edit.atMs === undefined ? {} : { startMs: at(edit.atMs) }),
      };
      return settled(
        chapters.map((c) => (c.id === edit.id ? updated : c)),
        strict,
        edit.id,
      );
    }
    case 'removeChapter':
      if (!chapters.some((c) => c.id === edit.id)) throw new OutlineEditError('That chapter is no longer there.');
      return settled(
        chapters.filter((c) => c.id !== edit.id),
        strict,
      );
    default:
      return { chapters: [...chapters], notes: [] };
  }
}

function quoteAt(words: readonly AlignWord[], ms: number, typed: string | undefined): Omit<OutlineQuote, 'id'> {
  const i = wordAt(words, ms);
  const first = words[i];
  const said = words.slice(Math.max(0, i), Math.max(0, i) + OUTLINE_LIMITS.quoteWords);
  const quote = typed !== undefined && typed !== '' ? typed : said.map((w) => w.text).join(' ');
  if (quote === '') throw new OutlineEditError('Nothing is said there: type the quote, or move the playhead.');
  return {
    startMs: at(ms),
    endMs: Math.max(at(ms), said[said.length - 1]?.endMs ?? at(ms)),
    text: quote,
    ...(first?.speaker === undefined ? {} : { speaker: first.speaker }),
  };
}

function quoteEdit(quotes: readonly OutlineQuote[], words: readonly AlignWord[], edit: OutlineEdit): OutlineQuote[] {
  switch (edit.kind) {
    case 'addQuote': {
      if (quotes.length >= OUTLINE_LIMITS.items)
        throw new OutlineEditError(`A file keeps at most ${OUTLINE_LIMITS.items} quotes.`);
      const typed = clean(edit.text, OUTLINE_LIMITS.quote, 'quote');
      const own = typed === '' ? {} : { typed: true as const };
      return [...quotes, { id: nextId('q', quotes), ...quoteAt(words, edit.atMs, typed), ...own }].sort(byTime);
    }
    case 'updateQuote': {
      const old = quotes.find((q) => q.id === edit.id);
      if (!old) throw new OutlineEditError('That quote is no longer there.');
      const typed = edit.text === undefined ? undefined : clean(edit.text, OUTLINE_LIMITS.quote, 'quote');
      let updated: OutlineQuote = { ...old, text: typed || old.text, ...(typed ? { typed: true as const } : {}) };
      if (edit.atMs !== undefined) {
        // Moved: the words stay; the time and speaker become those of the word said there.
        const startMs = at(edit.atMs);
        const speaker = words[wordAt(words, startMs)]?.speaker;
        const { speaker: _was, ...rest } = updated;
        updated = {
          ...rest,
          typed: true,
          startMs,
          endMs: startMs + Math.max(0, old.endMs - old.startMs),
          ...(speaker === undefined ? {} : { speaker }),
        };
      }
      return quotes.map((q) => (q.id === edit.id ? updated : q)).sort(byTime);
    }
    case 'removeQuote':
      if (!quotes.some((q) => q.id === edit.id)) throw new OutlineEditError('That quote is no longer there.');
      return quotes.filter((q) => q.id !== edit.id);
    default:
      return [...quotes];
  }
}

/**
 * The outline after one edit. Throws OutlineEditError when it does not fit; `strict` (an edit as
 * the editor makes it) also when it would merge a chapter away.
 */
export function applyOutlineEdit(
  outline: EditableOutline | undefined,
  words: readonly AlignWord[],
  edit: OutlineEdit,
  options: OutlineEditOptions = {},
): EditableOutline {
  if (!outline)
    throw new OutlineEditError(
      'This file has no chapters or quotes: process it again with a recipe (Podcast episode).',
    );
  if (!edit.kind.endsWith('Chapter')) return { ...outline, quotes: quoteEdit(outline.quotes, words, edit) };
  const { chapters, notes } = chapterEdit(outline.chapters, edit, options.strict === true);
  return { ...outline, chapters, ...(notes.length > 0 ? { notes: [...outline.notes, ...notes] } : {}) };
}
