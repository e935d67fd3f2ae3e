// No module imports itself through others: a cycle makes load order decide what is initialised,
// and it is where boundaries erode first. Type-only imports count too (they still tie the modules).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, ROOT } from './import-graph.js';

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) cycles.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe('import graph', () => {
  it('finds a cycle when there is one', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(importCycles(g).map((c) => c.sort())).toEqual([['a', 'b', 'c']]);
  });

  it('has no cycle in main/, preload/ or the renderer', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(100);
    const cycles = importCycles(graph).map((c) => c.map((f) => path.relative(ROOT, f)).sort());
    expect(cycles).toEqual([]);
  });
});
