// Events buffer until the renderer is ready, progress is coalesced per job, and a bulk change
// becomes one snapshot instead of thousands of job events.
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventHub, type BridgeEvent } from '../../main/ipc/event-stream.js';
import { QueueModel } from '../../main/ipc/queue-model.js';
import { makeToneWav } from '../helpers/media.js';
import { openEnv, until, type Env } from './helpers.js';

let env: Env;
let hub: EventHub;
beforeEach(async () => {
  env = await openEnv('electron');
});
afterEach(async () => {
  hub.close();
  await env.close();
});

async function files(n: number): Promise<string[]> {
  const tone = await makeToneWav(env.dir, 'tone.wav', 1);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = path.join(env.dir, `take-${i}.wav`);
    await copyFile(tone, p);
    out.push(p);
  }
  return out;
}

describe('event hub', () => {
  it('holds events until ready, then delivers them in order', async () => {
    hub = new EventHub(env.rt, new QueueModel(env.rt), { flushIntervalMs: 10 });
    const got: BridgeEvent[] = [];
    const sub = hub.subscribe((e) => got.push(e));
    // A subscriber that is ready from the start: once it has both, they went out to every subscriber.
    const sent: BridgeEvent[] = [];
    hub.subscribe((e) => sent.push(e), { ready: true });
    env.rt.queue.pause();
    env.rt.queue.resume();
    await until(() => sent.some((e) => e.name === 'queue:resumed'));
    expect(got).toEqual([]);
    sub.ready();
    expect(got.map((e) => e.name).filter((n) => n !== 'queue:stats-changed')).toEqual([
      'queue:paused',
      'queue:resumed',
    ]);
  });

  it('sends one snapshot for a bulk change and individual events for small ones', async () => {
    // Each add reads the file (its content fingerprint, whether it is media): a flush interval long
    // enough that twenty adds pile up behind the first.
    hub = new EventHub(env.rt, new QueueModel(env.rt), { flushIntervalMs: 1000, bulkThreshold: 5 });
    const got: BridgeEvent[] = [];
    hub.subscribe((e) => got.push(e), { ready: true });
    env.rt.queue.pause();
    const paths = await files(20);
    await env.rt.queue.addPaths(paths);
    // The first change goes out at once; what piles up behind it arrives as a snapshot (on a busy
    // machine the adds may outlast one flush: then more than one), never as twenty job events.
    const seen = (): number => {
      const snaps = got.filter((e) => e.name === 'queue:snapshot-changed');
      const last = snaps[snaps.length - 1];
      const inSnapshot = last?.name === 'queue:snapshot-changed' ? last.payload.jobs.length : 0;
      return inSnapshot + got.filter((e) => e.name === 'job:added').length;
    };
    await until(() => got.some((e) => e.name === 'queue:snapshot-changed') && seen() >= 20);
    expect(got.filter((e) => e.name === 'job:added').length).toBeLessThan(20);
    got.length = 0;
    // New content: the same bytes again at the same path would be the same file, already queued.
    const one = await makeToneWav(env.dir, 'single.wav', 2);
    await env.rt.queue.addPaths([one]);
    await until(() => got.some((e) => e.name === 'job:added'));
  });

  it('sends at most one event per job per flush interval', async () => {
    hub = new EventHub(env.rt, new QueueModel(env.rt), { flushIntervalMs: 100 });
    const sent: Array<{ name: string; at: number }> = [];
    let lastState = '';
    hub.subscribe(
      (e) => {
        sent.push({ name: e.name, at: Date.now() });
        if (e.name === 'job:updated') lastState = e.payload.state;
      },
      { ready: true },
    );
    const [file] = await files(1);
    const [outcome] = await env.rt.queue.addPaths([file ?? '']);
    const id = outcome?.outcome === 'added' ? outcome.jobId : '';
    // Many engine updates in a burst: retry/cancel toggles plus dismiss bookkeeping.
    for (let i = 0; i < 50; i++) env.rt.queue.move(id, i % 2 ? 'up' : 'down');
    await until(() => env.rt.queue.job(id)?.state === 'completed');
    // The last flush (the completed job) has gone out.
    await until(() => lastState === 'completed');
    // An event from outside the queue (a transcript written, the queue paused) first sends what
    // changed, so the rows never come after it: that flush may follow the last at once. Every
    // other update waited out the interval after the one before.
    const published = (i: number) => !/^(job:|queue:stats-changed)/.test(sent[i]?.name ?? 'job:');
    const updates = sent
      .map((e, i) => ({
        ...e,
        forced: published(i + 1) || (sent[i + 1]?.name === 'queue:stats-changed' && published(i + 2)),
      }))
      .filter((e) => e.name === 'job:updated');
    const gaps = updates.slice(1).flatMap((u, i) => (u.forced ? [] : [u.at - updates[i]!.at]));
    expect(updates.length).toBeLessThan(50);
    expect(
      gaps.filter((g) => g < 90),
      `events: ${sent.map((e) => e.name).join(', ')}`,
    ).toEqual([]);
  });
});
