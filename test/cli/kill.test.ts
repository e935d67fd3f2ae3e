// `sluice process` killed with SIGKILL at random moments, many times, then run to the end: every
// file ends with exactly one result and one completed stream, and every stream Sluice started is
// accounted for in its history. Uploads are throttled so that kills land mid-upload, and in the
// window where the last byte has left the process but the service has not counted it yet.
// (scripts/soak-kill.js runs the same for longer.)
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../main/adapters/store/journal/job-store.js';
import type { JobRecord } from '../../main/engine/job.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import type { StreamDto } from '../../main/service/types.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli } from './run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY = 'kill-test-key';
const FILES = 12;
const KILLS = Number(process.env.SLUICE_KILL_ITERATIONS ?? 10);

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  // The CLI runs from the compiled output; make sure it is current.
  buildCli();
  dir = await makeMediaDir('sluice-kill-');
  // A 2 s tone is 176 kB: about 0.9 s to upload at this rate.
  sandbox = await startSandbox({
    apiKey: KEY,
    fixedProcessingMs: 400,
    faults: { uploadThrottle: { bytesPerSecond: 200_000 } },
  });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

interface CliRun {
  kill: () => void;
  done: Promise<{ code: number | null; signal: string | null; out: string }>;
}

function startCli(args: string[], apiKey = KEY): CliRun {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/sluice.js'), ...args], {
    env: { ...process.env, SLUICE_API_KEY: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, out })),
  );
  return { kill: () => child.kill('SIGKILL'), done };
}

async function runCli(
  args: string[],
  killAfterMs?: number,
  apiKey = KEY,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  const run = startCli(args, apiKey);
  const timer = killAfterMs === undefined ? undefined : setTimeout(run.kill, killAfterMs);
  const r = await run.done;
  clearTimeout(timer);
  return r;
}

/** The end of a run's output: where the reason for a failure is. */
const tail = (out: string): string => out.trimEnd().split('\n').slice(-15).join('\n');

describe('sluice process under SIGKILL', () => {
  it(`survives ${KILLS} kills at random moments and then finishes every file exactly once`, async () => {
    const media = path.join(dir, 'media');
    await mkdir(media);
    const tone = await makeToneWav(dir, 'tone.wav', 2);
    for (let i = 0; i < FILES; i++) await copyFile(tone, path.join(media, `clip ${i}.wav`));
    const stateDir = path.join(dir, 'state');
    const args = ['process', media, '--base-url', sandbox.url, '--state-dir', stateDir, '--concurrency', '3'];
    let killed = 0;
    for (let i = 0; i < KILLS; i++) {
      // The CLI needs about a second to start: kills up to 3.5 s in land before, during and after uploads.
      const r = await runCli(args, 300 + Math.floor(Math.random() * 3200));
      if (r.signal === 'SIGKILL') killed++;
      else expect(r.code, tail(r.out)).toBe(0); // finished before the kill: fine, and nothing may have failed
    }
    expect(killed).toBeGreaterThan(0);
    const final = await runCli(args);
    expect(final.code, tail(final.out)).toBe(0);

    const names = (await readdir(media)).filter((f) => f.endsWith('.wav')).sort();
    expect(names).toHaveLength(FILES);
    const results = (await readdir(media)).filter((f) => f.endsWith('.json')).sort();
    expect(results).toEqual(names.map((n) => n.replace(/\.wav$/, '.json')));
    // A write cut short left its temporary file; writing the result again removed it.
    expect((await readdir(media)).filter((f) => f.endsWith('.sluice-tmp'))).toEqual([]);

    const streams = await allStreams(sandbox.url, KEY);
    const completed = streams.filter((s) => s.state === 'COMPLETED').map((s) => s.name);
    expect(completed.sort()).toEqual(names);

    // Every stream Sluice started is in its history: as a job's stream or an abandoned earlier one.
    const jobs = JobStore.snapshot<JobRecord>(stateDir);
    const known = new Set(jobs.flatMap((j) => [...(j.streamId ? [j.streamId] : []), ...j.previousStreamIds]));
    for (const s of streams) expect(known.has(s.streamId), `stream ${s.streamId} (${s.name}, ${s.state})`).toBe(true);
    expect(jobs.filter((j) => j.state === 'completed')).toHaveLength(FILES);
  }, 240_000);

  it('killed after the last byte left but before the service counted it, with the first cancels refused: one file, one completed stream', async () => {
    const key = 'kill-cancel-key';
    // 88 kB at 8 kB/s: the whole file leaves the process at once; the stream counts it ~11 s later.
    const slow = await startSandbox({
      apiKey: key,
      fixedProcessingMs: 200,
      faults: {
        uploadThrottle: { bytesPerSecond: 8_000 },
        serverErrors: { next: 3, operations: ['cancel'], status: 503, retryAfterS: 0 },
      },
    });
    try {
      const media = path.join(dir, 'one');
      await mkdir(media);
      await makeToneWav(media, 'clip.wav', 1);
      const stateDir = path.join(dir, 'state-one');
      const args = ['process', media, '--base-url', slow.url, '--state-dir', stateDir];
      const streams = (): Promise<StreamDto[]> => allStreams(slow.url, key);

      const run = startCli(args, key);
      await expect.poll(async () => (await streams()).length, { timeout: 30_000, interval: 50 }).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      const first = await streams();
      expect(first.map((s) => s.state)).toEqual(['READY']); // still ingesting what was sent
      run.kill();
      expect((await run.done).signal).toBe('SIGKILL');

      const final = await runCli(args, undefined, key);
      expect(final.code, tail(final.out)).toBe(0);
      // Whatever the killed process had sent has reached the service once nothing is READY.
      await expect
        .poll(async () => (await streams()).filter((s) => s.state === 'READY').length, { timeout: 30_000 })
        .toBe(0);
      const all = await streams();
      expect(all.filter((s) => s.state === 'COMPLETED').map((s) => s.name)).toEqual(['clip.wav']);
      expect(slow.stats().cancel ?? 0).toBeGreaterThanOrEqual(1);
      const jobs = JobStore.snapshot<JobRecord>(stateDir);
      expect(jobs.map((j) => j.state)).toEqual(['completed']);
      // The default formats: JSON, SRT, VTT and TXT.
      expect((await readdir(media)).sort()).toEqual(['clip.json', 'clip.srt', 'clip.txt', 'clip.vtt', 'clip.wav']);
    } finally {
      await slow.close();
    }
  }, 120_000);
});
