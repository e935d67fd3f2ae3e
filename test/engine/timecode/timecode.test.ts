// Frame arithmetic against an independent implementation (smpte-timecode) and exact rationals.
import fc from 'fast-check';
import Timecode from 'smpte-timecode';
import { describe, expect, it } from 'vitest';
import { RATE_IDS, droppedPerMinute, nominalFps, rateOf, type FrameRate } from '../../../main/engine/timecode/rates.js';
import { formatTimecode, framesPerDay, framesToParts, parseTimecode, TimecodeError } from '../../../common/timecode.js';
import {
  frameToMs,
  msToFrameCeil,
  msToFrameFloor,
  msToFrameNearest,
  rationalTime,
  snapSpans,
} from '../../../common/frames.js';

const rates = RATE_IDS.map((id) => [id, rateOf(id)] as const);
const oracle = (frames: number, r: FrameRate) => new Timecode(frames, [r.num, r.den], r.dropFrame);

describe.each(rates)('timecode at %s', (_id, rate) => {
  const frame = fc.integer({ min: 0, max: framesPerDay(rate) - 1 });

  it('labels every frame of a day as smpte-timecode does', () => {
    fc.assert(
      fc.property(frame, (f) => {
        expect(formatTimecode(f, rate)).toBe(oracle(f, rate).toString());
      }),
      { numRuns: 2000 },
    );
  });

  it('reads its own labels back to the same frame, and agrees with the oracle on the count', () => {
    fc.assert(
      fc.property(frame, (f) => {
        const text = formatTimecode(f, rate);
        expect(parseTimecode(text, rate)).toBe(f);
        expect(new Timecode(text, [rate.num, rate.den], rate.dropFrame).frameCount).toBe(f);
      }),
      { numRuns: 2000 },
    );
  });

  it('never writes a frame number that does not exist', () => {
    const drop = droppedPerMinute(rate);
    fc.assert(
      fc.property(frame, (f) => {
        const p = framesToParts(f, rate);
        expect(p.frames).toBeLessThan(nominalFps(rate));
        if (drop > 0 && p.seconds === 0 && p.minutes % 10 !== 0) expect(p.frames).toBeGreaterThanOrEqual(drop);
      }),
      { numRuns: 2000 },
    );
  });

  it('wraps at 24 hours like a clock', () => {
    expect(formatTimecode(framesPerDay(rate), rate)).toBe(formatTimecode(0, rate));
  });
});

describe('drop-frame edges', () => {
  const df = rateOf('29.97df');
  const df60 = rateOf('59.94df');

  it('skips ;00 and ;01 after 00:00:59;29, keeps them at each tenth minute', () => {
    expect(formatTimecode(1799, df)).toBe('00:00:59;29');
    expect(formatTimecode(1800, df)).toBe('00:01:00;02');
    expect(formatTimecode(17982, df)).toBe('00:10:00;00');
    expect(parseTimecode('01:00:00;00', df)).toBe(107892);
  });

  it('skips four numbers at 59.94', () => {
    expect(formatTimecode(3600, df60)).toBe('00:01:00;04');
  });

  it('refuses labels that drop-frame skips, as the oracle does', () => {
    expect(() => parseTimecode('00:01:00;01', df)).toThrow(TimecodeError);
    expect(() => new Timecode('00:01:00;01', [30000, 1001], true)).toThrow();
    expect(() => parseTimecode('00:01:00;03', df60)).toThrow(/skips frames 00–03/);
    expect(() => parseTimecode('00:00:00:25', rateOf('25'))).toThrow(/00 to 24/);
    expect(() => parseTimecode('1:00:00:00', rateOf('25'))).toThrow(/HH:MM:SS:FF/);
  });

  it('keeps 29.97 DF within a frame of the clock over an hour; NDF drifts 3.6 s', () => {
    const hour = 3_600_000;
    expect(Math.abs(frameToMs(parseTimecode('01:00:00;00', df), df) - hour)).toBeLessThan(1000 / 29.97);
    expect(frameToMs(parseTimecode('01:00:00:00', rateOf('29.97')), df) - hour).toBeCloseTo(3600, -1);
  });
});

/** Exact comparison of ms against a frame boundary: frame f starts at f·den·1000/num ms. */
const startsAtOrBefore = (f: number, ms: number, r: FrameRate): boolean =>
  BigInt(f) * BigInt(r.den) * 1000n <= BigInt(ms) * BigInt(r.num);

describe.each(rates)('milliseconds → frames at %s', (_id, rate) => {
  const ms = fc.integer({ min: 0, max: 86_400_000 });

  it('floor is the frame the moment falls in; ceil the first frame at or after it', () => {
    fc.assert(
      fc.property(ms, (t) => {
        const f = msToFrameFloor(t, rate);
        expect(startsAtOrBefore(f, t, rate)).toBe(true);
        expect(startsAtOrBefore(f + 1, t, rate)).toBe(false);
        const c = msToFrameCeil(t, rate);
        expect(c === f || c === f + 1).toBe(true);
        expect(c === f).toBe(BigInt(f) * BigInt(rate.den) * 1000n === BigInt(t) * BigInt(rate.num));
        const n = msToFrameNearest(t, rate);
        expect(Math.abs(frameToMs(n, rate) - t)).toBeLessThanOrEqual((500 * rate.den) / rate.num + 1e-6);
      }),
      { numRuns: 3000 },
    );
  });

  it('snaps caption spans: starts down, ends up, ≥ 1 frame, in order, never overlapping', () => {
    const spans = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 4000 })), { maxLength: 40 })
      .map((steps) => {
        let t = 0;
        return steps.map(([gap, len]) => {
          const startMs = t + gap;
          t = startMs + len;
          return { startMs, endMs: t };
        });
      });
    fc.assert(
      fc.property(spans, (input) => {
        const out = snapSpans(input, rate);
        expect(out).toHaveLength(input.length);
        out.forEach((s, i) => {
          const src = input[i]!;
          expect(s.end).toBeGreaterThan(s.start);
          expect(s.start).toBeGreaterThanOrEqual(msToFrameFloor(src.startMs, rate));
          const next = out[i + 1];
          if (next) expect(next.start).toBeGreaterThanOrEqual(s.end);
          // Only a collision moves a start; only the next start cuts an end short.
          const collided = i > 0 && msToFrameFloor(input[i - 1]!.startMs, rate) >= msToFrameFloor(src.startMs, rate);
          if (!collided && (i === 0 || out[i - 1]!.start < msToFrameFloor(src.startMs, rate)))
            expect(s.start).toBe(msToFrameFloor(src.startMs, rate));
          if (!next || next.start >= msToFrameCeil(src.endMs, rate))
            expect(s.end).toBe(Math.max(s.start + 1, msToFrameCeil(src.endMs, rate)));
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('FCPXML rationals', () => {
  it('are frames times the frame duration, on the grid', () => {
    expect(rationalTime(90000, rateOf('25'))).toBe('90000/25s');
    expect(rationalTime(86400, rateOf('23.976'))).toBe('86486400/24000s');
    expect(rationalTime(0, rateOf('29.97df'))).toBe('0s');
  });
});
