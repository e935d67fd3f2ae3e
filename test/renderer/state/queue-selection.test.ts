// The Queue's filters and selection, alone over a list of rows: what shows, what the tabs count,
// where the keyboard goes, and where the selection lands when a row leaves.
import { describe, expect, it } from 'vitest';
import { QueueSelection } from '../../../renderer/src/lib/state/queue-selection.svelte.js';
import { Rows, row } from './rows.svelte.js';

function setup(): { rows: Rows; sel: QueueSelection } {
  const rows = new Rows();
  rows.list = [
    row('a', 'queued'),
    row('b', 'processing', 'f1'),
    row('c', 'completed', 'f1'),
    row('d', 'failed', 'f2'),
    row('e', 'expired'),
    row('f', 'canceled'),
  ];
  return { rows, sel: new QueueSelection(() => rows.list) };
}

describe('queue selection', () => {
  it('filters by state and by folder, and follows the list as it changes', () => {
    const { rows, sel } = setup();
    expect(sel.visible.map((j) => j.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    sel.stateFilter = 'failed';
    expect(sel.visible.map((j) => j.id)).toEqual(['d', 'e']);
    sel.stateFilter = 'active';
    expect(sel.visible.map((j) => j.id)).toEqual(['b']);
    sel.stateFilter = 'all';
    sel.folderFilter = 'f1';
    expect(sel.visible.map((j) => j.id)).toEqual(['b', 'c']);
    sel.folderFilter = 'manual';
    expect(sel.visible.map((j) => j.id)).toEqual(['a', 'e', 'f']);
    rows.list = [...rows.list, row('g', 'queued')];
    expect(sel.visible.map((j) => j.id)).toEqual(['a', 'e', 'f', 'g']);
  });

  it('counts every tab from the rows, whatever the filter shows', () => {
    const { rows, sel } = setup();
    sel.stateFilter = 'completed';
    expect(sel.countFor('all')).toBe(6);
    expect(sel.countFor('failed')).toBe(2);
    expect(sel.countFor('queued')).toBe(1);
    expect(sel.failedCount).toBe(2);
    expect(sel.finishedCount).toBe(4);
    rows.list = rows.list.filter((j) => j.id !== 'd');
    expect(sel.failedCount).toBe(1);
    expect(sel.countFor('all')).toBe(5);
  });

  it('moves by offset within the visible rows, clamped at both ends', () => {
    const { sel } = setup();
    sel.selectByOffset(1);
    expect(sel.selected?.id).toBe('a');
    sel.selectByOffset(-1);
    expect(sel.selected?.id).toBe('a');
    sel.selectByOffset(Infinity);
    expect(sel.selected?.id).toBe('f');
    expect(sel.selectedIndex).toBe(5);
    sel.selectByOffset(10);
    expect(sel.selected?.id).toBe('f');
    sel.selectByOffset(-Infinity);
    expect(sel.selected?.id).toBe('a');
    sel.select(null);
    sel.selectByOffset(-1);
    expect(sel.selected?.id).toBe('f');
  });

  it('opens the detail only with a selected row, and closes it when the selection is cleared', () => {
    const { rows, sel } = setup();
    sel.select('c', true);
    expect(sel.detailOpen).toBe(true);
    rows.list = rows.list.filter((j) => j.id !== 'c');
    expect(sel.selected).toBeNull();
    expect(sel.detailOpen).toBe(false);
    sel.select('b', true);
    sel.select(null);
    sel.select('b');
    expect(sel.detailOpen).toBe(false);
  });

  it('moves the selection to the next visible row when the selected one leaves, else the one before', () => {
    const { sel } = setup();
    sel.stateFilter = 'failed';
    sel.select('d');
    sel.stepAwayFrom('d');
    expect(sel.selectedId).toBe('e');
    sel.stepAwayFrom('e');
    expect(sel.selectedId).toBe('d');
    sel.stepAwayFrom('a');
    expect(sel.selectedId).toBe('d');
  });
});
