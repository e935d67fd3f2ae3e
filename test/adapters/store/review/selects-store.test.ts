// The lists of selects on disk: saved before the change is answered, one list per file named by its
// folded name, several lists side by side, changes from two stores on one folder (the app and the
// CLI) both kept, a damaged file set aside rather than read as empty or lost.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SelectsStore } from '../../../../main/adapters/store/review/selects-store.js';
import { addSelect, SelectError, type SelectList } from '../../../../main/engine/selects/selects.js';
import type { Transcript } from '../../../../main/engine/transcript/transcript.js';

const t: Transcript = {
  words: ['One', 'two', 'three', 'four'].map((text, i) => ({
    text,
    startMs: i * 500,
    endMs: i * 500 + 400,
    spaceBefore: true,
    corrected: false,
  })),
  speakers: [],
  names: {},
  text: 'One two three four',
};
const add =
  (id: string, range: [number, number]) =>
  (l: SelectList): SelectList =>
    addSelect(l, t, { id, jobId: 'job-1', range });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-selects-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SelectsStore', () => {
  it('saves each change before answering, privately, and reads it back in a new store (a restart)', async () => {
    const store = new SelectsStore(dir);
    const saved = await store.update('Día uno', add('s1', [0, 2]));
    const file = store.pathOf('Día uno');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(saved);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o077).toBe(0);
    const again = new SelectsStore(dir);
    expect(await again.load('DIA UNO')).toEqual(saved);
    expect(saved.selects.map((s) => s.text)).toEqual(['One two']);
    // No temporary or lock file is left beside it.
    expect(readdirSync(dir)).toEqual([path.basename(file)]);
  });

  it('finds a list kept under the key an earlier fold gave its name, and moves it to its own', async () => {
    const store = new SelectsStore(dir);
    const saved = await store.update('Show™ ℍighlights', add('s1', [0, 2]));
    // Where the fold before NFKD-first put it ("Show™" folded to "showTM"): another key.
    const old = path.join(dir, '0123456789abcdef0123.json');
    writeFileSync(old, readFileSync(store.pathOf('Show™ ℍighlights')));
    await rm(store.pathOf('Show™ ℍighlights'));
    expect(await store.load('show™ ℍighlights')).toEqual(saved);
    const next = await store.update('Show™ ℍighlights', add('s2', [2, 4]));
    expect(next.selects.map((s) => s.id)).toEqual(['s1', 's2']);
    expect(readdirSync(dir)).toEqual([path.basename(store.pathOf('Show™ ℍighlights'))]);
  });

  it('keeps several lists, and both of two stores’ changes made at the same moment', async () => {
    const app = new SelectsStore(dir);
    const cli = new SelectsStore(dir);
    await Promise.all([
      ...[0, 1, 2].map((i) => app.update('Cut', add(`a${i}`, [i, i + 1]))),
      ...[0, 1, 2].map((i) => cli.update('cut', add(`c${i}`, [i, i + 1]))),
      app.update('Other', add('o', [3, 4])),
    ]);
    const cut = await app.load('Cut');
    expect(cut!.selects.map((s) => s.id).sort()).toEqual(['a0', 'a1', 'a2', 'c0', 'c1', 'c2']);
    expect(cut!.revision).toBe(6);
    // One list, named as whichever store made it first spelt it ('Cut' or 'cut').
    expect((await cli.all()).map((l) => [l.name.toLowerCase(), l.selects.length])).toEqual([
      ['cut', 6],
      ['other', 1],
    ]);
  });

  it('refuses a change that does not fit, and a name no file can have, saving nothing', async () => {
    const store = new SelectsStore(dir);
    await expect(store.update('Cut', add('x', [2, 9]))).rejects.toThrow(SelectError);
    await expect(store.update('a/b', add('x', [0, 1]))).rejects.toThrow(/cannot name a file/);
    await expect(store.update('Nothing', (l) => l, false)).rejects.toThrow(/no list named "Nothing"/);
    expect(existsSync(store.pathOf('Cut'))).toBe(false);
  });

  it('sets a damaged list aside and says there is none, rather than losing it', async () => {
    const store = new SelectsStore(dir);
    await store.update('Cut', add('s1', [0, 1]));
    writeFileSync(store.pathOf('Cut'), '{"version":1,"name":"Cut","revision":1,"selects":[{');
    expect(await store.load('Cut')).toBeUndefined();
    expect(existsSync(`${store.pathOf('Cut')}.damaged`)).toBe(true);
  });
  it('tells of the lists another store saves, not of its own saves', async () => {
    const app = new SelectsStore(dir);
    const cli = new SelectsStore(dir);
    const seen: Array<[string, number]> = [];
    const stop = await app.watch((l) => seen.push([l.name, l.revision]));
    try {
      const own = await app.update('Interviews', add('a', [0, 1]));
      const other = await cli.update('interviews', add('b', [1, 2]));
      await expect.poll(() => seen, { timeout: 5_000 }).toEqual([['Interviews', other.revision]]);
      // The app's next save (after the other's) is its own again: nothing more is told.
      const next = await app.update('Interviews', add('c', [2, 3]));
      expect(next.revision).toBeGreaterThan(other.revision);
      expect(own.revision).toBeLessThan(other.revision);
      const third = await cli.update('Interviews', add('d', [3, 4]));
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(2);
      expect(seen).toEqual([
        ['Interviews', other.revision],
        ['Interviews', third.revision],
      ]);
    } finally {
      stop();
    }
  });
});
