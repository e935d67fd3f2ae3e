// Team mode end to end: two `sluice watch --shared` processes (own state folders, one account) on
// one folder, against the sandbox over HTTP. Every file ends with exactly one completed stream and
// both did part of the work; one killed with SIGKILL while holding claims is taken over after the
// claim timeout, each file still billed once, and, restarted, processes nothing again. A computer
// that never saw a file done elsewhere meets the service's 409 and takes the finished stream.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../main/adapters/store/journal/job-store.js';
import type { JobRecord } from '../../main/engine/job.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli } from './run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY = 'team-mode-key';
const FILES = 30;

let dir: string;
let staging: string;
let sandbox: Sandbox;

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-team-');
  staging = path.join(dir, 'staging');
  await mkdir(staging);
  // Distinct lengths, so content identity sees 40 different files.
  for (let i = 0; i < FILES + 10; i += 4) {
    const batch = [i, i + 1, i + 2, i + 3].filter((n) => n < FILES + 10);
    await Promise.all(batch.map((n) => makeToneWav(staging, `clip ${n}.wav`, 1 + n * 0.05)));
  }
  sandbox = await startSandbox({ apiKey: KEY, fixedProcessingMs: 2500 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Whether `sluice watch` said it left `name` as it was: processed here or on another computer. */
function decided(out: string, name: string): boolean {
  return out
    .split('\n')
    .some((l) =>
      /^already (processed|queued) /.test(l) ? l.endsWith(`${path.sep}${name}`) : l.includes(`— ${name}: `),
    );
}

interface Watcher {
  out: () => string;
  kill: () => void;
  stop: () => Promise<void>;
  done: Promise<{ code: number | null; signal: string | null }>;
}

function watch(folder: string, stateDir: string): Watcher {
  const args = [
    'watch',
    folder,
    '--shared',
    '--claim-timeout',
    '15',
    '--base-url',
    sandbox.url,
    '--state-dir',
    stateDir,
  ];
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/sluice.js'), ...args], {
    env: { ...process.env, SLUICE_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    out: () => out,
    kill: () => child.kill('SIGKILL'),
    stop: async () => {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(t);
    },
    done,
  };
}

async function watching(w: Watcher): Promise<void> {
  await expect.poll(() => w.out(), { timeout: 30_000, interval: 100 }).toMatch(/Watching /);
}

const completedOf = (stateDir: string): JobRecord[] =>
  JobStore.snapshot<JobRecord>(stateDir).filter((j) => j.state === 'completed');

async function streamsNamed(prefix: string): Promise<{ name: string; state: string; streamId: string }[]> {
  return (await allStreams(sandbox.url, KEY))
    .filter((s) => (s.name ?? '').startsWith(prefix))
    .map((s) => ({ name: s.name ?? '', state: s.state, streamId: s.streamId }));
}

async function land(folder: string, names: string[], as: (n: string) => string): Promise<void> {
  for (const n of names) await copyFile(path.join(staging, n), path.join(folder, as(n)));
}

describe('team mode', () => {
  it('two computers on one folder: every file once, both did part of the work, no side copies', async () => {
    const folder = path.join(dir, 'share1');
    await mkdir(folder);
    const a = watch(folder, path.join(dir, 'state-a1'));
    const b = watch(folder, path.join(dir, 'state-b1'));
    try {
      await Promise.all([watching(a), watching(b)]);
      const names = Array.from({ length: FILES }, (_, i) => `clip ${i}.wav`);
      await land(folder, names, (n) => `t1 ${n}`);
      await expect
        .poll(async () => (await readdir(folder)).filter((f) => f.endsWith('.json')).length, {
          timeout: 60_000,
          interval: 250,
        })
        .toBe(FILES);
      const streams = await streamsNamed('t1 ');
      const completed = streams.filter((s) => s.state === 'COMPLETED').map((s) => s.name);
      expect(completed.sort()).toEqual(names.map((n) => `t1 ${n}`).sort());
      // Not one stream more: the claims kept the other computer from even starting one.
      expect(streams).toHaveLength(FILES);
      // A job is marked completed in its journal just after its results are written: wait for both
      // journals to have caught up with the files on the share.
      const done = (): number =>
        completedOf(path.join(dir, 'state-a1')).length + completedOf(path.join(dir, 'state-b1')).length;
      await expect.poll(done, { timeout: 30_000, interval: 100 }).toBe(FILES);
      const byA = completedOf(path.join(dir, 'state-a1')).length;
      const byB = completedOf(path.join(dir, 'state-b1')).length;
      console.log(`team mode: ${FILES} files, ${byA} processed by one computer and ${byB} by the other`);
      expect(byA + byB).toBe(FILES);
      expect(byA).toBeGreaterThan(0);
      // History says which computer processed a file.
      expect(completedOf(path.join(dir, 'state-a1'))[0]?.processedBy).toBe(os.hostname());
      expect(byB).toBeGreaterThan(0);
      const files = await readdir(folder);
      expect(files.filter((f) => /\.wav\.\w+$|\.json\.json$/.test(f))).toEqual([]);
      expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(FILES);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 120_000);

  it('one killed while holding claims: the other finishes them after the timeout, once each; restarted, it does nothing', async () => {
    const folder = path.join(dir, 'share2');
    await mkdir(folder);
    const stateA = path.join(dir, 'state-a2');
    const a = watch(folder, stateA);
    const b = watch(folder, path.join(dir, 'state-b2'));
    let again: Watcher | undefined;
    try {
      await Promise.all([watching(a), watching(b)]);
      const names = Array.from({ length: 8 }, (_, i) => `clip ${FILES + i}.wav`);
      await land(folder, names, (n) => `t2 ${n}`);
      // A holds claims once it starts uploading; the stream then takes 2.5 s to process.
      await expect.poll(() => a.out(), { timeout: 30_000, interval: 50 }).toMatch(/^uploading /m);
      a.kill();
      expect((await a.done).signal).toBe('SIGKILL');
      const killedAt = Date.now();
      await expect
        .poll(async () => (await readdir(folder)).filter((f) => f.endsWith('.json')).length, {
          timeout: 60_000,
          interval: 250,
        })
        .toBe(names.length);
      const tookOver = Date.now() - killedAt;
      const streams = await streamsNamed('t2 ');
      const completed = streams.filter((s) => s.state === 'COMPLETED').map((s) => s.name);
      // Each file billed once: one completed stream each, whoever started it.
      expect(completed.sort()).toEqual(names.map((n) => `t2 ${n}`).sort());
      // B finished at least one file A had claimed, and only after the claim timeout.
      const aHeld = JobStore.snapshot<JobRecord>(stateA).filter((j) => j.state !== 'completed');
      expect(aHeld.length).toBeGreaterThan(0);
      expect(tookOver).toBeGreaterThanOrEqual(14_000);
      console.log(`team mode: ${aHeld.length} claims of the killed computer finished ${tookOver} ms after the kill`);

      const before = (await allStreams(sandbox.url, KEY)).length;
      again = watch(folder, stateA);
      await watching(again);
      // Every file has had its decision, said as a line: nothing is left that could start an upload.
      const restarted = again;
      await expect
        .poll(() => names.filter((n) => !decided(restarted.out(), `t2 ${n}`)), { timeout: 60_000, interval: 100 })
        .toEqual([]);
      expect((await allStreams(sandbox.url, KEY)).length).toBe(before);
      // Its own unfinished jobs are handed over before anything is dispatched: not one upload starts.
      const uploads = again
        .out()
        .split('\n')
        .filter((l) => l.startsWith('uploading '));
      expect(uploads, again.out()).toEqual([]);
      const after = JobStore.snapshot<JobRecord>(stateA);
      expect(after.filter((j) => !['completed', 'canceled'].includes(j.state))).toEqual([]);
      expect((await readdir(folder)).filter((f) => /\.wav\.\w+$|\.json\.json$/.test(f))).toEqual([]);
    } finally {
      await Promise.all([a.stop(), b.stop(), again?.stop()]);
    }
  }, 120_000);

  it('a computer that never saw the file done meets the 409 and takes the finished stream', async () => {
    const folder = path.join(dir, 'share3');
    await mkdir(folder);
    const a = watch(folder, path.join(dir, 'state-a3'));
    try {
      await watching(a);
      await land(folder, ['clip 38.wav'], (n) => `t3 ${n}`);
      await expect.poll(async () => readdir(folder), { timeout: 30_000, interval: 250 }).toContain('t3 clip 38.json');
    } finally {
      await a.stop();
    }
    const first = await streamsNamed('t3 ');
    expect(first.map((s) => s.state)).toEqual(['COMPLETED']);
    // The done record is lost (a restore, a clean-up): the claims cannot help. The results the
    // other computer wrote stay beside the source and must not be taken for a stranger's files.
    await rm(path.join(folder, '.sluice'), { recursive: true });
    const written = (await readdir(folder)).sort();
    const stateB = path.join(dir, 'state-b3');
    const b = watch(folder, stateB);
    try {
      await watching(b);
      await expect.poll(() => completedOf(stateB).length, { timeout: 30_000, interval: 250 }).toBe(1);
    } finally {
      await b.stop();
    }
    expect((await readdir(folder)).filter((f) => f !== '.sluice').sort()).toEqual(written);
    // The same id was sent, refused as reused, and the completed stream taken: no second stream.
    expect(await streamsNamed('t3 ')).toEqual(first);
    expect(completedOf(stateB).map((j) => j.streamId)).toEqual([first[0]!.streamId]);
  }, 90_000);
});
