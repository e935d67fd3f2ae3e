// One row's actions on the Queue, alone over a real runtime on the embedded sandbox: removing and
// canceling wait out their Undo window before main hears of them, and a refused move is reported
// once however many follow it.
import './browser-globals.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobView } from '../../../preload/contract.js';
import { useBridge } from '../../../renderer/src/lib/api.js';
import { app } from '../../../renderer/src/lib/state/app.svelte.js';
import { QueueRowActions } from '../../../renderer/src/lib/state/queue-row-actions.svelte.js';
import { QueueSelection } from '../../../renderer/src/lib/state/queue-selection.svelte.js';
import { makeToneWav } from '../../helpers/media.js';
import { value } from '../../helpers/result.js';
import { until } from '../../ipc/helpers.js';
import { openBridgeEnv, type BridgeEnv } from './in-process-bridge.js';
import { Rows } from './rows.svelte.js';

const UNDO_MS = 150;
let env: BridgeEnv;
let rows: Rows;
let selection: QueueSelection;
let actions: QueueRowActions;
const changed: Array<{ id: string; state: string | null }> = [];
const removed: string[] = [];

beforeAll(async () => {
  env = await openBridgeEnv();
  useBridge(env.api);
  // Paused, so the jobs stay queued and movable for as long as the test needs.
  value(await env.api.queue.pause());
  const paths = await Promise.all(['one', 'two', 'three'].map((n) => makeToneWav(env.dir, `${n}.wav`, 1)));
  value(await env.api.queue.add({ paths }));
  rows = new Rows();
  rows.list = await mainJobs();
  selection = new QueueSelection(() => rows.list.filter((j) => !actions.removing.has(j.id)));
  actions = new QueueRowActions(
    {
      live: () => rows.list.filter((j) => !actions.removing.has(j.id)),
      selection,
      changed: (id, job) => void changed.push({ id, state: job?.state ?? null }),
      removed: (id) => void removed.push(id),
    },
    UNDO_MS,
  );
});
afterAll(async () => env.close());

async function mainJobs(): Promise<JobView[]> {
  return value(await env.api.queue.snapshot()).jobs.sort((a, b) => a.position - b.position);
}
const idOf = (name: string): string => rows.list.find((j) => j.fileName === name)!.id;

describe('queue row actions', () => {
  it('places a dragged job before another by moves main makes', async () => {
    await actions.moveBefore(idOf('three.wav'), idOf('one.wav'));
    expect((await mainJobs()).map((j) => j.fileName)).toEqual(['three.wav', 'one.wav', 'two.wav']);
    rows.list = await mainJobs();
    await actions.moveBefore(idOf('three.wav'), null);
    expect((await mainJobs()).map((j) => j.fileName)).toEqual(['one.wav', 'two.wav', 'three.wav']);
    rows.list = await mainJobs();
  });

  it('removes a row at once, keeps the place on its neighbour, and tells main only after the Undo window', async () => {
    const two = idOf('two.wav');
    // Only a finished job leaves the list.
    value(await env.api.queue.cancel({ id: two }));
    rows.list = await mainJobs();
    selection.select(two);
    actions.dismiss(two);
    expect(selection.visible.map((j) => j.fileName)).toEqual(['one.wav', 'three.wav']);
    expect(selection.selectedId).toBe(idOf('three.wav'));
    expect((await mainJobs()).some((j) => j.id === two)).toBe(true);
    await until(() => removed.includes(two));
    expect(actions.removing.has(two)).toBe(false);
    expect((await mainJobs()).some((j) => j.id === two)).toBe(false);
    rows.list = await mainJobs();
  });

  it('brings a removed row back on Undo, and main never hears of the removal', async () => {
    const one = idOf('one.wav');
    // The Undo window runs on a clock the test moves (only the timers made here are on it).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      actions.dismiss(one);
      expect(actions.removing.has(one)).toBe(true);
      expect(actions.undoDismiss()).toBe(true);
      expect(actions.removing.has(one)).toBe(false);
      expect(selection.selectedId).toBe(one);
      // Twice the window later: a removal Undo had not stopped would have been sent by now.
      vi.advanceTimersByTime(UNDO_MS * 2);
    } finally {
      vi.useRealTimers();
    }
    // A round trip to main behind anything the window would have sent, and its answer handled.
    const jobs = await mainJobs();
    expect(removed).not.toContain(one);
    expect(jobs.some((j) => j.id === one)).toBe(true);
  });

  it('cancels a queued job at once, a running one only after its Undo window unless Undo comes first', async () => {
    const three = idOf('three.wav');
    await actions.cancel(three);
    expect(changed.at(-1)).toEqual({ id: three, state: 'canceled' });
    const one = idOf('one.wav');
    // As the list shows it: started, so a cancel would throw work away.
    rows.list = rows.list.map((j) => (j.id === one ? { ...j, state: 'processing' } : j));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await actions.cancel(one);
      expect(app.toasts.at(-1)?.message).toBe('Canceling one.wav.');
      expect(actions.undoCancel(one)).toBe(true);
      expect(actions.undoCancel(one)).toBe(false);
      // Twice the window later: a cancel Undo had not stopped would have been sent by now.
      vi.advanceTimersByTime(UNDO_MS * 2);
    } finally {
      vi.useRealTimers();
    }
    expect((await mainJobs()).find((j) => j.id === one)?.state).toBe('queued');
    await actions.cancel(one);
    await until(() => changed.some((c) => c.id === one && c.state === 'canceled'));
  });

  it('reports a refused move once, drops the moves queued behind it, and tries again after main’s news', async () => {
    const three = idOf('three.wav');
    const before = app.toasts.filter((t) => t.message.startsWith('Could not move the job')).length;
    const results = await Promise.all([
      actions.move(three, 'up'),
      actions.move(three, 'up'),
      actions.move(three, 'top'),
    ]);
    expect(results).toEqual([false, false, false]);
    const notices = app.toasts.filter((t) => t.message.startsWith('Could not move the job'));
    expect(notices.length - before).toBe(1);
    expect(notices.at(-1)?.count ?? 1).toBe(1);
    expect(await actions.move(three, 'up')).toBe(false);
    actions.jobChanged(three);
    expect(await actions.move(three, 'up')).toBe(false);
    expect(app.toasts.filter((t) => t.message.startsWith('Could not move the job')).at(-1)?.count).toBe(2);
  });
});
