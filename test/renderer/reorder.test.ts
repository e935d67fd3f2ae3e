import { describe, expect, it } from 'vitest';
import { dropBefore, type ReorderItem } from '../../renderer/src/lib/actions/reorder.js';

// In flight first, then waiting rows (the only ones that move), as the queue orders them.
const ITEMS: ReorderItem[] = [
  { id: 'running', canMove: false },
  { id: 'a', canMove: true },
  { id: 'b', canMove: true },
  { id: 'c', canMove: true },
  { id: 'done', canMove: false },
];

describe('dropBefore', () => {
  it('lands before the row when dropped on its upper half', () => {
    expect(dropBefore(ITEMS, 'c', { id: 'a', edge: 'before' })).toBe('a');
  });

  it('lands before the next waiting row when dropped on the lower half', () => {
    expect(dropBefore(ITEMS, 'c', { id: 'a', edge: 'after' })).toBe('b');
  });

  it('skips the dragged row itself when finding the next one', () => {
    expect(dropBefore(ITEMS, 'b', { id: 'a', edge: 'after' })).toBe('c');
  });

  it('goes to the end of the waiting rows after the last one, not before a finished row', () => {
    expect(dropBefore(ITEMS, 'a', { id: 'c', edge: 'after' })).toBeNull();
    expect(dropBefore(ITEMS, 'c', { id: 'b', edge: 'after' })).toBeNull();
  });
});
