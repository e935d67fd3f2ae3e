// The stream tracker's listings follow what they find: a queue of 200 streams, 50 in flight, each
// processing 10–25 s, with uploads always waiting for a slot. The port is the tracker's own
// interface (the READY listing and the read by id), answered from a simulated service on a fake
// clock; requests over HTTP are the soak bench's work (scripts/bench/soak.js).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectedTook,
  LIST_THRESHOLD,
  nextListGap,
  StreamTracker,
  type TrackerPort,
} from '../../../main/adapters/queue/stream-tracker.js';
import type { StreamDto, StreamState } from '../../../main/service/types.js';

const dto = (streamId: string, state: StreamState, times: { created?: number; finalized?: number } = {}): StreamDto =>
  ({
    streamId,
    state,
    stateDescription: null,
    createdTimestamp: new Date(times.created ?? 0).toISOString(),
    finalizedTimestamp: times.finalized === undefined ? null : new Date(times.finalized).toISOString(),
  }) as StreamDto;

describe('nextListGap', () => {
  const bounds = { min: 100, max: 30_000 };
  it('widens when a listing finds nothing and narrows when it finds more than it aims at', () => {
    expect(nextListGap(1000, 0, 50, bounds)).toBe(1500);
    expect(nextListGap(1000, 2, 50, bounds)).toBe(1000); // 50 tracked: aims at 2
    expect(nextListGap(1000, 8, 50, bounds)).toBe(500);
    expect(nextListGap(1000, 1, 5, bounds)).toBe(500); // few tracked: aims at half a stream
    expect(nextListGap(25_000, 0, 50, bounds)).toBe(30_000);
    expect(nextListGap(120, 10, 50, bounds)).toBe(100);
  });
});

describe('expectedTook', () => {
  it('expects the shortest time once enough streams agree within 1.5x, and nothing otherwise', () => {
    const alike = Array.from({ length: 32 }, (_, i) => 4000 + i * 50); // 4.0-5.55 s
    expect(expectedTook(alike)).toBe(4000);
    expect(expectedTook([...alike.slice(0, 31), 6001])).toBeUndefined(); // one past 1.5x
    expect(expectedTook(alike.slice(0, 7))).toBeUndefined(); // too few yet
    expect(expectedTook(alike.slice(0, 8))).toBe(4000);
  });
});

describe('StreamTracker with a hungry queue', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 0 }));
  afterEach(() => void vi.useRealTimers());

  /** `total` streams through `slots`, each processing `length(i)` ms; what the tracker asked and when it noticed. */
  async function run(
    total: number,
    slots: number,
    length: (i: number) => number,
    refillMs = 0,
    firstAt: (i: number) => number = () => 0,
    /** How long after a stream starts processing it is tracked (its upload's answer read late). */
    trackLate: (i: number) => number = () => 0,
    /** The service's clock against this one; null: the service gives no creation times. */
    serviceClock: ((now: number) => number) | null = (now) => now,
  ) {
    const endsAt = new Map<string, number>();
    const processing = new Map<string, number>();
    const noticed: number[] = [];
    const noticedAt = new Map<number, number>();
    const createdAt = new Map<string, number>();
    const counts = { list: 0, byId: 0 };
    let started = 0;
    const port: TrackerPort = {
      listReady: () => {
        counts.list++;
        const now = Date.now();
        return Promise.resolve(
          [...endsAt].filter(([, end]) => end > now).map(([id]) => dto(id, 'READY', { created: createdAt.get(id) })),
        );
      },
      findStream: (id) => {
        counts.byId++;
        const end = endsAt.get(id) ?? 0;
        const created = createdAt.get(id);
        return Promise.resolve(
          end <= Date.now()
            ? dto(id, 'COMPLETED', { created, finalized: serviceClock?.(end) })
            : dto(id, 'READY', { created }),
        );
      },
    };
    const tracker: StreamTracker = new StreamTracker({
      port,
      streamIdOf: (id) => (endsAt.has(id) ? id : undefined),
      now: () => Date.now(),
      onPolled: (id, s) => {
        if (s.state === 'READY') return tracker.track(id, Date.now() + 1000);
        noticed.push((Date.now() - endsAt.get(id)!) / processing.get(id)!);
        noticedAt.set(Number(id.slice(1)), noticed[noticed.length - 1]!);
        endsAt.delete(id);
        if (refillMs === 0) return start();
        // As the runner does: a freed slot makes the queue not hungry until its upload has started.
        tracker.setHungry(false);
        setTimeout(start, refillMs);
      },
      onFailed: () => expect.unreachable('no read fails here'),
    });
    const start = (): void => {
      if (started >= total) return tracker.setHungry(false);
      const id = `s${started}`;
      const ms = length(started);
      started++;
      endsAt.set(id, Date.now() + ms);
      if (serviceClock) createdAt.set(id, serviceClock(Date.now()));
      processing.set(id, ms);
      const answered = (): void => {
        if (serviceClock) tracker.noteCreated(id, new Date(createdAt.get(id)!).toISOString());
        tracker.track(id, Date.now() + 1000);
      };
      const late = trackLate(started - 1);
      if (late === 0) answered();
      else setTimeout(answered, late);
      tracker.setHungry(started < total);
    };
    for (let i = 0; i < slots; i++) {
      const at = firstAt(i);
      if (at === 0) start();
      else setTimeout(start, at);
    }
    while (noticed.length < total) await vi.advanceTimersByTimeAsync(50);
    tracker.stop();
    const of = (from: number, to: number) => [...noticedAt].filter(([i]) => i >= from && i < to).map(([, v]) => v);
    const later = of(slots, total);
    return {
      ...counts,
      mean: noticed.reduce((a, b) => a + b, 0) / noticed.length,
      worst: Math.max(...noticed),
      laterMean: later.reduce((a, b) => a + b, 0) / later.length,
      /** The worst of the streams finishing after fewer than `LIST_THRESHOLD` were left. */
      lastWorst: Math.max(...of(total - LIST_THRESHOLD + 1, total)),
    };
  }

  /** A card of 1,000 like clips of 4 s through 100 slots, the uploads of each wave spread over 700 ms. */
  const likeCard = (trackLate?: (i: number) => number, serviceClock?: ((now: number) => number) | null) =>
    run(
      1000,
      100,
      () => 4000,
      0,
      (i) => (i % 100) * 7,
      trackLate,
      serviceClock,
    );

  it('lists about once per two finished streams and notices each within a few % of its processing', async () => {
    const total = 200;
    const r = await run(total, 50, (i) => 10_000 + ((i * 7919) % 15_000));
    // About one read by id per finished stream (the last three streams, too few to list, are read
    // by id when due); the listings add about one per two.
    expect(r.byId).toBeLessThan(total * 1.1);
    expect(r.list / total).toBeLessThan(0.75);
    expect(r.mean).toBeLessThan(0.05);
  });

  it('streams of one length finishing together: the first are noticed within about a tenth of their processing', async () => {
    const total = 300;
    const r = await run(total, 100, () => 4000);
    expect(r.worst).toBeLessThan(0.15);
    expect(r.list / total).toBeLessThan(0.75);
  });

  it('streams that take alike: from the second wave on, each is noticed within about 1 % of its processing', async () => {
    // The first wave teaches how long a stream takes; later ones are read for when they are due.
    const total = 1000;
    const r = await likeCard();
    // Before: 2.6 % (105 ms) on average, from the gap grown while each wave was young; then 0.7 %
    // (28 ms) with a listing at the first stream's expected time and the gap after it. Each is now
    // read by id when it is expected: 0.05 %, and a quarter fewer listings (294 before).
    expect(r.laterMean).toBeLessThan(0.002);
    expect(r.list / total).toBeLessThan(0.25);
    expect(r.byId).toBeLessThan(total * 1.05);
  });

  it('streams that take alike, their upload answers read late by varying amounts: each read once, on time, by the service clock', async () => {
    // Answers read 0-40 ms late, as in a busy wave, by a service whose clock is 5 minutes ahead.
    // Expected from when each was tracked, a stream was read up to 40 ms early (still READY, and
    // again later) or late: 0.72 % of its processing on average, 1.97 requests per stream. Expected
    // from when the service created it: one read each, 0.03 %.
    const total = 1000;
    const late = (i: number): number => (i * 7919) % 41;
    const skewed = (now: number): number => now + 300_000;
    const r = await likeCard(late, skewed);
    expect(r.laterMean).toBeLessThan(0.002);
    expect(r.byId).toBeLessThan(total * 1.05);
    expect(r.list / total).toBeLessThan(0.25);
    // Without the service's times, the same card is still noticed within about 1 % of its processing.
    const local = await likeCard(late, null);
    expect(local.laterMean).toBeLessThan(0.01);
    expect((local.list + local.byId) / total).toBeLessThan(2.2);
  });

  it('the last streams of a card, too few to list, are read again soon after they were expected', async () => {
    // The upload answers of a busy wave are read up to 40 ms late, so the streams seem to take a
    // little less than they do; the last ones, read at once, are still READY when expected.
    const total = 1000;
    const r = await likeCard((i) => (i < total - 10 ? 40 : 0), null);
    // Before: they waited for their 1 s backoff, up to a quarter of their processing.
    expect(r.lastWorst).toBeLessThan(0.03);
    expect(r.list / total).toBeLessThan(0.75);
    expect(r.byId).toBeLessThan(total * 1.1);
  });

  it('streams that do not take alike: fewer than 0.75 listings per stream', async () => {
    const total = 300;
    const r = await run(total, 100, (i) => 4000 + ((i * 7919) % 8000));
    expect(r.list / total).toBeLessThan(0.75);
  });

  it('a queue not hungry for a moment while freed slots refill keeps listing at the pace it learnt', async () => {
    const total = 300;
    const r = await run(total, 100, (i) => 4000 + ((i * 7919) % 2000), 60);
    // Streams of 4–6 s, refilled 60 ms after each is noticed. When each such moment raised the gap
    // to the idle floor (1 s), a finished stream waited 10 % of its processing on average; now 4 %.
    expect(r.mean).toBeLessThan(0.06);
    expect(r.list / total).toBeLessThan(0.75);
  });
});
