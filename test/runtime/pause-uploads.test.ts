// Pause frees the line at once: uploads in flight on a slow line stop (the requests aborted, their
// READY streams canceled so nothing is processed or billed), the files wait queued and start again
// under new ids on resume. "Stop after current" still lets them finish.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { allStreams } from '../helpers/service.js';

const KEY = 'test-key';
let dir: string;
let sandbox: Sandbox;
let rt: Runtime | undefined;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-pause-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.01 });
});
afterEach(async () => {
  await rt?.close().catch(() => undefined);
  rt = undefined;
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(): Promise<Runtime> {
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    concurrency: 2,
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
  });
  await rt.start();
  return rt;
}

async function until(f: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Pause on a slow line', () => {
  it('stops the uploads in flight, cancels their streams, and uploads them again on resume', async () => {
    // 20 KB/s read from the connection itself: a 6 s tone (192 KB) takes about 10 s.
    sandbox.setFaults({ uploadThrottle: { bytesPerSecond: 20_000, buffered: false } });
    const media = path.join(dir, 'media');
    await mkdir(media);
    const files = [await makeToneWav(media, 'a.wav', 6), await makeToneWav(media, 'b.wav', 6)];
    const q = (await open()).queue;
    const added = await q.addPaths(files);
    const ids = added.map((o) => ('jobId' in o ? o.jobId : ''));
    await until(() => ids.every((id) => q.job(id)?.state === 'uploading'));
    const first = ids.map((id) => q.job(id)?.streamId ?? '');
    // In flight at the service too: a request not yet arrived (a loaded machine) has no stream to cancel.
    for (let seen = false; !seen; await new Promise((r) => setTimeout(r, 50))) {
      const listed = await allStreams(sandbox.url, KEY);
      seen = first.every((s) => listed.some((x) => x.streamId === s));
    }

    q.pause();
    expect(q.pauseState?.message).toBe(
      'Paused by you. 2 uploads in progress were stopped; they start again from the beginning when you resume.',
    );
    // Back in the queue within a second, not after the ~10 s the uploads had left.
    await until(() => ids.every((id) => q.job(id)?.state === 'queued'), 3000);
    for (const [i, id] of ids.entries()) {
      const job = q.job(id);
      expect(job?.previousStreamIds).toContain(first[i]);
      expect(job?.streamId).toBeUndefined();
    }
    const streams = await allStreams(sandbox.url, KEY);
    for (const s of first) {
      const st = streams.find((x) => x.streamId === s);
      expect(st?.state).toBe('FAILED');
      expect(st?.stateDescription).toMatch(/cancel|interrupt/i);
    }
    // Paused means paused: nothing starts while it holds. A file added now has the scheduler look
    // at the queue (on the next turn of the event loop); it starts nothing, the new file neither.
    const [late] = await q.addPaths([await makeToneWav(media, 'late.wav', 1)]);
    const lateId = late && 'jobId' in late ? late.jobId : '';
    await new Promise((r) => setImmediate(r));
    expect([...ids, lateId].map((id) => q.job(id)?.state)).toEqual(['queued', 'queued', 'queued']);

    sandbox.setFaults({});
    q.resume();
    const done = await q.whenSettled([...ids, lateId]);
    expect(done.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
    expect(done.slice(0, 2).every((j, i) => j.streamId !== first[i])).toBe(true);
  });

  it('Stop after current lets the uploads in flight finish', async () => {
    sandbox.setFaults({ uploadThrottle: { bytesPerSecond: 100_000, buffered: false } });
    const media = path.join(dir, 'media');
    await mkdir(media);
    const file = await makeToneWav(media, 'c.wav', 4);
    const q = (await open()).queue;
    const [o] = await q.addPaths([file]);
    const id = o && 'jobId' in o ? o.jobId : '';
    await until(() => q.job(id)?.state === 'uploading');
    const stream = q.job(id)?.streamId;
    q.stopAfterCurrent();
    const [done] = await q.whenSettled([id]);
    expect(done?.state).toBe('completed');
    expect(done?.streamId).toBe(stream);
  });
});
