// The engine under trouble: service faults, a dead network, bad credentials, the spending cap.
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../main/engine/events.js';
import { startSandbox, type FaultConfig, type Sandbox } from '../../main/sandbox/index.js';
import { jobIds } from '../../main/adapters/queue/intake.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

const KEY = 'test-key';
let dir: string;
let sandbox: Sandbox;
const open = (extra: { apiKey?: string } = {}): Promise<Runtime> =>
  openRuntime({
    stateDir: path.join(dir, '.state'),
    sandbox: { url: sandbox.url, apiKey: extra.apiKey ?? KEY },
    concurrency: 3,
    // Fast clocks: polling and backoff in tens of milliseconds instead of seconds.
    ctx: {
      poll: { initialMs: 30, maxMs: 150, factor: 1.5, flatMs: 0 },
      backoff: { baseMs: 20, capMs: 300, maxRetryAfterMs: 1500 },
    },
    start: false,
  });

async function makeFiles(n: number): Promise<string> {
  const media = path.join(dir, 'media');
  await mkdir(media, { recursive: true });
  const tone = await makeToneWav(dir, 'tone.wav', 1);
  for (let i = 0; i < n; i++) await copyFile(tone, path.join(media, `f${String(i).padStart(2, '0')}.wav`));
  return media;
}

beforeEach(async () => {
  dir = await makeMediaDir('sluice-resilience-');
});

afterEach(async () => {
  await closeRuntimes();
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('faults', () => {
  it('with 429s, 5xx bursts, resets, failing streams and a concurrency ceiling, every file ends completed or failed with a reason — none lost, none duplicated', async () => {
    const faults: FaultConfig = {
      rateLimit: { everyKth: 7, retryAfterS: 0 },
      serverErrors: { everyKth: 5, status: 503, retryAfterS: 0 },
      uploadReset: { everyKth: 4, afterBytes: 10_000 },
      processingFailure: { everyKth: 6, processor: 'transcriber', internalErrorName: 'PROCESSOR_TRANSCRIPTION_ERROR' },
      maxConcurrentStreams: 3,
    };
    sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02, faults });
    const media = await makeFiles(24);
    const rt = await open();
    await rt.start();
    const ids = jobIds(await rt.queue.addPaths([media]));
    expect(ids).toHaveLength(24);
    const jobs = await rt.queue.whenSettled(ids);
    const completed = jobs.filter((j) => j.state === 'completed');
    const failed = jobs.filter((j) => j.state === 'failed');
    expect(completed.length + failed.length).toBe(24);
    expect(completed.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    for (const j of failed) {
      expect(j.error?.internalErrorName).toBe('PROCESSOR_TRANSCRIPTION_ERROR');
      expect(j.error?.processorId).toBe('transcriber');
    }
    // Exactly one result per completed file, none for failed ones.
    const jsons = (await readdir(media)).filter((f) => f.endsWith('.json'));
    expect(jsons.sort()).toEqual(completed.map((j) => `${path.basename(j.source.path, '.wav')}.json`).sort());
    // Exactly one COMPLETED stream per completed file on the service.
    const done = (await allStreams(sandbox.url, KEY)).filter((s) => s.state === 'COMPLETED');
    expect(done.map((s) => s.name).sort()).toEqual(completed.map((j) => path.basename(j.source.path)).sort());
  }, 120_000);
});

describe('rate limits', () => {
  it('a 429 storm backs off only the refused requests: the queue is never paused for the usage limit', async () => {
    sandbox = await startSandbox({
      apiKey: KEY,
      speedFactor: 0.02,
      faults: { rateLimit: { everyKth: 2, operations: ['upload'], retryAfterS: 1 } },
    });
    const media = await makeFiles(9);
    const rt = await open();
    const events: EngineEvent[] = [];
    rt.on((e) => events.push(e));
    await rt.start();
    const started = Date.now();
    const jobs = await rt.queue.whenSettled(jobIds(await rt.queue.addPaths([media])));
    const elapsed = Date.now() - started;
    console.info(`9 files, every 2nd upload refused with 429: ${elapsed} ms`, sandbox.stats());
    expect(jobs.map((j) => j.state)).toEqual(Array(9).fill('completed'));
    // The storm did hit uploads, and none of it reached the queue as a pause.
    expect(sandbox.stats().upload ?? 0).toBeGreaterThan(9);
    expect(events.filter((e) => e.type === 'queue:paused')).toEqual([]);
  }, 60_000);
});

describe('a dead network', () => {
  it('pauses the queue by itself and resumes when the service answers again; nothing fails', async () => {
    sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
    const port = sandbox.port;
    const media = await makeFiles(6);
    const rt = await open();
    const events: EngineEvent[] = [];
    rt.on((e) => events.push(e));
    await sandbox.close();
    await rt.start();
    const ids = jobIds(await rt.queue.addPaths([media]));
    await expect.poll(() => events.some((e) => e.type === 'queue:paused' && e.reason === 'offline')).toBe(true);
    expect(rt.queue.jobs().every((j) => j.state !== 'failed')).toBe(true);
    sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02, port });
    const jobs = await rt.queue.whenSettled(ids);
    expect(jobs.map((j) => j.state)).toEqual(Array(6).fill('completed'));
    expect(events.some((e) => e.type === 'queue:resumed')).toBe(true);
  }, 60_000);
});

describe('credentials', () => {
  it('a wrong key pauses the whole queue with the service message instead of failing every file', async () => {
    sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
    const media = await makeFiles(4);
    const rt = await open({ apiKey: 'wrong-key' });
    await rt.start();
    const ids = jobIds(await rt.queue.addPaths([media]));
    await expect(rt.queue.whenSettled(ids)).rejects.toThrow(/401|auth|credential/i);
    expect(rt.queue.pauseState?.reason).toBe('credentials');
    expect(rt.queue.jobs().filter((j) => j.state === 'failed')).toHaveLength(0);
    expect(sandbox.stats().upload ?? 0).toBeLessThanOrEqual(3);
  });
});

describe('spending guard', () => {
  it('pauses the queue when this month’s credits reach the cap', async () => {
    sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
    const media = await makeFiles(2);
    const rt = await open();
    await rt.start();
    await rt.queue.whenSettled(jobIds(await rt.queue.addPaths([media])));
    await rt.updateSettings((s) => ({ ...s, spendingGuard: { enabled: true, monthlyCreditCap: 0.0001 } }));
    await expect.poll(() => rt.queue.pauseState?.reason).toBe('spending-cap');
    expect(rt.queue.pauseState?.message).toMatch(/cap/);
    await rt.updateSettings((s) => ({ ...s, spendingGuard: { enabled: false, monthlyCreditCap: null } }));
    await expect.poll(() => rt.queue.pauseState).toBeUndefined();
  });
});
