import { describe, expect, it } from 'vitest';
import { editList } from '../../../main/engine/selects/list-edits.js';
import {
  addSelect,
  emptyList,
  readSelect,
  SelectError,
  type SelectList,
} from '../../../main/engine/selects/selects.js';
import type { Transcript, TranscriptWord } from '../../../main/engine/transcript/transcript.js';

/** Words of `text`, one every 500 ms (400 ms long). */
function transcriptOf(text: string): Transcript {
  const words: TranscriptWord[] = text.split(' ').map((w, i) => ({
    text: w,
    startMs: 1000 + i * 500,
    endMs: 1400 + i * 500,
    speaker: 'S0',
    spaceBefore: true,
    corrected: false,
  }));
  return { words, speakers: ['S0'], names: {}, text };
}

const t = transcriptOf('we start with the budget and then the schedule');
function listOf(...ranges: Array<[number, number]>): SelectList {
  return ranges.reduce((l, range, i) => addSelect(l, t, { id: `s${i + 1}`, jobId: 'j1', range }), emptyList('Cut'));
}
const texts = (l: SelectList): string[] => l.selects.map((s) => readSelect(t, s).text);

describe('editing a string-out', () => {
  it('deletes a select and puts it back where it was, each change a new revision', () => {
    const l = listOf([0, 2], [2, 5], [5, 9]);
    const removed = editList(l, { kind: 'remove', id: 's2' });
    expect(texts(removed)).toEqual(['we start', 'and then the schedule']);
    expect(removed.revision).toBe(l.revision + 1);
    const back = editList(removed, { kind: 'restore', select: l.selects[1]!, index: 1 });
    expect(back.selects.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    // Putting back one that is there already (a second Undo) changes nothing.
    expect(editList(back, { kind: 'restore', select: l.selects[1]!, index: 0 })).toBe(back);
  });

  it('moves a select to any place, clamped to the list', () => {
    const l = listOf([0, 2], [2, 5], [5, 9]);
    expect(editList(l, { kind: 'move', id: 's3', index: 0 }).selects.map((s) => s.id)).toEqual(['s3', 's1', 's2']);
    expect(editList(l, { kind: 'move', id: 's1', index: 99 }).selects.map((s) => s.id)).toEqual(['s2', 's3', 's1']);
  });

  it('trims and widens a word at either end, never below one word nor past the transcript', () => {
    const l = listOf([2, 5]); // with the budget
    const shorter = editList(l, { kind: 'trim', id: 's1', end: 'in', words: -1 }, t);
    expect(texts(shorter)).toEqual(['the budget']);
    const longer = editList(shorter, { kind: 'trim', id: 's1', end: 'out', words: 2 }, t);
    expect(texts(longer)).toEqual(['the budget and then']);
    expect(longer.selects[0]!.text).toBe('the budget and then');
    const one = editList(longer, { kind: 'trim', id: 's1', end: 'out', words: -10 }, t);
    expect(texts(one)).toEqual(['the']);
    const all = editList(one, { kind: 'trim', id: 's1', end: 'in', words: 50 }, t);
    expect(texts(all)).toEqual(['we start with the']);
    expect(all.selects[0]!.fromMs).toBe(1000);
    expect(() => editList(l, { kind: 'trim', id: 's1', end: 'in', words: 1 })).toThrow(SelectError);
  });

  it('relabels (empty: back to the first words), recolours and re-notes', () => {
    const l = listOf([0, 5]);
    const named = editList(l, { kind: 'relabel', id: 's1', label: '  Budget   open ' });
    expect(named.selects[0]!.label).toBe('Budget open');
    expect(readSelect(t, editList(named, { kind: 'relabel', id: 's1', label: '' }).selects[0]!).label).toBe(
      'we start with the budget',
    );
    expect(editList(l, { kind: 'recolour', id: 's1', colour: 'Red' }).selects[0]!.colour).toBe('Red');
    expect(editList(l, { kind: 'renote', id: 's1', note: ' keep the pause ' }).selects[0]!.note).toBe('keep the pause');
    expect(() => editList(l, { kind: 'relabel', id: 's1', label: 'x'.repeat(101) })).toThrow(/at most 100/);
  });

  it('says what to do about a select that is gone', () => {
    expect(() => editList(listOf([0, 1]), { kind: 'remove', id: 'nope' })).toThrow(/reopen the list/);
  });
});
