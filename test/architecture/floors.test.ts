// Every import runs down: each room (a folder of main/, common/, preload/, the renderer) stands on a
// floor, and imports only rooms on lower floors. Two rooms on one floor import neither of each other
// (the shells; the adapters and the sandbox; the client and the media probe). A file-level cycle
// test does not see a loop between folders (adapters → sandbox → adapters went through different
// files), so the floors are checked here as well as by the lint zones (eslint.config.js). A new
// room gets its floor in FLOORS before anything may import it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT } from './import-graph.js';

/** Top down, as the README's layout table reads. */
export const FLOORS: Readonly<Record<string, number>> = {
  // The renderer is a process of its own: nothing of main may import it.
  renderer: 9,
  'main/index.ts': 9,
  'main/electron': 8,
  'main/cli': 8,
  'main/ipc': 7,
  'main/runtime': 6,
  'main/adapters': 5,
  'main/sandbox': 5,
  'main/api': 4,
  'main/media': 4,
  'main/engine': 3,
  'main/service': 2,
  preload: 2,
  common: 1,
};

/** The room of a source file: `main/<folder>` (or a loose file of main/), else its top folder. */
export function roomOf(file: string): string {
  const parts = path.relative(ROOT, file).split(path.sep);
  return parts[0] === 'main' ? `main/${parts[1]}` : (parts[0] ?? '');
}

/** The imports between rooms that do not run down a floor, as `from-file → to-file`. */
export function climbs(
  graph: ReadonlyMap<string, readonly string[]>,
  floors: Readonly<Record<string, number>>,
  room: (file: string) => string,
): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = room(from);
      const b = room(to);
      if (a === b) continue;
      const fa = floors[a];
      const fb = floors[b];
      if (fa === undefined || fb === undefined || fa <= fb) out.push(`${a} → ${b}: ${from} → ${to}`);
    }
  }
  return out;
}

describe('import floors', () => {
  it('finds an import that climbs, and one between rooms of a floor', () => {
    const floors = { top: 3, left: 2, right: 2, ground: 1 };
    const g = new Map([
      ['top/a', ['left/b', 'ground/c']],
      ['left/b', ['ground/c', 'right/d']],
      ['right/d', ['ground/c']],
      ['ground/c', ['top/a']],
    ]);
    const room = (f: string): string => f.split('/')[0] ?? '';
    expect(climbs(g, floors, room)).toEqual(['left → right: left/b → right/d', 'ground → top: ground/c → top/a']);
  });

  it('gives every room of the source tree a floor', () => {
    const rooms = new Set([...importGraph().keys()].map(roomOf));
    expect([...rooms].filter((r) => FLOORS[r] === undefined)).toEqual([]);
  });

  it('has every import of main/, common/, preload/ and the renderer run down a floor', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    const rel = new Map(
      [...graph].map(([f, ts]) => [path.relative(ROOT, f), ts.map((t) => path.relative(ROOT, t))] as const),
    );
    expect(climbs(rel, FLOORS, (f) => roomOf(path.join(ROOT, f)))).toEqual([]);
  });
});
