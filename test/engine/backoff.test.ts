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

describe('backoffDelay (full jitter)', () => {
  it.each([
    { failures: 1, random: 1, want: 1000 },
    { failures: 2, random: 1, want: 2000 },
    { failures: 3, random: 0.5, want: 2000 },
    { failures: 5, random: 1, want: 16_000 },
    { failures: 6, random: 1, want: 30_000 },
    { failures: 5000, random: 1, want: 30_000 },
    { failures: 3, random: 0, want: 0 },
    { failures: 0, random: 1, want: 1000 },
    { failures: 2, random: 7, want: 2000 },
  ])('failures=$failures random=$random → $want', ({ failures, random, want }) => {
    expect(backoffDelay(failures, P, () => random)).toBe(want);
  });
});

describe('retryDelay: Retry-After wins', () => {
  it.each([
    { retryAfter: undefined, want: 1000 },
    { retryAfter: 7000, want: 7000 },
    { retryAfter: 0, want: 0 },
    { retryAfter: 10 * 3_600_000, want: 3_600_000 },
    { retryAfter: -5, want: 1000 },
    { retryAfter: Number.NaN, want: 1000 },
  ])('Retry-After $retryAfter → $want', ({ retryAfter, want }) => {
    expect(retryDelay(1, retryAfter, P, () => 1)).toBe(want);
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
