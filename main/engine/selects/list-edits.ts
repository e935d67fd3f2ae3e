// The changes a string-out takes after its selects are picked: deleted (and put back by Undo),
// moved, trimmed or widened a word at either end, relabelled and recoloured; and its gaps and
// title cards (spacers.ts) added, lengthened, retitled, moved and deleted like bites. Positions
// (`index`) count every row, spacers too: a list without spacers counts as it always did. Each
// returns the new list with its revision bumped, or throws a SelectError saying what to do. Pure.
import { joinWords } from '../captions/normalize.js';
import type { Transcript } from '../transcript/transcript.js';
import {
  SELECT,
  SELECT_LIMITS,
  SelectError,
  selectWordRange,
  type Select,
  type SelectColour,
  type SelectList,
} from './selects.js';
import { isSpacer, MAX_ROWS, rowsOf, withRows, type Row } from './rows.js';
import { SPACER, spacerLengthProblem, titleTextProblem, type Spacer, type SpacerKind } from './spacers.js';

export type ListEdit =
  | { kind: 'remove'; id: string }
  /** Undo of a remove: the select (or spacer) as it was, back at row `index` (clamped to the list). */
  | { kind: 'restore'; select: Select | Spacer; index: number }
  /** To position `index` of the list (0 is first; clamped). */
  | { kind: 'move'; id: string; index: number }
  /** `words` > 0 widens that end by as many words, < 0 takes as many off; a select keeps one word. */
  | { kind: 'trim'; id: string; end: 'in' | 'out'; words: number }
  /** An empty label goes back to the select's first words. */
  | { kind: 'relabel'; id: string; label: string }
  | { kind: 'recolour'; id: string; colour: SelectColour }
  | { kind: 'renote'; id: string; note: string }
  /** A gap or title card after row `after` (absent: at the end; null: at the start). */
  | { kind: 'addSpacer'; spacer: { id: string; kind: SpacerKind; ms: number; text?: string }; after?: string | null }
  /** A gap's or title card's new length. */
  | { kind: 'respace'; id: string; ms: number };

const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

function indexOf(list: SelectList, rows: readonly Row[], id: string): number {
  const i = rows.findIndex((s) => s.id === id);
  if (i < 0) throw new SelectError(`That row is no longer in "${list.name}" (deleted elsewhere?); reopen the list.`);
  return i;
}

/** The edits that need the select's clip's transcript (the rest need only the list). */
export const needsTranscript = (e: ListEdit): e is Extract<ListEdit, { kind: 'trim' }> => e.kind === 'trim';

/** The select's words, `words` wider or narrower at one end, on the clip's current transcript. */
function trimmed(s: Select, t: Transcript, end: 'in' | 'out', words: number): Select {
  const [first, last] = selectWordRange(t.words, s);
  if (last <= first) throw new SelectError('The words of this select are no longer in its transcript.');
  let from = first;
  let to = last;
  if (end === 'in') from = clamp(first - words, 0, last - 1);
  else to = clamp(last + words, first + 1, t.words.length);
  const ws = t.words.slice(from, to);
  return {
    ...s,
    fromMs: Math.round(ws[0]!.startMs),
    toMs: Math.round(Math.max(ws[0]!.startMs, ws[ws.length - 1]!.endMs)),
    text: joinWords(ws),
  };
}

function selectAt(rows: readonly Row[], i: number, what: string): Select {
  const r = rows[i]!;
  if (isSpacer(r)) throw new SelectError(`A ${r.kind === 'gap' ? 'gap' : 'title card'} has no ${what}.`);
  return r;
}

function spacerAt(rows: readonly Row[], i: number): Spacer {
  const r = rows[i]!;
  if (!isSpacer(r)) throw new SelectError('Only a gap or a title card has a length of its own; trim a bite instead.');
  return r;
}

const cleanTitle = (text: string): string => text.replace(/\s+/gu, ' ').trim();

/** `t`: the transcript of the select's clip, for a trim (see needsTranscript). */
export function editList(list: SelectList, e: ListEdit, t?: Transcript): SelectList {
  const rows = rowsOf(list);
  switch (e.kind) {
    case 'remove':
      rows.splice(indexOf(list, rows, e.id), 1);
      return withRows(list, rows);
    case 'restore': {
      if (rows.some((s) => s.id === e.select.id)) return list;
      const spacer = isSpacer(e.select);
      const count = spacer ? rows.length : list.selects.length;
      if (count >= (spacer ? MAX_ROWS : SELECT_LIMITS.selects)) {
        throw new SelectError(`A list holds at most ${SELECT_LIMITS.selects} rows; start another list.`);
      }
      const parsed = (spacer ? SPACER : SELECT).safeParse(e.select);
      if (!parsed.success) throw new SelectError('That row cannot be put back: it is not one Sluice made.');
      rows.splice(clamp(e.index, 0, rows.length), 0, parsed.data as Row);
      return withRows(list, rows);
    }
    case 'move': {
      const [s] = rows.splice(indexOf(list, rows, e.id), 1);
      rows.splice(clamp(e.index, 0, rows.length), 0, s!);
      return withRows(list, rows);
    }
    case 'trim': {
      const i = indexOf(list, rows, e.id);
      const s = selectAt(rows, i, 'words to trim');
      if (!t) throw new SelectError('This select’s transcript is not kept on this computer: it cannot be trimmed.');
      rows[i] = trimmed(s, t, e.end, e.words);
      return withRows(list, rows);
    }
    case 'relabel': {
      const i = indexOf(list, rows, e.id);
      const r = rows[i]!;
      if (isSpacer(r)) {
        if (r.kind === 'gap') throw new SelectError('A gap has no text; make it a title card instead.');
        const problem = titleTextProblem(e.label);
        if (problem) throw new SelectError(problem);
        rows[i] = { ...r, text: cleanTitle(e.label) };
        return withRows(list, rows);
      }
      const label = e.label.replace(/\s+/gu, ' ').trim();
      if (Array.from(label).length > SELECT_LIMITS.label) {
        throw new SelectError(`A label has at most ${SELECT_LIMITS.label} characters.`);
      }
      const { label: _old, ...rest } = r;
      rows[i] = label ? { ...rest, label } : rest;
      return withRows(list, rows);
    }
    case 'recolour': {
      const i = indexOf(list, rows, e.id);
      rows[i] = { ...selectAt(rows, i, 'colour'), colour: e.colour };
      return withRows(list, rows);
    }
    case 'renote': {
      const i = indexOf(list, rows, e.id);
      const s = selectAt(rows, i, 'note');
      const note = e.note.trim();
      if (Array.from(note).length > SELECT_LIMITS.note) {
        throw new SelectError(`A note has at most ${SELECT_LIMITS.note} characters.`);
      }
      rows[i] = { ...s, note };
      return withRows(list, rows);
    }
    case 'addSpacer': {
      if (rows.length >= MAX_ROWS) throw new SelectError(`A list holds at most ${MAX_ROWS} rows; start another list.`);
      if (rows.some((r) => r.id === e.spacer.id)) return list;
      const lengthProblem = spacerLengthProblem(e.spacer.ms);
      if (lengthProblem) throw new SelectError(lengthProblem);
      const title = e.spacer.kind === 'title';
      const problem = title ? titleTextProblem(e.spacer.text ?? '') : null;
      if (problem) throw new SelectError(problem);
      const spacer: Spacer = {
        id: e.spacer.id,
        kind: e.spacer.kind,
        ms: Math.round(e.spacer.ms),
        ...(title ? { text: cleanTitle(e.spacer.text ?? '') } : {}),
        after: null,
      };
      const at = e.after === undefined ? rows.length : e.after === null ? 0 : indexOf(list, rows, e.after) + 1;
      rows.splice(at, 0, spacer);
      return withRows(list, rows);
    }
    case 'respace': {
      const i = indexOf(list, rows, e.id);
      const problem = spacerLengthProblem(e.ms);
      if (problem) throw new SelectError(problem);
      rows[i] = { ...spacerAt(rows, i), ms: Math.round(e.ms) };
      return withRows(list, rows);
    }
  }
}
