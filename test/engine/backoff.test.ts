import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  DEFAULT_POLL,
  DEFAULT_STUCK,
  nextPollInterval,
  retryDelay,
  stuckDeadline,
} from '../../main/engine/backoff.js';

const P = { baseMs: 1000, capMs: 30_000, maxRetryAfterMs: 3_600_000 };

describe('backoffDelay (full jitter above a growing floor)', () => {
  it.each([
    { failures: 1, random: 1, want: 1000 },
    { failures: 2, random: 1, want: 2000 },
    { failures: 3, random: 0.5, want: 2000 },
    { failures: 5, random: 1, want: 16_000 },
    { failures: 6, random: 1, want: 30_000 },
    { failures: 5000, random: 1, want: 30_000 },
    { failures: 1, random: 0, want: 250 },
    { failures: 3, random: 0.1, want: 1000 },
    { failures: 6, random: 0, want: 7500 },
    { failures: 0, random: 1, want: 1000 },
    { failures: 2, random: 7, want: 2000 },
  ])('failures=$failures random=$random → $want', ({ failures, random, want }) => {
    expect(backoffDelay(failures, P, () => random)).toBe(want);
  });
});

describe('retryDelay: a longer Retry-After wins, a shorter one never undercuts the floor', () => {
  it.each([
    { retryAfter: undefined, want: 1000 },
    { retryAfter: 7000, want: 7000 },
    { retryAfter: 0, want: 1000 },
    { retryAfter: 200, want: 1000 },
    { retryAfter: 10 * 3_600_000, want: 3_600_000 },
    { retryAfter: -5, want: 1000 },
    { retryAfter: Number.NaN, want: 1000 },
  ])('Retry-After $retryAfter → $want', ({ retryAfter, want }) => {
    expect(retryDelay(1, retryAfter, P, () => 1)).toBe(want);
  });

  it('Retry-After: 0 on every retry: each wait is above a floor that grows, whatever the draw', () => {
    const draws = [0, 0.99, 0, 0.5, 0, 0.2, 0, 0];
    const waits = draws.map((r, i) => retryDelay(i + 1, 0, P, () => r));
    const floors = waits.map((_, i) => Math.min(P.capMs, P.baseMs * 2 ** i) / 4);
    waits.forEach((w, i) => expect(w).toBeGreaterThanOrEqual(floors[i]!));
    expect(floors).toEqual([...floors].sort((a, b) => a - b));
    expect(Math.min(...waits)).toBeGreaterThan(0);
    // Six retries wait more than 15 s in all, not 0 ms.
    expect(waits.slice(0, 6).reduce((a, b) => a + b, 0)).toBeGreaterThan(15_000);
  });
});

describe('nextPollInterval', () => {
  it('stays at 1 s for the first 10 s of processing, then grows to 30 s and stays there', () => {
    const seq: number[] = [];
    let cur: number | undefined;
    let elapsed = 0;
    while (elapsed < 120_000) {
      cur = nextPollInterval(cur, DEFAULT_POLL, elapsed);
      seq.push(cur);
      elapsed += cur;
    }
    expect(seq).toEqual([
      1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1500, 2250, 3375, 5063, 7595, 11393, 17090, 25635,
      30000, 30000,
    ]);
  });
  it('is configurable', () => {
    const policy = { initialMs: 200, maxMs: 400, factor: 2, flatMs: 0 };
    expect(nextPollInterval(undefined, policy)).toBe(200);
    expect(nextPollInterval(300, policy)).toBe(400);
    expect(nextPollInterval(300, { ...policy, flatMs: 1000 }, 999)).toBe(200);
  });
  it('looks at a clip sooner the first time only, and never sooner than the floor', () => {
    // A fifth of the first interval, or the clip's own length when shorter, at least 50 ms.
    expect(nextPollInterval(undefined, DEFAULT_POLL, 0, 60)).toBe(60);
    expect(nextPollInterval(undefined, DEFAULT_POLL, 0, 150)).toBe(150);
    expect(nextPollInterval(undefined, DEFAULT_POLL, 0, 20)).toBe(50);
    expect(nextPollInterval(undefined, DEFAULT_POLL, 0, 0)).toBe(50);
    expect(nextPollInterval(undefined, DEFAULT_POLL, 0, 9_999)).toBe(200);
    // Longer or unknown media keeps the first interval; later looks are unchanged for a clip.
    expect(nextPollInterval(undefined, DEFAULT_POLL, 0, 10_000)).toBe(1000);
    expect(nextPollInterval(undefined, DEFAULT_POLL, 0)).toBe(1000);
    expect(nextPollInterval(200, DEFAULT_POLL, 200, 60)).toBe(1000);
    // A user's first interval of 200 ms: a fifth would be 40 ms, the floor keeps it at 50 ms.
    expect(nextPollInterval(undefined, { ...DEFAULT_POLL, initialMs: 200 }, 0, 9_000)).toBe(50);
    // A first interval already under the floor is not raised.
    expect(nextPollInterval(undefined, { ...DEFAULT_POLL, initialMs: 50 }, 0, 60)).toBe(50);
  });
});

describe('stuckDeadline', () => {
  it.each([
    { duration: 60_000, want: 1000 + 120_000 + 1_800_000 },
    { duration: 0, want: 1000 + 1_800_000 },
    { duration: undefined, want: 1000 + DEFAULT_STUCK.unknownDurationMs },
    { duration: -1, want: 1000 + DEFAULT_STUCK.unknownDurationMs },
  ])('duration $duration → $want', ({ duration, want }) => {
    expect(stuckDeadline(1000, duration, DEFAULT_STUCK)).toBe(want);
  });
  it('defaults are sane', () => {
    expect(DEFAULT_BACKOFF.capMs).toBeGreaterThan(DEFAULT_BACKOFF.baseMs);
  });
});
