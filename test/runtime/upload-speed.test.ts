// An upload's speed on a slow line is what the line carries, not the burst that filled the send
// buffers at its start: read from the last seconds of progress, falling with the clock when the
// counter stands still, never the average since the start.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROGRESS_REFRESH_MS } from '../../main/adapters/queue/uploader.js';
import { SPEED_WINDOW_MS } from '../../main/engine/estimate.js';
import { QueueModel } from '../../main/ipc/queue-model.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';

const KEY = 'test-key';
const LINE = 350_000;
let dir: string;
let sandbox: Sandbox;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-speed-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.01 });
});
afterEach(async () => {
  await closeRuntimes();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function until<T>(f: () => T | false | undefined, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Upload speed on a slow line', () => {
  it('shows the line’s rate once its first seconds are past, not the average since the start', async () => {
    // 350 KB/s read from the connection itself, as the walkthrough's slow line: a 7.9 MB file.
    sandbox.setFaults({ uploadThrottle: { bytesPerSecond: LINE, buffered: false } });
    const media = path.join(dir, 'media');
    await mkdir(media);
    const file = await makeToneWav(media, 'slow-line.wav', 45, 2);
    const rt = await openRuntime({
      stateDir: path.join(dir, '.state'),
      sandbox: { url: sandbox.url, apiKey: KEY },
      concurrency: 1,
    });
    const model = new QueueModel(rt);
    const [added] = await rt.queue.addPaths([file]);
    const id = added && 'jobId' in added ? added.jobId : '';
    const started = await until(() => rt.queue.progressOf(id)?.startedAt);

    // What the line really carried, from the upload's own counter four times a second: on a loaded
    // machine this process moves less than the line allows, and the row must show that, not 350 KB/s.
    const counter: Array<{ at: number; sent: number }> = [];
    const sampler = setInterval(() => counter.push({ at: Date.now(), sent: rt.queue.progressOf(id)?.sent ?? 0 }), 250);
    const carried = (): number => {
      const last = counter[counter.length - 1]!;
      const from = counter.findLast((c) => c.at <= last.at - SPEED_WINDOW_MS) ?? counter[0]!;
      return ((last.sent - from.sent) * 1000) / Math.max(1, last.at - from.at);
    };

    // Past the speed's window: what the row says against what the counter moved over that window.
    // One reading can fall where the machine moved nothing for a moment (the speed falls with the
    // clock then): the row is read until it is within the band, for at most 4 s. The average since
    // the start stays above the band all that while, so the old formula still fails.
    await until(() => Date.now() - started > 12_500 && rt.queue.progressOf(id), 20_000);
    const seen: string[] = [];
    let shown = 0;
    let moved = 0;
    for (const end = Date.now() + 4000; ;) {
      shown = model.view(rt.queue.job(id)!).bytesPerSecond;
      moved = carried();
      seen.push(`${Math.round(shown / 1000)}/${Math.round(moved / 1000)} KB/s`);
      if ((shown > moved * 0.6 && shown < moved * 1.4) || Date.now() > end) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    clearInterval(sampler);
    const job = rt.queue.job(id)!;
    const p = rt.queue.progressOf(id)!;
    const sinceStart = p.sent / ((Date.now() - p.startedAt) / 1000);
    const said = `shown/carried: ${seen.join(', ')}`;
    expect(job.state).toBe('uploading');
    // The line is what limits the upload (on a quiet machine it carries its 350 KB/s; the counter
    // counts what the socket took, a burst of its buffer ahead of the line at times)...
    expect(moved, said).toBeLessThan(LINE * 1.4);
    // ...and the row shows what it carried over its last seconds, never more than the line.
    expect(shown, said).toBeGreaterThan(moved * 0.6);
    expect(shown, said).toBeLessThan(Math.min(moved, LINE) * 1.4);
    // The average since the start, shown before, carries the first burst.
    expect(sinceStart, `average since start ${Math.round(sinceStart)} B/s; ${said}`).toBeGreaterThan(shown);

    // Paused (the upload stopped and re-queued): nothing moving, no speed.
    rt.queue.pause();
    await until(() => rt.queue.job(id)?.state === 'queued', 5000);
    expect(model.view(rt.queue.job(id)!).bytesPerSecond).toBe(0);
  }, 60_000);

  it('is within 15 % of a 300 KB/s line from 10 s on, the row never ahead of the line, time left counting down', async () => {
    // Issue 43's line (the bench's): 300 KB/s read from the connection itself, a 20 MB file.
    const rate = 300_000;
    sandbox.setFaults({ uploadThrottle: { bytesPerSecond: rate, buffered: false } });
    const media = path.join(dir, 'media');
    await mkdir(media);
    const file = await makeToneWav(media, 'line-43.wav', 230);
    const rt = await openRuntime({
      stateDir: path.join(dir, '.state'),
      sandbox: { url: sandbox.url, apiKey: KEY },
      concurrency: 1,
    });
    const model = new QueueModel(rt);
    const updates: number[] = [];
    rt.on((e) => {
      if (e.type === 'job:updated' && e.job.state === 'uploading') updates.push(Date.now());
    });
    const [added] = await rt.queue.addPaths([file]);
    const id = added && 'jobId' in added ? added.jobId : '';
    const started = await until(() => rt.queue.progressOf(id)?.startedAt);
    model.observe(rt.queue.job(id)!);

    // Read as the row and the header are, twice a second from 10 s to 17 s: the line by then has
    // carried some 5 MB of the 20 (the socket took 4 MB in its first moment, and more in bursts since).
    const readings: Array<{ at: number; speed: number; bytes: number; left: number | undefined }> = [];
    for (let at = 10_000; at <= 17_000; at += 500) {
      await until(() => Date.now() - started >= at, 20_000);
      const view = model.view(rt.queue.job(id)!);
      expect(view.state).toBe('uploading');
      readings.push({
        at: Date.now() - started,
        speed: view.bytesPerSecond,
        bytes: view.uploadedBytes,
        left: model.stats().batch.etaMs,
      });
    }
    const said = readings.map((r) => `${(r.at / 1000).toFixed(1)} s ${Math.round(r.speed / 1000)} KB/s`).join(', ');
    for (const r of readings) {
      expect(Math.abs(r.speed / rate - 1), `readings: ${said}`).toBeLessThanOrEqual(0.15);
      // What the line can have carried by then: the speed's band is all the row may be ahead.
      expect(r.bytes).toBeLessThanOrEqual(((rate * r.at) / 1000) * 1.15);
      expect(r.bytes).toBeGreaterThanOrEqual(((rate * r.at) / 1000) * 0.85);
    }
    // Time left: the bytes to go at that speed, then the processing; it counts down with the clock.
    const lefts = readings.map((r) => r.left!);
    expect(lefts.every((l) => l > 0)).toBe(true);
    // Half a second less at each reading, but where the measured speed moved by a few % (the bytes
    // to go at the new speed: a second or three on 15 MB).
    const steps = lefts.slice(1).map((l, i) => lefts[i]! - l);
    const withClock = steps.filter((d) => Math.abs(d - 500) <= 150);
    expect(withClock.length, `time left read: ${lefts.join(', ')} ms`).toBeGreaterThanOrEqual(steps.length * 0.7);
    // Where the speed held from one reading to the next, the time left fell by just the time between
    // them. (From the first reading to the last the speed can move within its band, 15 %
    // either way: on a loaded machine the time left at the end can be longer than at the start.)
    const held = steps
      .map((d, i) => ({ d, between: readings[i + 1]!.at - readings[i]!.at, i }))
      .filter(({ i }) => Math.abs(readings[i + 1]!.speed / readings[i]!.speed - 1) < 0.005);
    expect(
      held.filter(({ d, between }) => Math.abs(d - between) > 150),
      `time left read: ${lefts.join(', ')} ms; ${said}`,
    ).toEqual([]);
    // The row was sent again while the socket took nothing (its bursts come seconds apart).
    const gaps = updates.filter((t) => t - started >= 10_000).map((t, i, a) => (i ? t - a[i - 1]! : 0));
    expect(Math.max(...gaps)).toBeLessThan(PROGRESS_REFRESH_MS * 2);
  }, 60_000);
});
