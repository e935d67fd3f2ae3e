// The test tiers of test/tiers.ts: every test file runs in exactly one tier, and the unit tier
// keeps its promise of no processes, servers, sockets, worker threads or the sandbox (so it runs
// in seconds and once, under one Node).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { TIERS, type TierName } from '../tiers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) return p === 'test/e2e' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const inTier = (name: TierName, file: string): boolean =>
  picomatch.isMatch(file, [...TIERS[name].include]) && !picomatch.isMatch(file, [...TIERS[name].exclude]);

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
  const files = testFiles('test');
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
});
