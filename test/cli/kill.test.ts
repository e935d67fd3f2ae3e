// `sluice process` killed with SIGKILL at random moments, many times, then run to the end: every
// file ends with exactly one result and one completed stream, and every stream Sluice started is
// accounted for in its history.
import { execFileSync, spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../main/adapters/store/job-store.js';
import type { JobRecord } from '../../main/engine/job.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KEY = 'kill-test-key';
const FILES = 12;
const KILLS = Number(process.env.SLUICE_KILL_ITERATIONS ?? 10);

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  // The CLI runs from the compiled output; make sure it is current.
  execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.main.json'], { cwd: ROOT });
  dir = await makeMediaDir('sluice-kill-');
  sandbox = await startSandbox({ apiKey: KEY, fixedProcessingMs: 400 });
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

function runCli(
  args: string[],
  killAfterMs?: number,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/sluice.js'), ...args], {
      env: { ...process.env, SLUICE_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
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
      const r = await runCli(args, 150 + Math.floor(Math.random() * 1200));
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
});
