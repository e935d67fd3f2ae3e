// The changes a string-out takes after its selects are picked: deleted (and put back by Undo),
// moved, trimmed or widened a word at either end, relabelled and recoloured. Each returns the new
// list with its revision bumped, or throws a SelectError saying what to do. Pure.
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

export type ListEdit =
  | { kind: 'remove'; id: string }
  /** Undo of a remove: the select as it was, back at `index` (clamped to the list). */
  | { kind: 'restore'; select: Select; index: number }
  /** To position `index` of the list (0 is first; clamped). */
  | { kind: 'move'; id: string; index: number }
  /** `words` > 0 widens that end by as many words, < 0 takes as many off; a select keeps one word. */
  | { kind: 'trim'; id: string; end: 'in' | 'out'; words: number }
  /** An empty label goes back to the select's first words. */
  | { kind: 'relabel'; id: string; label: string }
  | { kind: 'recolour'; id: string; colour: SelectColour }
  | { kind: 'renote'; id: string; note: string };

const bumped = (list: SelectList, selects: Select[]): SelectList => ({
  ...list,
  revision: list.revision + 1,
  selects,
});

function indexOf(list: SelectList, id: string): number {
  const i = list.selects.findIndex((s) => s.id === id);
  if (i < 0) throw new SelectError(`That select is no longer in "${list.name}" (deleted elsewhere?); reopen the list.`);
  return i;
}

const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

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

/** `t`: the transcript of the select's clip, for a trim (see needsTranscript). */
export function editList(list: SelectList, e: ListEdit, t?: Transcript): SelectList {
  const selects = [...list.selects];
  switch (e.kind) {
    case 'remove':
      selects.splice(indexOf(list, e.id), 1);
      return bumped(list, selects);
    case 'restore': {
      if (selects.some((s) => s.id === e.select.id)) return list;
      if (selects.length >= SELECT_LIMITS.selects) {
        throw new SelectError(`A list holds at most ${SELECT_LIMITS.selects} selects; start another list.`);
      }
      const parsed = SELECT.safeParse(e.select);
      if (!parsed.success) throw new SelectError('That select cannot be put back: it is not one Sluice made.');
      selects.splice(clamp(e.index, 0, selects.length), 0, parsed.data as Select);
      return bumped(list, selects);
    }
    case 'move': {
      const [s] = selects.splice(indexOf(list, e.id), 1);
      selects.splice(clamp(e.index, 0, selects.length), 0, s!);
      return bumped(list, selects);
    }
    case 'trim': {
      if (!t) throw new SelectError('This select’s transcript is not kept on this computer: it cannot be trimmed.');
      const i = indexOf(list, e.id);
      selects[i] = trimmed(selects[i]!, t, e.end, e.words);
      return bumped(list, selects);
    }
    case 'relabel': {
      const i = indexOf(list, e.id);
      const label = e.label.replace(/\s+/gu, ' ').trim();
      if (Array.from(label).length > SELECT_LIMITS.label) {
        throw new SelectError(`A label has at most ${SELECT_LIMITS.label} characters.`);
      }
      const { label: _old, ...rest } = selects[i]!;
      selects[i] = label ? { ...rest, label } : rest;
      return bumped(list, selects);
    }
    case 'recolour': {
      const i = indexOf(list, e.id);
      selects[i] = { ...selects[i]!, colour: e.colour };
      return bumped(list, selects);
    }
    case 'renote': {
      const i = indexOf(list, e.id);
      const note = e.note.trim();
      if (Array.from(note).length > SELECT_LIMITS.note) {
        throw new SelectError(`A note has at most ${SELECT_LIMITS.note} characters.`);
      }
      selects[i] = { ...selects[i]!, note };
      return bumped(list, selects);
    }
  }
}
