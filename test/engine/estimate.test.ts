import { describe, expect, it } from 'vitest';
import {
  estimateBatch,
  median,
  PACE_KEPT,
  PACE_PRIOR,
  paceOf,
  planningPace,
  rememberPace,
  throughputOf,
  THROUGHPUT_WINDOW_MS,
  addSpeedSample,
  SPEED_WINDOW_MS,
  uploadSpeed,
  type EstimateJob,
  type ThroughputSample,
} from '../../main/engine/estimate.js';

const MB = 1_000_000;
const MIN = 60_000;
const queued = (bytes: number, mediaDurationMs?: number): EstimateJob => ({
  state: 'queued',
  remainingBytes: bytes,
  totalBytes: bytes,
  ...(mediaDurationMs !== undefined ? { mediaDurationMs } : {}),
});
const base = { now: 1_000_000, throughput: MB, pace: 0.5, paused: false, stoppingAfterCurrent: false };

describe('estimateBatch', () => {
  it('counts processing, not only uploads: minutes of media left mean minutes of waiting', () => {
    // 10 MB at 1 MB/s = 10 s of upload, then 4 min of media at half its length = 2 min.
    const e = estimateBatch({ ...base, jobs: [queued(10 * MB, 4 * MIN)] });
    expect(e).toEqual({ kind: 'eta', ms: 10_000 + 2 * MIN, uploadMs: 10_000, processingMs: 2 * MIN });
  });

  it('uploads follow one another; the batch ends with the last processing to finish', () => {
    // a: upload ends at 5 s, processes 60 s -> 65 s. b: upload ends at 10 s, processes 5 s -> 15 s.
    const e = estimateBatch({ ...base, jobs: [queued(5 * MB, 2 * MIN), queued(5 * MB, 10_000)] });
    expect(e.kind === 'eta' && e.ms).toBe(65_000);
  });

  it('a file processing now counts only the processing it has left (fake clock)', () => {
    const job: EstimateJob = {
      state: 'processing',
      remainingBytes: 0,
      totalBytes: MB,
      mediaDurationMs: 10 * MIN,
      uploadedAt: base.now - 2 * MIN,
    };
    // 10 min of media at 0.5 = 5 min; 2 min already spent.
    expect(estimateBatch({ ...base, jobs: [job] })).toMatchObject({ kind: 'eta', ms: 3 * MIN });
    // Later, on the same job: the estimate counts down with the clock.
    expect(estimateBatch({ ...base, now: base.now + MIN, jobs: [job] })).toMatchObject({ ms: 2 * MIN });
    // Overdue: never negative.
    expect(estimateBatch({ ...base, now: base.now + 10 * MIN, jobs: [job] })).toMatchObject({ ms: 0 });
  });

  it('processing left is known even when nothing is uploading (throughput 0)', () => {
    const job: EstimateJob = {
      state: 'processing',
      remainingBytes: 0,
      totalBytes: MB,
      mediaDurationMs: MIN,
      uploadedAt: base.now,
    };
    expect(estimateBatch({ ...base, throughput: 0, jobs: [job] })).toMatchObject({ kind: 'eta', ms: 30_000 });
  });

  it('says paused while the queue is paused, instead of a number', () => {
    expect(estimateBatch({ ...base, paused: true, jobs: [queued(MB, MIN)] })).toEqual({ kind: 'paused' });
  });

  it('is unknown while uploads remain and no rate is measured yet', () => {
    expect(estimateBatch({ ...base, throughput: 0, jobs: [queued(MB, MIN)] })).toEqual({ kind: 'unknown' });
  });

  it('is done when every job finished', () => {
    const done: EstimateJob = { state: 'failed', remainingBytes: 0, totalBytes: 1 };
    expect(estimateBatch({ ...base, jobs: [done] })).toEqual({ kind: 'done' });
  });

  it('"stop after current" leaves the queued files out', () => {
    const up: EstimateJob = { state: 'uploading', remainingBytes: 2 * MB, totalBytes: 4 * MB, mediaDurationMs: 20_000 };
    const e = estimateBatch({ ...base, stoppingAfterCurrent: true, jobs: [up, queued(100 * MB, 60 * MIN)] });
    expect(e).toMatchObject({ kind: 'eta', ms: 2_000 + 10_000 });
  });

  it('a file whose length is unknown is sized like its batch-mates (bytes per media second)', () => {
    // Known: 1 MB per 10 s of media. Unknown: 6 MB -> 60 s of media -> 30 s of processing.
    const e = estimateBatch({ ...base, throughput: 1e12, jobs: [queued(MB, 10_000), queued(6 * MB)] });
    expect(e.kind === 'eta' && Math.round(e.ms / 1000)).toBe(30);
  });
});

describe('pace', () => {
  it('is processing time over media time for a finished file', () => {
    expect(paceOf({ uploadedAt: 0, completedAt: 30_000, mediaDurationMs: 60_000 })).toBe(0.5);
    expect(paceOf({ uploadedAt: 0, completedAt: 30_000 })).toBeUndefined();
    expect(paceOf({ uploadedAt: 0, completedAt: 100, mediaDurationMs: 200 })).toBeUndefined();
    expect(paceOf({ uploadedAt: 50, completedAt: 10, mediaDurationMs: 60_000 })).toBeUndefined();
  });

  it('uses the prior until one is learned, then the median of the kept ones', () => {
    expect(planningPace([])).toEqual({ pace: PACE_PRIOR, learned: false });
    expect(planningPace([0.1, 0.9, 0.2])).toEqual({ pace: 0.2, learned: true });
    expect(median([0.1, 0.3])).toBeCloseTo(0.2);
  });

  it('keeps only the most recent paces', () => {
    let kept: number[] = [];
    for (let i = 0; i < PACE_KEPT + 5; i++) kept = rememberPace(kept, i);
    expect(kept).toHaveLength(PACE_KEPT);
    expect(kept[0]).toBe(5);
    expect(rememberPace([1], Number.NaN)).toEqual([1]);
  });
});

describe('throughputOf', () => {
  const samples = [
    { at: 0, bytes: 0 },
    { at: 5_000, bytes: 5 * MB },
    { at: 10_000, bytes: 10 * MB },
  ];
  it('measures bytes per second over the window up to now', () => {
    expect(throughputOf(samples, 10_000, true)).toBe(MB);
  });
  it('falls as time passes with no bytes, instead of keeping its last value', () => {
    expect(throughputOf(samples, 20_000, true)).toBe(MB / 2);
  });
  it('is 0 when nothing is uploading (a paused queue)', () => {
    expect(throughputOf(samples, 10_000, false)).toBe(0);
  });
  it('lets a slow line’s first burst go within half a minute, so the time left follows the line', () => {
    // As the Queue's numbers keep them: a running total per progress, pruned to the window. The
    // send buffers took 4 MB in the first half second; the line then carries 350 KB/s.
    let kept: Array<{ at: number; bytes: number }> = [];
    for (let at = 0; at <= 25_000; at += 250) {
      kept = kept.filter((s) => at - s.at <= THROUGHPUT_WINDOW_MS);
      kept.push({ at, bytes: Math.min(at, 500) * 8_000 + (350_000 * at) / 1000 });
    }
    const rate = throughputOf(kept, 25_000, true);
    expect(rate).toBeGreaterThan(330_000);
    expect(rate).toBeLessThan(370_000);
  });
  it('is 0 when every sample left the window', () => {
    expect(throughputOf(samples, 200_000, true)).toBe(0);
  });
});

describe('uploadSpeed', () => {
  /** Progress every 50 ms at `rate` bytes/s after a `burst` handed over at once, from t = 0. */
  function feed(untilMs: number, rate: number, burst = 0): ThroughputSample[] {
    const samples: ThroughputSample[] = [];
    for (let t = 0; t <= untilMs; t += 50) addSpeedSample(samples, t, burst + (rate * t) / 1000);
    return samples;
  }
  it('keeps a few samples however often progress comes, the window’s start among them', () => {
    const samples = feed(60_000, 350_000);
    // About one per 200–250 ms of the window, not one per progress (1,200 here).
    expect(samples.length).toBeLessThan(60);
    expect(samples[0]!.at).toBeLessThanOrEqual(60_000 - SPEED_WINDOW_MS);
  });
  it('is the line’s rate once the window has passed the burst of the first seconds', () => {
    const samples = feed(15_000, 350_000, 4 * MB);
    expect(uploadSpeed(samples, 15_000)).toBeGreaterThan(340_000);
    expect(uploadSpeed(samples, 15_000)).toBeLessThan(360_000);
  });
  it('falls with the clock while the counter stands still, instead of keeping its last value', () => {
    const samples = feed(15_000, 350_000);
    expect(uploadSpeed(samples, 25_000)).toBeLessThan(uploadSpeed(samples, 15_000) / 1.9);
  });
  it('is 0 before a second of progress', () => {
    expect(uploadSpeed(feed(600, 350_000), 600)).toBe(0);
    expect(uploadSpeed([], 600)).toBe(0);
  });
});
