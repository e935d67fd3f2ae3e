import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArchivePolicy } from '../../../../main/adapters/store/archive/job-archive.js';
import { JobStore } from '../../../../main/adapters/store/journal/job-store.js';

interface Rec {
  id: string;
  n: number;
  path: string;
  done: boolean;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-archive-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const POLICY: ArchivePolicy<Rec> = {
  archivable: (r) => r.done,
  keys: (r) => [`p:${r.path}`],
  row: (r) => ({ n: r.n }),
};
const open = (o: Parameters<typeof JobStore.open<Rec>>[1] = {}) =>
  JobStore.open<Rec>(dir, { fsync: 'never', archive: POLICY, ...o });
const rec = (i: number, done = true, n = 1): Rec => ({ id: `j${i}`, n, path: `/m/${i}.wav`, done });

/** A journal as Sluice wrote it before the archive: everything in one file. */
function legacy(count: number): void {
  const s = JobStore.open<Rec>(dir, { fsync: 'never', compactMinLines: 1e9 });
  for (let i = 0; i < count; i++) s.put(rec(i, i % 10 !== 0));
  s.close();
}

describe('JobStore with an archive', () => {
  it('migrates a whole journal at its first open: finished records leave memory, all stay readable', () => {
    legacy(1000);
    const s = open();
    expect(s.size).toBe(100);
    expect(s.all().every((r) => !r.done)).toBe(true);
    expect(s.get('j1')).toEqual(rec(1));
    expect(s.isHot('j1')).toBe(false);
    expect(s.get('nope')).toBeUndefined();
    expect(s.archived!.rows()).toHaveLength(900);
    expect(s.archived!.find('p:/m/7.wav', (r) => r.path === '/m/7.wav').map((x) => x.record)).toEqual([rec(7)]);
    expect(s.archived!.find('p:/m/0.wav', (r) => r.path === '/m/0.wav')).toEqual([]);
    s.close();
    const lines = fs.readFileSync(path.join(dir, 'jobs.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(101);
    expect(JSON.parse(lines[0]!)).toMatchObject({ h: 'sluice-jobs', v: 2 });
  });

  it('a journal deleted by hand leaves the archive whole: History and identity still find every finished job', () => {
    legacy(100);
    open().close();
    const archived = fs.statSync(path.join(dir, 'archive', 'jobs.jsonl')).size;
    expect(archived).toBeGreaterThan(0);
    fs.rmSync(path.join(dir, 'jobs.jsonl'));
    const s = open();
    expect(fs.statSync(path.join(dir, 'archive', 'jobs.jsonl')).size).toBe(archived);
    expect(s.archived!.rows()).toHaveLength(90);
    expect(s.get('j7')).toEqual(rec(7));
    s.close();
    // The new journal's header commits what it adopted: a second open keeps it too.
    const again = open();
    expect(again.archived!.rows()).toHaveLength(90);
    again.close();
  });

  it('a put of an archived record brings it back; archived again, its newest version wins', () => {
    legacy(20);
    let s = open();
    s.put({ ...rec(3), n: 2, done: false });
    expect(s.isHot('j3')).toBe(true);
    expect(s.get('j3')!.n).toBe(2);
    s.close();
    s = open();
    expect(s.get('j3')!.n).toBe(2);
    s.put({ ...rec(3), n: 3 });
    s.compact();
    expect(s.isHot('j3')).toBe(false);
    expect(s.get('j3')!.n).toBe(3);
    expect(s.archived!.find('p:/m/3.wav', (r) => r.path === '/m/3.wav').map((x) => x.record.n)).toEqual([3]);
    expect(s.archived!.rows().filter((r) => r.i === 'j3')).toEqual([expect.objectContaining({ n: 3 })]);
    s.close();
  });

  it('a reader beside the owner (sluice history) sees journal and archive, each record once', () => {
    legacy(50);
    const s = open();
    s.put({ ...rec(4), n: 9, done: false });
    const seen = JobStore.snapshot<Rec>(dir);
    expect(seen).toHaveLength(50);
    expect(seen.find((r) => r.id === 'j4')!.n).toBe(9);
    s.close();
  });

  it('keeps the index merged as compactions add segments, and lookups right throughout', () => {
    const s = open({ compactMinLines: 1e9 });
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 10; i++) s.put(rec(round * 10 + i));
      s.compact();
    }
    const segments = fs.readdirSync(path.join(dir, 'archive')).filter((f) => f.endsWith('.idx'));
    expect(segments.length).toBeLessThanOrEqual(9);
    for (let i = 0; i < 200; i += 13) expect(s.get(`j${i}`)).toEqual(rec(i));
    s.close();
    // A lost segment is rebuilt from the archive at the next open.
    fs.rmSync(path.join(dir, 'archive', segments[0]!));
    const r = open();
    for (let i = 0; i < 200; i += 7) expect(r.get(`j${i}`)).toEqual(rec(i));
    r.close();
  });

  it('the archive is as private as the rest of the state folder', () => {
    legacy(10);
    open().close();
    const a = path.join(dir, 'archive');
    expect(fs.statSync(a).mode & 0o777).toBe(0o700);
    for (const f of fs.readdirSync(a)) expect(fs.statSync(path.join(a, f)).mode & 0o777, f).toBe(0o600);
  });
});
