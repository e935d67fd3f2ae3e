import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobStore } from '../../../../main/adapters/store/journal/job-store.js';

interface Rec {
  id: string;
  n: number;
  note?: string;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-store-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const open = (o: Parameters<typeof JobStore.open<Rec>>[1] = {}) => JobStore.open<Rec>(dir, { fsync: 'never', ...o });
const file = () => path.join(dir, 'jobs.jsonl');
const lines = () => fs.readFileSync(file(), 'utf8').split('\n').filter(Boolean);

describe('JobStore', () => {
  it('put/get/all; last line per id wins; survives reopen', () => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    s.put({ id: 'b', n: 1 });
    s.put({ id: 'a', n: 2 });
    expect(s.get('a')).toEqual({ id: 'a', n: 2 });
    expect(
      s
        .all()
        .map((r) => r.id)
        .sort(),
    ).toEqual(['a', 'b']);
    s.close();
    const r = open();
    expect(r.get('a')).toEqual({ id: 'a', n: 2 });
    expect(r.size).toBe(2);
    expect(r.loadReport).toMatchObject({ lines: 4, live: 2, skipped: 0, truncatedBytes: 0 });
    r.close();
  });

  it('delete writes a tombstone that survives reopen', () => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    expect(s.delete('a')).toBe(true);
    expect(s.delete('a')).toBe(false);
    s.close();
    const r = open();
    expect(r.get('a')).toBeUndefined();
    r.close();
  });

  it.each([
    { name: 'torn tail without newline', tail: '{"p":{"id":"a","n":' },
    { name: 'complete JSON without newline (never acknowledged)', tail: '{"p":{"id":"a","n":99}}' },
    { name: 'garbage line with newline at the tail', tail: '\u0000\u0000\u0000garbage\n' },
    { name: 'NUL-filled tail (delayed allocation after power loss)', tail: '\u0000'.repeat(512) },
  ])('$name is ignored and truncated away', ({ tail }) => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    s.close();
    const good = fs.statSync(file()).size;
    fs.appendFileSync(file(), tail);
    const r = open();
    expect(r.get('a')).toEqual({ id: 'a', n: 1 });
    expect(fs.statSync(file()).size).toBe(good);
    r.put({ id: 'a', n: 2 });
    r.close();
    const again = open();
    expect(again.get('a')).toEqual({ id: 'a', n: 2 });
    expect(again.loadReport.skipped).toBe(0);
    again.close();
  });

  it('a damaged line in the middle is skipped, later lines still count', () => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    s.close();
    fs.appendFileSync(file(), 'not json\n{"p":{"id":"b","n":1}}\n');
    const r = open();
    expect(r.get('b')).toEqual({ id: 'b', n: 1 });
    expect(r.loadReport.skipped).toBe(1);
    r.close();
  });

  it('records failing validate are skipped', () => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    s.put({ id: 'b', n: -1 });
    s.close();
    const r = JobStore.open<Rec>(dir, { validate: (v): v is Rec => (v as Rec).n >= 0 });
    expect(r.all().map((x) => x.id)).toEqual(['a']);
    r.close();
  });

  it('refuses a journal from a newer format', () => {
    fs.writeFileSync(file(), '{"h":"sluice-jobs","v":99}\n');
    expect(() => open()).toThrow(/newer Sluice/);
  });

  it('compaction keeps live records, drops history, and is triggered by size', () => {
    const s = open({ compactMinLines: 100, compactRatio: 4 });
    for (let i = 0; i < 1000; i++) s.put({ id: `j${i % 10}`, n: i });
    s.delete('j0');
    expect(lines().length).toBeLessThan(100);
    s.compact();
    expect(lines().length).toBe(1 + 9);
    s.close();
    const r = open();
    expect(r.size).toBe(9);
    expect(r.get('j9')).toEqual({ id: 'j9', n: 999 });
    r.close();
  });

  it('a stale compaction temp file is removed at open and never read', () => {
    fs.writeFileSync(`${file()}.tmp`, '{"p":{"id":"ghost","n":1}}\n');
    const s = open();
    expect(s.get('ghost')).toBeUndefined();
    expect(fs.existsSync(`${file()}.tmp`)).toBe(false);
    s.close();
  });

  it('batch mode group-commits and flush forces it; closed store refuses writes', () => {
    const s = open({ fsync: 'batch', batchMs: 5 });
    s.put({ id: 'a', n: 1 });
    s.flush();
    s.close();
    expect(() => s.put({ id: 'a', n: 2 })).toThrow(/closed/);
    s.close(); // idempotent
  });

  it('starts a new journal with a header line', () => {
    open().close();
    expect(lines()).toEqual(['{"h":"sluice-jobs","v":2,"a":0,"r":0}']);
  });
});
