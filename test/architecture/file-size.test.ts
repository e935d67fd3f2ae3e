// No source file grows past 400 lines: past that, a file is usually two jobs in one room, and the
// next capability lands in it too. A file that must grow is split along what it does (as the
// watcher's look queue and burst watch were). Past 350 lines the run names the file, so it is
// split when its concerns part, not when it hits the wall.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LIMIT = 400;
const WARN = 350;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function sized(dirs: string[]): Array<{ file: string; lines: number }> {
  const files = dirs
    .flatMap((d) => sourceFiles(path.join(ROOT, d)))
    .map((f) => ({ file: path.relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }));
  const near = files.filter((f) => f.lines > WARN);
  if (near.length > 0)
    console.warn(
      `Past ${WARN} lines (split where their concerns part):\n${near.map((f) => `  ${f.lines} ${f.file}`).join('\n')}`,
    );
  return files;
}

describe('source file size', () => {
  it(`keeps every file in main/, common/ and preload/ within ${LIMIT} lines`, () => {
    const files = sized(['main', 'common', 'preload']);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => f.lines > LIMIT)).toEqual([]);
  });

  // The renderer under the same rule: a screen is split by concern (player, transcript, find, side
  // panels; list, filters, detail), not allowed to grow because it was big first.
  it(`keeps every file in renderer/ within ${LIMIT} lines`, () => {
    const files = sized(['renderer/src']);
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => f.lines > LIMIT)).toEqual([]);
  });
});
