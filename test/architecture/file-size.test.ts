// No source file of the main process or the preload grows past 400 lines: past that, a file is
// usually two jobs in one room, and the next capability lands in it too. A file that must grow
// is split along what it does (as the watcher's look queue and burst watch were).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LIMIT = 400;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const lines = (file: string): number => readFileSync(file, 'utf8').split('\n').length - 1;

describe('source file size', () => {
  it(`keeps every file in main/ and preload/ within ${LIMIT} lines`, () => {
    const files = ['main', 'preload'].flatMap((d) => sourceFiles(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const over = files.map((f) => ({ file: path.relative(ROOT, f), lines: lines(f) })).filter((f) => f.lines > LIMIT);
    expect(over).toEqual([]);
  });
});
