// The README is read and reviewed as source: a table cell is a phrase (the detail goes in the
// paragraphs under the table), prose is wrapped, and "Where to change what" names files that exist.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const lines = README.split('\n');
const cellsOf = (row: string): string[] =>
  row
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());

describe('README', () => {
  it('keeps each table cell to a phrase', () => {
    const long = lines
      .map((l, i) => ({ l, line: i + 1 }))
      .filter(({ l }) => l.startsWith('|'))
      .flatMap(({ l, line }) => cellsOf(l).map((c) => ({ line, c })))
      .filter(({ c }) => c.length > 140 && !/^-+$/.test(c))
      .map(({ line, c }) => `line ${line}: ${c.slice(0, 60)}…`);
    expect(long).toEqual([]);
  });

  it('wraps its prose', () => {
    const long = lines
      .map((l, i) => ({ l, line: i + 1 }))
      .filter(({ l }) => !l.startsWith('|') && l.length > 200)
      .map(({ line, l }) => `line ${line}: ${l.slice(0, 60)}…`);
    expect(long).toEqual([]);
  });

  it('points "Where to change what" at files that exist', () => {
    const start = lines.indexOf('Where to change what:');
    expect(start).toBeGreaterThan(0);
    const rows = lines.slice(start + 4).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('|')));
    expect(rows.length).toBeGreaterThan(5);
    const missing = rows
      .map((r) => /`([^`]+)`/.exec(cellsOf(r)[1] ?? '')?.[1] ?? `(no file in: ${r})`)
      .filter((file) => !existsSync(path.join(ROOT, file)));
    expect(missing).toEqual([]);
  });
});
