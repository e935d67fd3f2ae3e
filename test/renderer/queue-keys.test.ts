import { describe, expect, it } from 'vitest';
import {
  queueKeyAction,
  queueShortcuts,
  type QueueAction,
  type QueueKey,
  type SelectedJob,
} from '../../renderer/src/lib/state/queue-keys.js';

const key = (k: string, extra: Partial<QueueKey> = {}): QueueKey => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...extra,
});
const ALL: SelectedJob = { canMove: true, canDismiss: true, canRetry: true, canCancel: true, hasResult: true };
const NOTHING: SelectedJob = { canMove: false, canDismiss: false, canRetry: false, canCancel: false, hasResult: false };

describe('queueKeyAction', () => {
  it.each([
    ['ArrowDown', {}, { kind: 'select', offset: 1 }],
    ['ArrowUp', {}, { kind: 'select', offset: -1 }],
    ['Home', {}, { kind: 'select', offset: -Infinity }],
    ['End', {}, { kind: 'select', offset: Infinity }],
    ['ArrowUp', { altKey: true }, { kind: 'move', to: 'up' }],
    ['ArrowDown', { altKey: true }, { kind: 'move', to: 'down' }],
    ['Home', { altKey: true }, { kind: 'move', to: 'top' }],
    ['End', { altKey: true }, { kind: 'move', to: 'bottom' }],
    ['F10', { shiftKey: true }, { kind: 'menu' }],
    ['ContextMenu', {}, { kind: 'menu' }],
    ['Delete', {}, { kind: 'dismiss' }],
    ['Backspace', {}, { kind: 'dismiss' }],
    [' ', {}, { kind: 'detail', open: true }],
  ] as const)('%s %o on a job that allows everything: %o, the browser default stopped', (k, extra, action) => {
    expect(queueKeyAction(key(k, extra), ALL, false)).toEqual({ action, preventDefault: true });
  });

  it.each([
    ['Enter', { kind: 'detail', open: true }],
    ['Escape', { kind: 'detail', open: false }],
    ['r', { kind: 'retry' }],
    ['R', { kind: 'retry' }],
    ['c', { kind: 'cancel' }],
    ['o', { kind: 'openResult' }],
    ['p', { kind: 'pauseOrResume' }],
  ] as const)('%s: %o, the default left alone', (k, action) => {
    expect(queueKeyAction(key(k), ALL, false)).toEqual({ action, preventDefault: false });
  });

  it('Space closes the details when they are open', () => {
    expect(queueKeyAction(key(' '), ALL, true).action).toEqual({ kind: 'detail', open: false });
  });

  it('what the job does not allow is not asked for; moving keys are still the list’s', () => {
    expect(queueKeyAction(key('ArrowUp', { altKey: true }), NOTHING, false)).toEqual({
      action: null,
      preventDefault: true,
    });
    for (const k of ['r', 'c', 'o', 'Delete']) expect(queueKeyAction(key(k), NOTHING, false).action).toBeNull();
  });

  it('with nothing selected, only moving the selection, Escape, undo and pause answer', () => {
    expect(queueKeyAction(key('ArrowDown'), null, false).action).toEqual({ kind: 'select', offset: 1 });
    expect(queueKeyAction(key('Enter'), null, false).action).toBeNull();
    expect(queueKeyAction(key(' '), null, false)).toEqual({ action: null, preventDefault: true });
    expect(queueKeyAction(key('ContextMenu'), null, false).action).toBeNull();
    expect(queueKeyAction(key('Escape'), null, false).action).toEqual({ kind: 'detail', open: false });
    expect(queueKeyAction(key('z', { ctrlKey: true }), null, false).action).toEqual({ kind: 'undoDismiss' });
    expect(queueKeyAction(key('p'), null, false).action).toEqual({ kind: 'pauseOrResume' });
  });

  it('undo is Ctrl+Z and ⌘Z, its default stopped by the screen only when a dismissal was undone', () => {
    for (const mod of [{ ctrlKey: true }, { metaKey: true }])
      expect(queueKeyAction(key('z', mod), ALL, false)).toEqual({
        action: { kind: 'undoDismiss' },
        preventDefault: false,
      });
    expect(queueKeyAction(key('z'), ALL, false).action).toBeNull();
  });

  it('copy, reload and the like are the system’s: Ctrl+C does not cancel, Ctrl+R does not retry', () => {
    for (const k of ['c', 'r', 'o', 'p'])
      for (const mod of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }])
        expect(queueKeyAction(key(k, mod), ALL, false).action, `${k} ${JSON.stringify(mod)}`).toBeNull();
  });
});

describe('queueShortcuts', () => {
  /** The key events a help line names (each key of a pair, each side of a slash). */
  function pressesOf(keys: readonly string[]): QueueKey[] {
    const names: Record<string, string> = { '↑': 'ArrowUp', '↓': 'ArrowDown', Space: ' ', Esc: 'Escape' };
    const mods = { ctrlKey: false, metaKey: false, shiftKey: false, altKey: false };
    const plain: string[] = [];
    for (const k of keys) {
      if (k === 'Ctrl') mods.ctrlKey = true;
      else if (k === '⌘') mods.metaKey = true;
      else if (k === 'Shift') mods.shiftKey = true;
      else if (k === 'Alt') mods.altKey = true;
      else plain.push(...k.split('/'));
    }
    return plain.map((k) => key(names[k] ?? (k.length === 1 ? k.toLowerCase() : k), mods));
  }

  it('every line of the help is answered by the Queue, and every action the Queue takes has a line', () => {
    const kinds = new Set<QueueAction['kind']>();
    for (const mod of ['Ctrl', '⌘']) {
      for (const [keys, label] of queueShortcuts(mod)) {
        const presses = pressesOf(keys);
        expect(presses.length, label).toBeGreaterThan(0);
        for (const p of presses) {
          const { action } = queueKeyAction(p, ALL, false);
          expect(action, `${keys.join('+')} (${label})`).not.toBeNull();
          kinds.add(action!.kind);
        }
      }
    }
    // Every kind of the union, checked by the compiler: a new action without a line fails here.
    const all = {
      select: true,
      move: true,
      menu: true,
      undoDismiss: true,
      detail: true,
      dismiss: true,
      retry: true,
      cancel: true,
      openResult: true,
      pauseOrResume: true,
    } satisfies Record<QueueAction['kind'], true>;
    expect([...kinds].sort()).toEqual(Object.keys(all).sort());
  });
});
