// The Queue's numbers on a real runtime: outcomes counted apart, the service's pace learned from
// the files finished in this run and remembered in the state folder for the next one.
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PACE_PRIOR } from '../../main/engine/estimate.js';
import { EventHub } from '../../main/ipc/event-stream.js';
import { QueueModel } from '../../main/ipc/queue-model.js';
import { makeToneWav } from '../helpers/media.js';
import { openEnv, until, type Env } from './helpers.js';

let env: Env;
let hub: EventHub | undefined;
beforeEach(async () => {
  env = await openEnv('web');
});
afterEach(async () => {
  hub?.close();
  await env.close();
});

describe('queue model', () => {
  it('counts completed and failed apart, learns the pace and remembers it across runs', async () => {
    const model = new QueueModel(env.rt);
    hub = new EventHub(env.rt, model, { flushIntervalMs: 10 });
    expect(model.stats().batch).toMatchObject({ pace: PACE_PRIOR, paceLearned: false });

    const good = await makeToneWav(env.dir, 'interview.wav', 4);
    // Camera media the service cannot transcode (its stream fails by the sandbox's fault plan, not retried).
    const bad = await makeToneWav(env.dir, 'A001_C003_0412.wav', 2);
    const sandbox = env.rt.connection.sandbox;
    const plan = await fetch(`${sandbox?.url ?? ''}/sandbox/admin/faults`, {
      method: 'PUT',
      headers: { authorization: 'Basic sandbox-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        processingFailure: {
          everyKth: 1,
          names: ['A001_C003_0412.wav'],
          internalErrorName: 'PROCESSOR_TRANSCODING_ERROR',
        },
      }),
    });
    expect(plan.status).toBe(200);
    const added = await env.rt.queue.addPaths([good, bad]);
    await env.rt.queue.whenSettled(added.flatMap((o) => ('jobId' in o ? [o.jobId] : [])));
    const batch = await until(() => {
      const b = model.stats().batch;
      return b.done === 2 && b;
    });
    expect(batch).toMatchObject({ total: 2, done: 2, completed: 1, failed: 1, canceled: 0, estimate: 'done' });
    expect(batch.finishedAt).toBeGreaterThanOrEqual(batch.startedAt);
    // The sandbox processes at 1% of the media's length here; the prior would say 50%.
    expect(batch.paceLearned).toBe(true);
    expect(batch.pace).toBeLessThan(PACE_PRIOR);

    const file = path.join(env.stateDir, 'pace.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const next = new QueueModel(env.rt).stats().batch;
    expect(next).toMatchObject({ paceLearned: true, pace: batch.pace });
  });
});
