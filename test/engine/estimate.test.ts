import { describe, expect, it } from 'vitest';
import {
  estimateBatch,
  median,
  PACE_KEPT,
  PACE_PRIOR,
  paceOf,
  planningPace,
  rememberPace,
  addSpeedSample,
  addUploadReport,
  SPEED_WINDOW_MS,
  lineProgress,
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

describe('lineProgress: what the line carries, not what the socket took', () => {
  /**
   * Progress every 50 ms as the uploader records it: a `burst` taken by the send buffers in the
   * first half second, then `rate` bytes/s (the line). Started at t = 0.
   */
  function feed(
    untilMs: number,
    rate: number,
    burst = 0,
  ): { sent: number; startedAt: number; samples: ThroughputSample[] } {
    const samples: ThroughputSample[] = [];
    let sent = 0;
    for (let t = 0; t <= untilMs; t += 50) {
      sent = Math.round(Math.min(t, 500) * (burst / 500) + (rate * t) / 1000);
      addSpeedSample(samples, t, sent);
    }
    return { sent, startedAt: 0, samples };
  }
  it('keeps a few samples however often progress comes, the window’s start among them', () => {
    const { samples } = feed(60_000, 350_000);
    expect(samples.length).toBeLessThan(60);
    expect(samples[0]!.at).toBeLessThanOrEqual(60_000 - SPEED_WINDOW_MS);
  });
  it('leaves the buffers’ first burst out: the line’s rate from the fifth second, not 10 s later', () => {
    const p = feed(5_000, 150_000, 4 * MB);
    const { speed } = lineProgress(p, 5_000);
    expect(speed).toBeGreaterThan(150_000 * 0.95);
    expect(speed).toBeLessThan(150_000 * 1.05);
    // What was handed over (4.75 MB) against what the line carried (750 KB): the row shows the latter.
    expect(p.sent).toBeGreaterThan(4 * MB);
    expect(lineProgress(p, 5_000).carried).toBeGreaterThan(700_000);
    expect(lineProgress(p, 5_000).carried).toBeLessThan(800_000);
  });
  it('is not measured in the first seconds, while the buffers fill: only bytes past their first fill count', () => {
    // Taken at once, as a loopback socket takes 4 MB, and a little more within BUFFER_FILL_MS of
    // the first report: none of it carried yet.
    const p = { sent: 0, startedAt: 0, samples: [] as ThroughputSample[] };
    for (let t = 0; t <= 40; t += 10) addUploadReport(p, t, t * 100_000);
    expect(lineProgress(p, 100).carried).toBe(0);
    addUploadReport(p, 1500, 4_300_000);
    expect(lineProgress(p, 1600)).toEqual({ speed: 0, carried: 0 });
    // Past it, what the socket takes is what drained.
    addUploadReport(p, 2500, 4_500_000);
    expect(lineProgress(p, 2600)).toEqual({ speed: 0, carried: 200_000 });
    expect(lineProgress({ sent: 0, startedAt: 0, samples: [] }, 600)).toEqual({ speed: 0, carried: 0 });
  });
  it('keeps the first fill however spread its reports and however long ago (a loaded machine)', () => {
    // The fill in four reports 400 ms apart (each one burst of its own), then one report 7 s in:
    // the line (300 KB/s) carried 3.03 MB by 10.1 s. Taking only the first report as the fill showed
    // 5.1 MB then; the row must not run ahead of the line.
    const p = { sent: 0, startedAt: 0, samples: [] as ThroughputSample[] };
    for (const [i, t] of [0, 400, 800, 1200].entries()) addUploadReport(p, t, (i + 1) * 1_000_000);
    addUploadReport(p, 7000, 4_000_000 + 2_100_000);
    const at10 = lineProgress(p, 10_100);
    expect(at10.speed).toBe(0);
    expect(at10.carried).toBe(2_100_000);
    expect(at10.carried).toBeLessThanOrEqual(300_000 * 10.1);
    // The samples' window forgets the first reports; the fill is kept apart from them.
    for (let t = 12_000; t <= 30_000; t += 6000) addUploadReport(p, t, 4_000_000 + (300_000 * t) / 1000);
    expect(p.samples.every((s) => s.at > 1200)).toBe(true);
    expect(p.fill).toEqual({ from: 0, bytes: 4_000_000 });
  });
  it('never says more was carried than was handed over (a fast line, nothing buffered for long)', () => {
    const p = feed(12_000, 50 * MB);
    const line = lineProgress(p, 12_000);
    expect(line.carried).toBeLessThanOrEqual(p.sent);
    expect(line.speed).toBeGreaterThan(49 * MB);
  });
  it('falls with the clock while the counter stands still, instead of keeping its last value', () => {
    const p = feed(15_000, 350_000);
    expect(lineProgress(p, 25_000).speed).toBeLessThan(lineProgress(p, 15_000).speed / 1.9);
  });
});

describe('lineProgress on a slow line behind large socket buffers', () => {
  /**
   * An upload as a loopback socket in front of a 300 KB/s line takes it (measured against the
   * throttled sandbox): the buffers take `fill` at once and grow to `buffer` over the first 3 s; the
   * socket then wakes the writer each time a third of the buffer has drained, and takes chunks until
   * it is full again. A chunk counts once the socket took all of it (a part of one waits for the next
   * wake), and the uploader reports each as it is taken. `views` are read at every `stepMs`.
   */
  function drains(o: { rate: number; fill: number; buffer: number; chunk: number; untilMs: number; stepMs?: number }) {
    const p = { sent: 0, startedAt: 0, samples: [] as ThroughputSample[] };
    const views: Array<{ at: number; speed: number; carried: number; line: number; sent: number }> = [];
    let queuedBytes = 0;
    let partial = 0;
    const room = (t: number): number => o.fill + Math.min(1, t / 3000) * (o.buffer - o.fill);
    const take = (t: number): void => {
      let at = t;
      while (queuedBytes < room(t)) {
        const bite = Math.min(o.chunk - partial, room(t) - queuedBytes);
        queuedBytes += bite;
        partial += bite;
        if (partial < o.chunk) break;
        partial = 0;
        addUploadReport(p, at, p.sent + o.chunk);
        at += 1;
      }
    };
    take(0);
    for (let t = 1; t <= o.untilMs; t++) {
      queuedBytes -= o.rate / 1000;
      if (queuedBytes <= (room(t) * 2) / 3) take(t);
      if (t % (o.stepMs ?? 100) === 0)
        views.push({ at: t, ...lineProgress(p, t), line: (o.rate * t) / 1000, sent: p.sent });
    }
    return views;
  }

  for (const buffer of [3 * MB, 4.2 * MB]) {
    it(`comes within 15 % of a 300 KB/s line from 10 s on, read at any moment (${buffer / MB} MB of buffers)`, () => {
      const rate = 300_000;
      const views = drains({ rate, fill: buffer * 0.93, buffer, chunk: 128 * 1024, untilMs: 40_000 });
      const late = views.filter((v) => v.at >= 10_000);
      const off = late.filter((v) => Math.abs(v.speed / rate - 1) > 0.15);
      expect(off.map((v) => `${v.at} ms: ${v.speed} B/s`)).toEqual([]);
      // Nor does the row run ahead of the line by more than the speed may be off, or of what was
      // handed over. Before the speed is measured, by no more than the buffers grew after their
      // first fill (here 7 % of them; what they will grow to is not known then), and a chunk.
      for (const v of views) {
        expect(v.carried).toBeLessThanOrEqual(v.sent);
        if (v.speed === 0) expect(v.carried).toBeLessThanOrEqual(v.line + buffer * 0.07 + 128 * 1024);
        if (v.at >= 10_000) expect(v.carried).toBeLessThanOrEqual(v.line * 1.15);
      }
      // The bytes shown move with the clock between the socket's bursts, seconds apart, each second.
      const shown = late.filter((v, i) => i % 10 === 0).map((v) => v.carried);
      // (It is the measured speed times the time gone, so a reading a few % lower steps it back a little.)
      expect(shown.every((c, i) => i === 0 || (c !== shown[i - 1] && c > shown[i - 1]! - rate / 2))).toBe(true);
    });
  }

  it('reads nothing from the first chunk of a burst still under way', () => {
    const rate = 300_000;
    const views = drains({ rate, fill: 3.9 * MB, buffer: 4.2 * MB, chunk: 128 * 1024, untilMs: 30_000, stepMs: 1 });
    const measured = views.filter((v) => v.speed > 0 && v.at >= 10_000);
    expect(Math.min(...measured.map((v) => v.speed))).toBeGreaterThan(rate * 0.85);
  });
});
