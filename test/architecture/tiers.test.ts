// The test tiers of test/tiers.ts: every test file runs in exactly one tier, and the unit tier
// keeps its promise of no processes, servers, sockets, worker threads or the sandbox (so it runs
// in seconds and once, under one Node).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasOwnModules, inTier, testFiles, TIERS, type TierName } from '../tiers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Modules a unit test may not load: each starts or reaches something outside the process. */
const NOT_IN_UNIT = [
  /^node:(child_process|http|https|net|worker_threads|dgram)$/,
  /helpers\/(runtime|media|media-server|service)\.js$/,
  /in-process-bridge\.js$/,
  /main\/(sandbox|runtime)\//,
  /^better-sqlite3$/,
];

/** The modules a file imports (static imports and re-exports). */
const importsOf = (text: string): string[] =>
  [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom '([^']+)'/gms)].map((m) => m[1] ?? '');

describe('test tiers', () => {
  const files = testFiles(ROOT);
  const names = Object.keys(TIERS) as TierName[];

  it('puts every test file in exactly one tier', () => {
    expect(files.length).toBeGreaterThan(200);
    const wrong = files
      .map((f) => ({ file: f, tiers: names.filter((n) => inTier(n, f)) }))
      .filter((f) => f.tiers.length !== 1);
    expect(wrong).toEqual([]);
  });

  it('keeps the unit tier free of processes, servers and the sandbox', () => {
    const unit = files.filter((f) => inTier('unit', f));
    expect(unit.length).toBeGreaterThan(80);
    const loading = unit.flatMap((f) => {
      const modules = importsOf(readFileSync(path.join(ROOT, f), 'utf8'));
      return modules.filter((m) => NOT_IN_UNIT.some((re) => re.test(m))).map((m) => `${f} imports ${m}`);
    });
    expect(loading).toEqual([]);
  });

  it('gives every file that stands in for a module (vi.mock) modules of its own', () => {
    const mocking = files.filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.filter((f) => !hasOwnModules(f))).toEqual([]);
  });
});
