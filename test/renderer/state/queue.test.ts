// The Queue screen's state class, alone: jobs arrive by the bridge's events from a real runtime on
// the embedded sandbox; removing a row can be undone within its window.
import './browser-globals.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBridge } from '../../../renderer/src/lib/api.js';
import { queue } from '../../../renderer/src/lib/state/queue.svelte.js';
import { app } from '../../../renderer/src/lib/state/app.svelte.js';
import { makeToneWav } from '../../helpers/media.js';
import { until } from '../../ipc/helpers.js';
import { openBridgeEnv, type BridgeEnv } from './in-process-bridge.js';

let env: BridgeEnv;
beforeAll(async () => {
  env = await openBridgeEnv();
  useBridge(env.api);
  await queue.load();
  queue.subscribe();
});
afterAll(async () => env.close());

describe('queue state', () => {
  it('starts from the snapshot and follows a file to completed by events alone', async () => {
    expect(queue.error).toBeNull();
    expect(queue.jobs).toEqual([]);
    const wav = await makeToneWav(env.dir, 'take one.wav', 1);
    const added = await env.api.queue.add({ paths: [wav] });
    expect(added.ok).toBe(true);
    const done = await until(() => queue.jobs.find((j) => j.fileName === 'take one.wav' && j.state === 'completed'));
    expect(queue.countFor('completed')).toBe(1);
    queue.stateFilter = 'failed';
    expect(queue.visible).toEqual([]);
    queue.stateFilter = 'all';
    expect(queue.visible.map((j) => j.id)).toEqual([done.id]);
  });

  it('hides a removed row at once, brings it back on Undo, and tells main nothing', async () => {
    const [job] = queue.visible;
    if (!job) throw new Error('no job');
    queue.dismiss(job.id);
    expect(queue.visible).toEqual([]);
    expect(app.toasts.at(-1)?.message).toBe('Removed take one.wav from the list.');
    expect(queue.undoDismiss()).toBe(true);
    expect(queue.visible.map((j) => j.id)).toEqual([job.id]);
    expect(queue.selected?.id).toBe(job.id);
    const snapshot = await env.api.queue.snapshot();
    expect(snapshot.ok && snapshot.value.jobs.map((j) => j.id)).toEqual([job.id]);
  });
});
