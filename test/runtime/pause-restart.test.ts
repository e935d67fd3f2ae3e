// A pause the editor chose holds across a restart until they resume (S2-3): a file copied into the
// watch folder after the restart is seen and kept queued, never uploaded; resume uploads it. Other
// pauses ending (the state disk writable again) do not end it either.
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { PAUSED_BY_YOU } from '../../main/runtime/queue-commands.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { closeRuntime, closeRuntimes, openRuntime } from '../helpers/runtime.js';

const KEY = 'k';
let dir: string;
let folder: string;
let sandbox: Sandbox;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-pause-restart-');
  folder = path.join(dir, 'inbox');
  await mkdir(folder);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
});

afterEach(async () => {
  await closeRuntimes();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(heldPause?: 'ignore'): Promise<Runtime> {
  const rt = await openRuntime({
    stateDir: path.join(dir, 'state'),
    sandbox: { url: sandbox.url, apiKey: KEY },
    start: false,
    ...(heldPause ? { heldPause } : {}),
  });
  const watched = WATCH_FOLDER.parse({ id: 'w1', path: folder });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 100 }, watchFolders: [watched] }));
  await rt.start({ watch: true });
  return rt;
}

const jobOf = (rt: Runtime, name: string) => rt.queue.jobs().find((j) => path.basename(j.source.path) === name);

describe('a pause the editor chose', () => {
  it('holds after a restart: a new file waits queued, and resume uploads it', async () => {
    const first = await open();
    expect(first.queue.pauseState).toBeUndefined();
    first.queue.pause();
    await closeRuntime(first);

    const rt = await open();
    // The Queue says so at start, before anything is added.
    expect(rt.queue.pauseState).toEqual({ reason: 'user', message: PAUSED_BY_YOU });
    await copyFile(await makeToneWav(dir, 'tone.wav', 1), path.join(folder, 'after-restart.wav'));
    // Seen (a job recorded for it) and held: queued, with no stream id and nothing at the service.
    await expect.poll(() => jobOf(rt, 'after-restart.wav')?.state, { timeout: 15_000 }).toBe('queued');
    // A pump turn after the job was added: the runner looked at it while paused.
    await new Promise((r) => setImmediate(r));
    expect(jobOf(rt, 'after-restart.wav')?.streamId).toBeUndefined();
    expect(sandbox.stats().upload ?? 0).toBe(0);

    rt.queue.resume();
    expect(rt.queue.pauseState).toBeUndefined();
    await expect.poll(() => jobOf(rt, 'after-restart.wav')?.state, { timeout: 15_000 }).toBe('completed');
    expect(sandbox.stats().upload).toBe(1);

    // Resumed is resumed across the next restart too.
    await closeRuntime(rt);
    const again = await open();
    expect(again.queue.pauseState).toBeUndefined();
  });

  it('comes back when another pause ends, and "stop after current" is kept as well', async () => {
    const rt = await open();
    rt.queue.stopAfterCurrent();
    // The state disk was full and is writable again: its pause ends, the editor's does not.
    (rt as unknown as { runner: { setPause(p: unknown): void } }).runner.setPause({
      reason: 'storage',
      message: 'The disk is full.',
    });
    (rt as unknown as { runner: { setPause(p: unknown): void } }).runner.setPause(undefined);
    expect(rt.queue.pauseState).toEqual({ reason: 'user', message: PAUSED_BY_YOU });
    await closeRuntime(rt);
    const after = await open();
    expect(after.queue.pauseState?.reason).toBe('user');
  });

  it('does not hold for `sluice process` (files named by hand), and stays kept for the next run', async () => {
    const rt = await open();
    rt.queue.pause();
    await closeRuntime(rt);
    const byHand = await open('ignore');
    expect(byHand.queue.pauseState).toBeUndefined();
    await closeRuntime(byHand);
    const app = await open();
    expect(app.queue.pauseState?.reason).toBe('user');
  });
});
