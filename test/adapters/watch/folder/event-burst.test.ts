// A burst of events that overflows the kernel's queue loses events without a word (Node's fs.watch
// never reports the overflow); the folder is read again once the burst is over, so the files whose
// events were lost are reported within seconds instead of at the periodic rescan.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BURST_EVENTS,
  BURST_MAX_WAIT_MS,
  BURST_QUIET_MS,
  EventBurst,
} from '../../../../main/adapters/watch/folder/event-burst.js';
import { folder, recorder, tempDir, waitFor, type Recorder } from '../watcher-helpers.js';

describe('EventBurst', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says nothing for fewer events than a burst, and once when a burst goes quiet', () => {
    let over = 0;
    const b = new EventBurst(
      () => over++,
      () => Date.now(),
    );
    for (let i = 1; i < BURST_EVENTS; i++) b.event();
    vi.advanceTimersByTime(BURST_MAX_WAIT_MS * 2);
    expect(over).toBe(0);
    b.event();
    vi.advanceTimersByTime(BURST_QUIET_MS - 1);
    expect(over).toBe(0);
    vi.advanceTimersByTime(1);
    expect(over).toBe(1);
    // Counting starts again: the next few events are not a burst.
    for (let i = 0; i < 10; i++) b.event();
    vi.advanceTimersByTime(BURST_MAX_WAIT_MS);
    expect(over).toBe(1);
  });

  it('a burst that does not stop is looked at after at most BURST_MAX_WAIT_MS, and stop() cancels', () => {
    let over = 0;
    const b = new EventBurst(
      () => over++,
      () => Date.now(),
    );
    for (let i = 0; i < BURST_EVENTS; i++) b.event();
    // An event every half of the quiet time: never quiet.
    for (let t = 0; t < BURST_MAX_WAIT_MS + BURST_QUIET_MS; t += BURST_QUIET_MS / 2) {
      vi.advanceTimersByTime(BURST_QUIET_MS / 2);
      b.event();
    }
    expect(over).toBe(1);
    for (let i = 0; i < BURST_EVENTS; i++) b.event();
    b.stop();
    vi.advanceTimersByTime(BURST_MAX_WAIT_MS * 2);
    expect(over).toBe(1);
  });
});

describe('a burst of 10,000 files landing at once', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let r: Recorder | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir('sluice-burst-'));
  });
  afterEach(async () => {
    await r?.manager.close();
    r = undefined;
    await cleanup();
  });

  it('has every file reported without the periodic rescan, though the events outnumber the kernel queue', async () => {
    r = recorder({ settleMs: 200, rescanIntervalMs: 3_600_000 });
    await r.manager.set([folder(dir)]);
    await waitFor(() => r!.statuses.some((s) => s.state === 'watching'), 10_000, 'watching');
    // Written on this thread without a pause: no event is read until all are written, so with
    // Linux's default queue of 16,384 events (two or more per file) most of them overflow.
    for (let i = 0; i < 10_000; i++) writeFileSync(path.join(dir, `take ${i}.wav`), `RIFF ${i}`);
    await waitFor(() => r!.files.length >= 10_000, 60_000, 'all 10,000 files');
    expect(new Set(r.files.map((f) => f.path)).size).toBe(10_000);
  }, 90_000);
});
