// The realistic profile: timings in the documented ranges, scaled by the speed factor, the same
// under the same seed, and an occasional 503 at about the documented rate. Over HTTP: the queue
// delay and processing time show in the stream's timestamps, exports of long streams wait.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { createProfile, parseProfileName, REALISTIC, seededUnit } from '../../main/sandbox/profile.js';
import { makeDurationTaggedWav, makeMediaDir } from '../helpers/media.js';
import { exportJson, upload, waitFinished } from './client.js';

const HOUR = 3_600_000;

describe('createProfile', () => {
  it('default is no profile at all', () => {
    expect(createProfile('default', { seed: 1, scale: 1 })).toBeNull();
  });

  it('realistic: queue delay, 0.2–0.5 × duration, export seconds for long media, all × scale', () => {
    const p = createProfile('realistic', { seed: 7, scale: 1 })!;
    const q = createProfile('realistic', { seed: 7, scale: 0.1 })!;
    const ids = Array.from({ length: 200 }, (_, i) => `stream-${i}`);
    const ratios = ids.map((id) => p.processingMs(id, HOUR)! / HOUR);
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.2);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(0.5);
    // Jitter: spread over most of the range, not one value.
    expect(Math.max(...ratios) - Math.min(...ratios)).toBeGreaterThan(0.25);
    for (const id of ids) {
      const d = p.queueDelayMs(id);
      expect(d).toBeGreaterThanOrEqual(REALISTIC.queueDelayMs.min);
      expect(d).toBeLessThanOrEqual(REALISTIC.queueDelayMs.max);
      expect(Math.abs(q.queueDelayMs(id) - d * 0.1)).toBeLessThanOrEqual(1);
      expect(Math.abs(q.processingMs(id, HOUR)! - p.processingMs(id, HOUR)! * 0.1)).toBeLessThanOrEqual(1);
    }
    const exportLong = p.exportDelayMs('x', HOUR);
    expect(exportLong).toBeGreaterThanOrEqual(5_000);
    expect(exportLong).toBeLessThanOrEqual(8_000);
    expect(p.exportDelayMs('x', 60_000)).toBeLessThan(1_000);
  });

  it('the same seed gives the same timings and 503s; another seed does not', () => {
    const run = (seed: number) => {
      const p = createProfile('realistic', { seed, scale: 1 })!;
      const timings = ['a', 'b', 'c'].map((id) => [p.queueDelayMs(id), p.processingMs(id, HOUR)]);
      const errors = Array.from({ length: 2000 }, () => p.serverError('findAll') !== null);
      return { timings, errors };
    };
    expect(run(3)).toEqual(run(3));
    expect(run(3).timings).not.toEqual(run(4).timings);
  });

  it('answers 503 with Retry-After on about 1 % of requests', () => {
    const p = createProfile('realistic', { seed: 1, scale: 1 })!;
    const answers = Array.from({ length: 20_000 }, () => p.serverError('upload'));
    const busy = answers.filter((a) => a !== null);
    expect(busy.length / answers.length).toBeGreaterThan(0.005);
    expect(busy.length / answers.length).toBeLessThan(0.015);
    expect(busy[0]).toEqual({ status: 503, retryAfterS: REALISTIC.retryAfterS });
  });

  it('seededUnit stays in [0, 1)', () => {
    for (let i = 0; i < 1000; i++) {
      const u = seededUnit(i, 'k');
      expect(u).toBeGreaterThanOrEqual(0);
      expect(u).toBeLessThan(1);
    }
  });

  it('an unknown profile name is refused, naming where it came from', () => {
    expect(parseProfileName(' realistic ', 'X')).toBe('realistic');
    expect(() => parseProfileName('fast', 'SLUICE_SANDBOX_PROFILE')).toThrow(
      'SLUICE_SANDBOX_PROFILE must be one of default, realistic (got "fast").',
    );
  });
});

describe('the realistic profile over HTTP', () => {
  let sb: Sandbox;
  let dir: string;
  let long: string;
  const scale = 0.002;
  beforeAll(async () => {
    dir = await makeMediaDir();
    long = await makeDurationTaggedWav(dir, 'long.wav', HOUR);
    sb = await startSandbox({ profile: 'realistic', speedFactor: scale, seed: 11 });
  });
  afterAll(async () => {
    await sb.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('an hour of media: queue delay + 0.2–0.5 h, scaled; the export takes its share too', async () => {
    let r = await upload(sb.url, long);
    // The profile may answer 503 to any request: what a client meets, so retry like one.
    while (r.status === 503) r = await upload(sb.url, long);
    expect(r.status).toBe(200);
    const done = await waitFinished(sb.url, r.body.streamId, 30_000);
    expect(done.state).toBe('COMPLETED');
    const took = Date.parse(done.finalizedTimestamp!) - Date.parse(done.createdTimestamp);
    const min = (REALISTIC.queueDelayMs.min + 0.2 * HOUR) * scale;
    const max = (REALISTIC.queueDelayMs.max + 0.5 * HOUR) * scale + 200;
    expect(took).toBeGreaterThanOrEqual(min - 5);
    expect(took).toBeLessThanOrEqual(max);
    const t = performance.now();
    let e = await exportJson(sb.url, r.body.streamId);
    while (e.status === 503) e = await exportJson(sb.url, r.body.streamId);
    expect(e.status).toBe(200);
    // 500 ms + 100 ms per minute ± 20 %, × scale: at least 8 ms for an hour.
    expect(performance.now() - t).toBeGreaterThanOrEqual(REALISTIC.exportBaseMs * 0.8 * scale + 60 * 80 * scale - 1);
  });
});
