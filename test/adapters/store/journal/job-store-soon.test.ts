// `putSoon`: a watch folder's new jobs, written together at the end of the event loop's turn (one
// write for many, not one each), and always before any later line, so a change acted on is never
// in the journal ahead of the job it changes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobStore } from '../../../../main/adapters/store/journal/job-store.js';

interface Rec {
  id: string;
  n: number;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-soon-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const open = (o: Parameters<typeof JobStore.open<Rec>>[1] = {}) => JobStore.open<Rec>(dir, { fsync: 'never', ...o });
const file = () => path.join(dir, 'jobs.jsonl');
/** The journal's records after its header, as ids in order. */
const written = () =>
  fs
    .readFileSync(file(), 'utf8')
    .split('\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => {
      const v = JSON.parse(l) as { p?: Rec; d?: string };
      return v.p ? `${v.p.id}=${v.p.n}` : `-${v.d}`;
    });
const turn = () => new Promise<void>((r) => setImmediate(r));
const never = () => {
  throw new Error('not refused');
};

/** Counts the writes that reach the journal's file. */
function journalWrites(): () => number {
  const real = fs.writeSync.bind(fs) as (...a: unknown[]) => number;
  const ino = fs.statSync(file()).ino;
  let n = 0;
  vi.spyOn(fs, 'writeSync').mockImplementation(((...args: unknown[]) => {
    if (typeof args[0] === 'number' && fs.fstatSync(args[0]).ino === ino) n++;
    return real(...args);
  }) as typeof fs.writeSync);
  return () => n;
}

describe('JobStore.putSoon', () => {
  it('holds the records at once and writes a turn’s worth of them in one write', async () => {
    const s = open();
    const writes = journalWrites();
    for (let i = 0; i < 500; i++) s.putSoon({ id: `j${i}`, n: i }, never);
    expect(s.get('j499')).toEqual({ id: 'j499', n: 499 });
    expect(s.size).toBe(500);
    expect(written()).toEqual([]);
    await turn();
    expect(writes()).toBe(1);
    expect(written()).toEqual(Array.from({ length: 500 }, (_, i) => `j${i}=${i}`));
    s.close();
    const r = open();
    expect(r.size).toBe(500);
    expect(r.loadReport).toMatchObject({ lines: 501, skipped: 0, truncatedBytes: 0 });
    r.close();
  });

  it('writes its lines before any later put or delete, in one write with it', () => {
    const s = open();
    const writes = journalWrites();
    s.putSoon({ id: 'a', n: 1 }, never);
    s.putSoon({ id: 'b', n: 1 }, never);
    s.put({ id: 'a', n: 2 }); // a change to a job taken this same turn
    expect(written()).toEqual(['a=1', 'b=1', 'a=2']);
    s.putSoon({ id: 'c', n: 1 }, never);
    s.delete('b');
    expect(written()).toEqual(['a=1', 'b=1', 'a=2', 'c=1', '-b']);
    expect(writes()).toBe(2);
    s.close();
    const r = open();
    expect(r.all()).toEqual([
      { id: 'a', n: 2 },
      { id: 'c', n: 1 },
    ]);
    r.close();
  });

  it('flush and close write what waits', () => {
    const s = open();
    s.putSoon({ id: 'a', n: 1 }, never);
    s.flush();
    expect(written()).toEqual(['a=1']);
    s.putSoon({ id: 'b', n: 1 }, never);
    s.close();
    expect(written()).toEqual(['a=1', 'b=1']);
  });

  it('a compaction takes the waiting records along and they are not written again', async () => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    s.putSoon({ id: 'b', n: 1 }, never);
    s.compact();
    await turn();
    expect(written()).toEqual(['a=1', 'b=1']);
    s.close();
  });

  it('a refused late write (disk full) is told, leaves no half line, and goes out with the next write', async () => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    const real = fs.writeSync.bind(fs) as (...a: unknown[]) => number;
    let full = true;
    vi.spyOn(fs, 'writeSync').mockImplementation(((...args: unknown[]) => {
      if (!full) return real(...args);
      const [fd, buf] = args as [number, Buffer];
      real(fd, buf, 0, Math.floor(buf.length / 2)); // half of it got out
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as typeof fs.writeSync);
    const refusals: unknown[] = [];
    s.putSoon({ id: 'b', n: 1 }, (e) => refusals.push(e));
    s.putSoon({ id: 'c', n: 1 }, (e) => refusals.push(e));
    await turn();
    expect(refusals).toHaveLength(1);
    expect((refusals[0] as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(written()).toEqual(['a=1']); // the half line was cut off
    expect(() => s.put({ id: 'a', n: 2 })).toThrow(/ENOSPC/);
    expect(written()).toEqual(['a=1']);
    full = false;
    s.put({ id: 'a', n: 3 });
    expect(written()).toEqual(['a=1', 'b=1', 'c=1', 'a=3']);
    s.close();
    const r = open();
    expect(r.loadReport).toMatchObject({ lines: 5, live: 3, skipped: 0, truncatedBytes: 0 });
    r.close();
  });

  it('a close that the disk refuses does not throw, and leaves the journal whole', () => {
    const s = open();
    s.put({ id: 'a', n: 1 });
    s.putSoon({ id: 'b', n: 1 }, never);
    vi.spyOn(fs, 'writeSync').mockImplementation((() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }) as typeof fs.writeSync);
    expect(() => s.close()).not.toThrow();
    vi.restoreAllMocks();
    expect(written()).toEqual(['a=1']);
    const r = open();
    expect(r.all()).toEqual([{ id: 'a', n: 1 }]);
    r.close();
  });
});
