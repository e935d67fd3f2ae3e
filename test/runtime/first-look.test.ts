// A clip added by hand is often processed before a look a second after its upload would come: the
// job keeps the length its probe read, and its stream's first look comes after a fifth of the first
// interval. Longer media, and media whose length is unknown, keep the first interval. The real
// runtime and the embedded sandbox over loopback HTTP, with the product's own polling policy.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { DEFAULT_POLL } from '../../main/engine/backoff.js';
import type { JobRecord } from '../../main/engine/job.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { makeMediaDir, makeRepeatableToneWav } from '../helpers/media.js';

let dir: string;
beforeEach(async () => {
  dir = await makeMediaDir('sluice-first-look-');
});
afterEach(async () => {
  await closeRuntimes();
  await rm(dir, { recursive: true, force: true });
});

describe('the first look at a stream', () => {
  it('comes after 200 ms for a clip and after 1 s for longer media', async () => {
    const rt = await openRuntime({ stateDir: path.join(dir, '.state'), ctx: { poll: DEFAULT_POLL } });
    const processing = new Map<string, JobRecord>();
    rt.on((e) => {
      if (e.type === 'job:updated' && e.job.state === 'processing' && !processing.has(e.job.id)) {
        processing.set(e.job.id, e.job);
      }
    });
    const clip = await makeRepeatableToneWav(dir, 'sting.wav', 0.5);
    const take = await makeRepeatableToneWav(dir, 'take.wav', 12);
    const ids = jobIds(await rt.queue.addPaths([clip, take]));
    const jobs = await rt.queue.whenSettled(ids);
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
    expect(jobs[0]!.mediaDurationMs).toBeCloseTo(500, -1);
    expect(jobs[1]!.mediaDurationMs).toBeCloseTo(12_000, -1);
    expect(processing.get(ids[0]!)?.pollIntervalMs).toBe(200);
    expect(processing.get(ids[1]!)?.pollIntervalMs).toBe(1000);
  });
});
