// Media time (milliseconds, as the service reports words) ↔ frames on a rate, in exact integer
// arithmetic: a frame at 23.976 lasts 1001/24 ms, which no float holds, and a frame off by one at
// hour ten is a caption on the wrong shot. Pure; the engine's captions and the review's running
// clock count frames with the same functions.
//
// Note (rounding policy): a caption's start rounds DOWN to its frame and its end rounds UP, so a
// caption can only show a little early and stay a little long, never clip a word; it keeps at
// least one frame; and where two captions would then overlap, the earlier one gives way (its end
// moves back to the next start), so starts stay where the words are.
import type { FrameRate } from './timecode.js';

/** ⌊a / b⌋ for non-negative safe integers, exact (a float quotient can round across an integer). */
function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  while (q * b > a) q--;
  while ((q + 1) * b <= a) q++;
  return q;
}

const wholeMs = (ms: number): number => {
  if (!Number.isFinite(ms)) throw new RangeError(`A time must be a number of milliseconds (got ${ms}).`);
  return Math.max(0, Math.round(ms));
};

/** The frame a moment falls in (the last frame that starts at or before it). */
export function msToFrameFloor(ms: number, rate: FrameRate): number {
  return floorDiv(wholeMs(ms) * rate.num, rate.den * 1000);
}

/** The first frame that starts at or after a moment. */
export function msToFrameCeil(ms: number, rate: FrameRate): number {
  const a = wholeMs(ms) * rate.num;
  const b = rate.den * 1000;
  const q = floorDiv(a, b);
  return q * b === a ? q : q + 1;
}

/** The frame whose start is nearest (ties go to the earlier frame). */
export function msToFrameNearest(ms: number, rate: FrameRate): number {
  // round(ms·num / (den·1000)), ties down, is ⌈(2·ms·num − den·1000) / (2·den·1000)⌉.
  const a = 2 * wholeMs(ms) * rate.num - rate.den * 1000;
  if (a <= 0) return 0;
  const b = 2 * rate.den * 1000;
  const q = floorDiv(a, b);
  return q * b === a ? q : q + 1;
}

/** Where a frame starts, in milliseconds (fractional for 1000/1001 rates). */
export const frameToMs = (frame: number, rate: FrameRate): number => (frame * rate.den * 1000) / rate.num;

/** Where a frame starts, in seconds. */
export const frameToSeconds = (frame: number, rate: FrameRate): number => (frame * rate.den) / rate.num;

export interface FrameSpan {
  /** First frame shown. */
  start: number;
  /** First frame no longer shown (exclusive), always > start. */
  end: number;
}

/**
 * Millisecond spans in time order → frame spans on `rate`, by the rounding policy above: starts
 * down, ends up, at least one frame, no two overlapping, in the same order.
 */
export function snapSpans(spans: ReadonlyArray<{ startMs: number; endMs: number }>, rate: FrameRate): FrameSpan[] {
  const out: FrameSpan[] = spans.map((s) => {
    const start = msToFrameFloor(s.startMs, rate);
    return { start, end: Math.max(start + 1, msToFrameCeil(Math.max(s.startMs, s.endMs), rate)) };
  });
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1]!;
    const cur = out[i]!;
    if (cur.start < prev.start) cur.start = prev.start;
    if (prev.end <= cur.start) continue;
    if (cur.start > prev.start) {
      prev.end = cur.start;
    } else {
      // Both start on one frame: the earlier keeps it, the later moves to the next free frame.
      cur.start = prev.end = prev.start + 1;
    }
    if (cur.end <= cur.start) cur.end = cur.start + 1;
  }
  return out;
}

/** An FCPXML time: `frames × frameDuration` as an unreduced rational, `0s` at zero (`3600/25s`). */
export function rationalTime(frames: number, rate: FrameRate): string {
  if (frames === 0) return '0s';
  return rate.den === 1 ? `${frames}/${rate.num}s` : `${frames * rate.den}/${rate.num}s`;
}

/** FCPXML's frameDuration for a rate: `1001/30000s`, `1/25s`. */
export const frameDuration = (rate: FrameRate): string => `${rate.den}/${rate.num}s`;
