// kill -9 at random moments while a child process appends (and compacts): every put the child
// acknowledged must be there after reopening, and nothing may be corrupt.
//
// The child runs the real store code (see transpile-store.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../../../main/adapters/store/journal/job-store.js';
import { transpileStore } from '../transpile-store.js';

interface Rec {
  id: string;
  n: number;
  pad: string;
  check: string;
}

const ITERATIONS = Number(process.env.SLUICE_CRASH_ITERATIONS ?? 30);
let work: string;

const CHILD = `
import { JobStore } from './job-store.mjs';
const [dir, fsync] = process.argv.slice(2);
const store = JobStore.open(dir, { fsync, compactMinLines: 300, compactRatio: 3 });
const check = (id, n, len) => id + ':' + n + ':' + len;
const ids = Array.from({ length: 40 }, (_, i) => 'job-' + i);
process.stdout.write('ready\\n');
for (let i = 0; ; i++) {
  const id = ids[i % ids.length];
  const n = (store.get(id)?.n ?? 0) + 1;
  const pad = 'x'.repeat((i * 7919) % 3000);
  store.put({ id, n, pad, check: check(id, n, pad.length) });
  process.stdout.write(id + ' ' + n + '\\n'); // ack: only after put returned
}
`;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-crash-'));
  transpileStore(work);
  fs.writeFileSync(path.join(work, 'package.json'), '{"type":"module"}');
  fs.writeFileSync(path.join(work, 'child.mjs'), CHILD);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function runAndKill(
  dir: string,
  fsync: string,
  killAfterMs: number,
): Promise<{ acked: Map<string, number>; puts: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(work, 'child.mjs'), dir, fsync], {
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
      const acked = new Map<string, number>();
      const lines = out.split('\n').slice(1, -1);
      for (const line of lines) {
        // the last element may be a torn stdout line; only complete ones count as acknowledged
        const [id, n] = line.split(' ');
        if (id && n) acked.set(id, Math.max(acked.get(id) ?? 0, Number(n)));
      }
      resolve({ acked, puts: lines.length });
    });
  });
}

describe('JobStore crash safety (SIGKILL)', () => {
  it.each(['never', 'always'])(
    'fsync=%s: no acknowledged put lost, nothing corrupt',
    async (fsync) => {
      const dir = path.join(work, `store-${fsync}`);
      let totalAcks = 0;
      let truncations = 0;
      let maxLines = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        const { acked, puts } = await runAndKill(dir, fsync, Math.floor(Math.random() * 120));
        totalAcks += puts;
        const store = JobStore.open<Rec>(dir, { fsync: 'never' });
        expect(store.loadReport.skipped).toBe(0);
        if (store.loadReport.truncatedBytes > 0) truncations++;
        maxLines = Math.max(maxLines, store.loadReport.lines);
        for (const [id, n] of acked) {
          const r = store.get(id);
          expect(r, id).toBeDefined();
          expect(r!.n).toBeGreaterThanOrEqual(n);
        }
        for (const r of store.all()) expect(r.check).toBe(`${r.id}:${r.n}:${r.pad.length}`);
        expect(fs.existsSync(path.join(dir, 'jobs.jsonl.tmp'))).toBe(false);
        store.close();
      }
      console.log(
        `[job-store crash] fsync=${fsync}: ${ITERATIONS} SIGKILLs, ${totalAcks} acknowledged puts checked, ` +
          `${truncations} torn tails truncated, journal ≤ ${maxLines} lines at reopen`,
      );
    },
    120_000,
  );
});
