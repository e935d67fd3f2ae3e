// History's "Re-export results…" after a restart: the embedded sandbox forgets its streams, so the
// service answers 404 for the job's stream; the export kept in the state folder is written instead,
// and the answer says so. Without a kept export the refusal is in words, not the service's code.
import { mkdir, mkdtemp, readdir, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBridge, type Bridge } from '../../main/ipc/handlers.js';
import { memoryVault } from '../../main/adapters/store/secrets/secret-vault.js';
import type { PlatformPort } from '../../main/ipc/platform.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { makeToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until } from './helpers.js';

let dir: string;
let stateDir: string;
let rt: Runtime | undefined;
let bridge: Bridge | undefined;

const platform: PlatformPort = {
  kind: 'web',
  version: '0.0.0-test',
  secrets: memoryVault(),
  openPath: async () => undefined,
  revealPath: async () => undefined,
};

async function open(): Promise<Bridge> {
  rt = await Runtime.open({
    stateDir,
    connection: { sandbox: true },
    sandboxOptions: { speedFactor: 0.01 },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
    watchEvents: false,
  });
  await rt.start();
  bridge = createBridge(rt, platform, { flushIntervalMs: 20, statsIntervalMs: 50 });
  return bridge;
}

async function restart(): Promise<Bridge> {
  bridge?.close();
  await rt?.close();
  return open();
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-reexport-'));
  stateDir = path.join(dir, 'state');
});
afterEach(async () => {
  bridge?.close();
  await rt?.close();
  rt = undefined;
  bridge = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A completed job for a one-second tone; returns its id and the folder beside it. */
async function completedJob(b: Bridge): Promise<{ jobId: string; media: string }> {
  const media = path.join(dir, 'media');
  await mkdir(media, { recursive: true });
  const file = await makeToneWav(media, 'reel teaser.wav', 1);
  const added = value(await b.handlers['queue:add']({ paths: [file] }));
  const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
  await until(() => rt?.queue.job(jobId)?.state === 'completed');
  return { jobId, media };
}

describe('History re-export after a restart', () => {
  it('writes from the export kept in the state folder when the service no longer holds the stream', async () => {
    const { jobId, media } = await completedJob(await open());
    const fresh = await restart();
    for (const f of await readdir(media)) if (f !== 'reel teaser.wav') await unlink(path.join(media, f));

    const re = value(await fresh.handlers['history:reexport']({ jobId, formats: ['srt', 'vtt'] }));
    expect(re.fromKept).toBe('gone');
    expect(re.results.map((r) => r.fileName).sort()).toEqual([
      'reel teaser.json',
      'reel teaser.srt',
      'reel teaser.vtt',
    ]);
    expect((await readdir(media)).sort()).toEqual([
      'reel teaser.json',
      'reel teaser.srt',
      'reel teaser.vtt',
      'reel teaser.wav',
    ]);
  });

  it('while the service still holds the stream, fetches it anew and says nothing of a kept copy', async () => {
    const b = await open();
    const { jobId } = await completedJob(b);
    const re = value(await b.handlers['history:reexport']({ jobId }));
    expect(re.fromKept).toBeUndefined();
    expect(re.results.length).toBeGreaterThan(0);
  });

  it('without a kept export, says what happened and what to do instead of the service’s code', async () => {
    const { jobId } = await completedJob(await open());
    const fresh = await restart();
    await rm(path.join(stateDir, 'exports', `${jobId}.json`));
    const re = await fresh.handlers['history:reexport']({ jobId });
    expect(re.ok).toBe(false);
    const message = re.ok ? '' : re.error.message;
    expect(message).toContain('no longer holds this stream');
    expect(message).toContain('Re-run');
    expect(message).not.toContain('GENERAL_NOT_FOUND_ERROR');
  });
});
