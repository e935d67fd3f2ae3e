// The selects state against a memory port: a pick shows as a highlight before main answers (and
// goes when it fails, with the error kept to say); the current list is kept for next time; another
// window's change to this list is read again; move stops at the ends; a delete says where the
// select was, for Undo.
import './browser-globals.js';
import { describe, expect, it } from 'vitest';
import type { Result, SelectListView, SelectView } from '../../../preload/contract.js';
import { app } from '../../../renderer/src/lib/state/app.svelte.js';
import { addSelectFrom } from '../../../renderer/src/lib/state/selects-from.js';
import { SelectsState, type SelectsPort } from '../../../renderer/src/lib/state/selects.svelte.js';

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const sel = (id: string, words: [number, number], jobId = 'j1'): SelectView => ({
  id,
  jobId,
  fileName: 'a.wav',
  label: id,
  colour: 'Green',
  note: '',
  text: id,
  fromMs: 0,
  toMs: 1,
  words,
  durationMs: 1,
});

function memoryPort(): SelectsPort & {
  lists_: Map<string, SelectListView>;
  fire: (list: string) => void;
  gate?: Promise<void>;
} {
  const lists_ = new Map<string, SelectListView>();
  const listeners = new Set<(e: { list: string; revision: number }) => void>();
  const get = (name: string): SelectListView =>
    lists_.get(name.toLowerCase()) ?? { name, revision: 0, selects: [], totalMs: 0, rate: '25' };
  const save = (v: SelectListView): Result<SelectListView> => {
    const next = { ...v, revision: v.revision + 1 };
    lists_.set(v.name.toLowerCase(), next);
    return ok(next);
  };
  const port = {
    lists_,
    gate: undefined as Promise<void> | undefined,
    fire: (list: string) => listeners.forEach((l) => l({ list, revision: 99 })),
    lists: async () => ok([...lists_.values()].map((l) => ({ name: l.name, count: l.selects.length }))),
    open: async (list: string) => ok(get(list)),
    add: async (list: string, jobId: string, from: number, to: number) => {
      await port.gate;
      if (to > 100)
        return {
          ok: false as const,
          error: {
            code: 'VALIDATION' as const,
            message: 'Words 5 to 101 are not in this transcript.',
            retryable: false,
          },
        };
      const v = get(list);
      return save({ ...v, selects: [...v.selects, sel(`s${v.selects.length + 1}`, [from, to], jobId)] });
    },
    addFrom: async (list: string, jobId: string, from: Parameters<SelectsPort['addFrom']>[2]) => {
      if (from.kind === 'marker' && from.id === 'm9')
        return {
          ok: false as const,
          error: { code: 'VALIDATION' as const, message: 'There is no marker "m9".', retryable: false },
        };
      const v = get(list);
      const added = sel(`s${v.selects.length + 1}`, [0, 3], jobId);
      const saved = save({ ...v, selects: [...v.selects, added] });
      return saved.ok ? ok({ list: saved.value, added }) : saved;
    },
    edit: async (list: string, e: Parameters<SelectsPort['edit']>[1]) => {
      await port.gate;
      const v = get(list);
      if (e.kind === 'remove') return save({ ...v, selects: v.selects.filter((s) => s.id !== e.id) });
      if (e.kind === 'move') {
        const rest = v.selects.filter((s) => s.id !== e.id);
        rest.splice(
          e.index,
          0,
          v.selects.find((s) => s.id === e.id)!,
        );
        return save({ ...v, selects: rest });
      }
      return save(v);
    },
    export: async () => ok({ folder: '/x', files: [], bites: 0, missing: [], notes: [] }),
    onChanged: (cb: (e: { list: string; revision: number }) => void) => {
      listeners.add(cb);
      return () => void listeners.delete(cb);
    },
  };
  return port;
}

const memoryStorage = (): Pick<Storage, 'getItem' | 'setItem'> & { m: Map<string, string> } => {
  const m = new Map<string, string>();
  return { m, getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
};

describe('SelectsState', () => {
  it('shows a pick at once, then main’s answer; a refused pick goes and says why', async () => {
    const port = memoryPort();
    let open!: () => void;
    port.gate = new Promise((r) => (open = r));
    const s = new SelectsState(port, memoryStorage());
    await s.load();
    const adding = s.add('j1', 2, 5);
    // Before main answers: lit already.
    expect(s.rangesOf('j1')).toEqual([{ id: null, words: [2, 5], colour: 'Green' }]);
    expect(s.rangesOf('j2')).toEqual([]);
    open();
    expect(await adding).toBe(true);
    expect(s.rangesOf('j1')).toEqual([{ id: 's1', words: [2, 5], colour: 'Green' }]);
    port.gate = undefined;
    expect(await s.add('j1', 5, 101)).toBe(false);
    expect(s.error).toMatch(/not in this transcript/);
    expect(s.rangesOf('j1')).toHaveLength(1);
  });

  it('keeps the current list for next time and follows other windows’ changes to it', async () => {
    const port = memoryPort();
    const storage = memoryStorage();
    const s = new SelectsState(port, storage);
    expect(s.listName).toBe('Selects');
    await s.choose('Day 2');
    expect(storage.m.get('sluice-selects-list')).toBe('Day 2');
    expect(new SelectsState(port, storage).listName).toBe('Day 2');
    s.subscribe();
    await port.add('Day 2', 'j1', 0, 1);
    port.fire('day 2');
    await expect.poll(() => s.view?.selects.length).toBe(1);
  });

  it('sends a change asked while the last is on its way once that is answered, placed as it then stands', async () => {
    const port = memoryPort();
    const s = new SelectsState(port, memoryStorage());
    for (const r of [
      [0, 1],
      [1, 2],
      [2, 3],
    ] as const)
      await s.add('j1', r[0], r[1]);
    let open!: () => void;
    port.gate = new Promise((r) => (open = r));
    // Alt+↓ twice, faster than main answers: the bite goes down two places, not one.
    const first = s.move('s1', 1);
    const second = s.move('s1', 1);
    expect(s.busy).toBe(true);
    open();
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(s.view?.selects.map((x) => x.id)).toEqual(['s2', 's3', 's1']);
    expect(s.busy).toBe(false);
  });

  it('moves within the list only, and a delete says where the select was', async () => {
    const port = memoryPort();
    const s = new SelectsState(port, memoryStorage());
    for (const r of [
      [0, 1],
      [1, 2],
      [2, 3],
    ] as const)
      await s.add('j1', r[0], r[1]);
    expect(await s.move('s1', -1)).toBe(false);
    expect(await s.move('s3', 1)).toBe(false);
    expect(await s.move('s1', 1)).toBe(true);
    expect(s.view?.selects.map((x) => x.id)).toEqual(['s2', 's1', 's3']);
    expect(await s.remove('s1')).toEqual({ index: 1 });
    expect(await s.remove('nope')).toBeNull();
  });

  it('adds from a marker (main finds the words), names what it added, and undoes it in the list it went to', async () => {
    const port = memoryPort();
    const s = new SelectsState(port, memoryStorage());
    await s.choose('Day 2');
    const added = await s.addFrom('j1', { kind: 'marker', id: 'm1' });
    expect(added).toMatchObject({ id: 's1', words: [0, 3] });
    expect(s.rangesOf('j1')).toEqual([{ id: 's1', words: [0, 3], colour: 'Green' }]);
    expect(await s.addFrom('j1', { kind: 'marker', id: 'm9' })).toBeNull();
    expect(s.error).toMatch(/no marker "m9"/);
    // Undo after another list was chosen still takes it from Day 2.
    await s.choose('Other');
    expect(await s.unadd('Day 2', 's1')).toBe(true);
    expect(port.lists_.get('day 2')?.selects).toEqual([]);
  });

  it('says what it added to which list, and its Undo takes that select out of that list', async () => {
    const port = memoryPort();
    const s = new SelectsState(port, memoryStorage());
    await s.choose('Day 2');
    expect(await addSelectFrom(s, 'j1', { kind: 'chapter', id: 'c1' })).toBe(true);
    const toast = app.toasts.find((t) => t.message === 'Added “s1” to Day 2.');
    expect(toast?.action?.label).toBe('Undo');
    toast!.action!.run();
    await expect.poll(() => port.lists_.get('day 2')?.selects.length).toBe(0);
    await expect.poll(() => app.toasts.some((t) => t.message === 'Took “s1” out of Day 2.')).toBe(true);
    // Refused: said, with main's reason.
    expect(await addSelectFrom(s, 'j1', { kind: 'marker', id: 'm9' })).toBe(false);
    expect(app.toasts.find((t) => t.message === 'The select was not added')?.detail).toMatch(/no marker "m9"/);
  });
});
