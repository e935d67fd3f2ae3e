// Moving finished records into the archive, interrupted: by kill -9 at random moments in a child
// that keeps compacting, and in-process by a failure injected at every write, fsync and rename a
// compaction makes. Afterwards every acknowledged record must be found (in the journal or the
// archive, by id and by its index key), and none may be held twice.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ArchivePolicy } from '../../../../main/adapters/store/archive/job-archive.js';
import { JobStore } from '../../../../main/adapters/store/journal/job-store.js';
import { transpileStore } from '../transpile-store.js';

interface Rec {
  id: string;
  n: number;
  path: string;
  done: boolean;
  pad: string;
}

const ITERATIONS = Number(process.env.SLUICE_CRASH_ITERATIONS ?? 20);
const POLICY: ArchivePolicy<Rec> = {
  archivable: (r) => r.done,
  keys: (r) => [`p:${r.path}`],
  row: (r) => ({ n: r.n }),
};

// Three puts per record, the last one finishing it: compactions run every few hundred puts.
const CHILD = `
import { JobStore } from './job-store.mjs';
const [dir, run] = process.argv.slice(2);
const archive = { archivable: (r) => r.done, keys: (r) => ['p:' + r.path], row: (r) => ({ n: r.n }) };
const store = JobStore.open(dir, { fsync: 'never', compactMinLines: 600, compactRatio: 2, archive });
process.stdout.write('ready\\n');
for (let i = 0; ; i++) {
  const id = 'job-' + run + '-' + i;
  const pad = 'x'.repeat((i * 7919) % 2000);
  for (let n = 1; n <= 3; n++) store.put({ id, n, path: '/media/' + id + '.wav', done: n === 3, pad });
  process.stdout.write(id + '\\n');
}
`;

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-archive-crash-'));
  transpileStore(work);
  fs.writeFileSync(path.join(work, 'package.json'), '{"type":"module"}');
  fs.writeFileSync(path.join(work, 'child.mjs'), CHILD);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function runAndKill(dir: string, run: number, killAfterMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(work, 'child.mjs'), dir, String(run)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      if (out === '' && d.startsWith('ready')) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited on its own: ${err}`));
      resolve(out.split('\n').slice(1, -1).filter(Boolean));
    });
  });
}

/** Ids of the archive's lines within the committed length the journal's header names. */
function archivedIds(dir: string): string[] {
  const header = JSON.parse(fs.readFileSync(path.join(dir, 'jobs.jsonl'), 'utf8').split('\n')[0]!) as { a: number };
  const text = fs
    .readFileSync(path.join(dir, 'archive', 'jobs.jsonl'))
    .subarray(0, header.a)
    .toString('utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { p: Rec }).p.id);
}

/** Uncommitted archive bytes: a kill landed between the archive's append and the journal's rename. */
function uncommittedBytes(dir: string): number {
  const header = JSON.parse(fs.readFileSync(path.join(dir, 'jobs.jsonl'), 'utf8').split('\n')[0]!) as { a: number };
  return fs.statSync(path.join(dir, 'archive', 'jobs.jsonl')).size - header.a;
}

function expectWhole(store: JobStore<Rec>, dir: string, acked: Iterable<string>): void {
  const ids = archivedIds(dir);
  expect(new Set(ids).size, 'an archived record held twice').toBe(ids.length);
  for (const id of ids) expect(store.isHot(id), `${id} both archived and in the journal`).toBe(false);
  let i = 0;
  for (const id of acked) {
    const r = store.get(id);
    expect(r, id).toMatchObject({ id, n: 3 });
    // The index finds it by key too (a sample: each lookup reads the disk).
    if (i++ % 25 === 0 && !store.isHot(id)) {
      expect(store.archived!.find(`p:${r!.path}`, (x) => x.path === r!.path).map((x) => x.record.id)).toEqual([id]);
    }
  }
}

describe('archive compaction, interrupted', () => {
  it('SIGKILL at random moments: nothing acknowledged is lost, nothing archived twice', async () => {
    const dir = path.join(work, 'killed');
    const acked: string[] = [];
    let midCompaction = 0;
    for (let run = 0; run < ITERATIONS; run++) {
      const now = await runAndKill(dir, run, 30 + Math.floor(Math.random() * 250));
      if (fs.existsSync(path.join(dir, 'archive', 'jobs.jsonl')) && uncommittedBytes(dir) > 0) midCompaction++;
      const store = JobStore.open<Rec>(dir, { fsync: 'never', archive: POLICY });
      expect(store.loadReport.skipped).toBe(0);
      // Open archives whatever is finished: nothing finished stays in the journal.
      expect(store.all().filter((r) => r.done)).toEqual([]);
      // After each kill: every record this run acknowledged and every 20th earlier one (a different
      // twentieth each time), and no archived record held twice. Every earlier record is looked up
      // once more after the last kill: a record lost stays lost, so a later look finds it missing.
      expectWhole(store, dir, [...now, ...acked.filter((_, i) => i % 20 === run % 20)]);
      acked.push(...now);
      store.close();
    }
    const store = JobStore.open<Rec>(dir, { fsync: 'never', archive: POLICY });
    expectWhole(store, dir, acked);
    store.close();
    console.log(
      `[archive crash] ${ITERATIONS} SIGKILLs, ${acked.length} acknowledged records checked, ` +
        `${midCompaction} kills between the archive's append and the journal's rename`,
    );
    expect(acked.length).toBeGreaterThan(ITERATIONS);
  }, 180_000);

  it('a failure at each write, fsync and rename of a compaction loses nothing and duplicates nothing', () => {
    const seed = (dir: string): string[] => {
      const s = JobStore.open<Rec>(dir, { fsync: 'never', compactMinLines: 1e9 });
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) {
        const id = `j${i}`;
        ids.push(id);
        s.put({ id, n: 3, path: `/m/${id}.wav`, done: i % 2 === 0, pad: '' });
      }
      s.close();
      return ids;
    };
    // Opened with nothing due, so that the compaction under test is the explicit one.
    let due = false;
    const policy: ArchivePolicy<Rec> = { ...POLICY, archivable: (r) => due && r.done };
    const openDue = (dir: string): JobStore<Rec> => {
      due = false;
      const s = JobStore.open<Rec>(dir, { fsync: 'never', archive: policy });
      due = true;
      return s;
    };
    const calls = ['writeSync', 'fsyncSync', 'renameSync', 'openSync'] as const;
    // Count the steps of one whole compaction.
    const probe = path.join(work, 'probe');
    seed(probe);
    const p = openDue(probe);
    const counters = calls.map((c) => vi.spyOn(fs, c));
    p.compact();
    const steps = counters.map((c) => c.mock.calls.length);
    vi.restoreAllMocks();
    p.close();
    expect(steps.reduce((a, b) => a + b)).toBeGreaterThan(6);

    const inject = (name: (typeof calls)[number], at: number): boolean => {
      const real = fs[name] as (...a: unknown[]) => unknown;
      let seen = 0;
      vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
        if (++seen === at) throw Object.assign(new Error(`injected ${name} #${at}`), { code: 'EIO' });
        return real(...args);
      }) as never);
      return true;
    };
    let failures = 0;
    calls.forEach((name, k) => {
      for (let at = 1; at <= steps[k]!; at++) {
        // The process goes on after the failure: the same store still holds everything, and compacts later.
        const dir = path.join(work, `inject-${name}-${at}`);
        const ids = seed(dir);
        const store = openDue(dir);
        inject(name, at);
        try {
          store.compact();
        } catch {
          failures++;
        }
        vi.restoreAllMocks();
        for (const id of ids) expect(store.get(id), `${name} #${at}: ${id}`).toMatchObject({ id, n: 3 });
        store.compact();
        expectWhole(store, dir, ids);
        store.close();

        // The process dies at the failure: whatever it left behind reopens whole.
        const crashed = path.join(work, `crash-${name}-${at}`);
        const cids = seed(crashed);
        const dying = openDue(crashed);
        inject(name, at);
        try {
          dying.compact();
        } catch {
          /* never closed: as if killed here */
        }
        vi.restoreAllMocks();
        const reopened = JobStore.open<Rec>(crashed, { fsync: 'never', archive: POLICY });
        expectWhole(reopened, crashed, cids);
        expect(reopened.all().filter((r) => r.done)).toEqual([]);
        reopened.close();
      }
    });
    expect(failures).toBeGreaterThan(steps.length);
  });
});
