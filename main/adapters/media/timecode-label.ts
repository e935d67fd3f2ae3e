// Reads the timecode labels and frame rates containers and camera sidecars give ("01:00:00:00",
// "00:59:50;00", 29.97) into a frame count on a rational rate: the shape MediaFacts stores. Turning
// those frames into a place on a timeline is the timecode module's job (engine/timecode/).
import type { FrameRate } from '../../engine/media-facts.js';

/** The NTSC-family rates written as decimals (23.976, 29.97, 59.94, …) and their exact fraction. */
const NTSC = [24, 30, 48, 60, 120];

/** A rate from a numerator/denominator pair when given, else from its decimal; null when neither. */
export function rateOf(numerator: number | null, denominator: number | null, decimal: number | null): FrameRate | null {
  let num: number;
  let den: number;
  if (numerator !== null && denominator !== null && numerator > 0 && denominator > 0) {
    num = numerator;
    den = denominator;
  } else if (decimal !== null && decimal > 0) {
    const ntsc = NTSC.find((n) => Math.abs(decimal - (n * 1000) / 1001) < 0.005);
    if (ntsc !== undefined) {
      num = ntsc * 1000;
      den = 1001;
    } else if (Math.abs(decimal - Math.round(decimal)) < 0.005) {
      num = Math.round(decimal);
      den = 1;
    } else {
      num = Math.round(decimal * 1000);
      den = 1000;
    }
  } else {
    return null;
  }
  return { num, den, dropFrame: false };
}

/** Whether drop-frame counting exists at this rate: 29.97 and 59.94 only. */
export function canDropFrame(rate: FrameRate): boolean {
  return rate.den === 1001 && (rate.num === 30000 || rate.num === 60000);
}

/**
 * Frames since 00:00:00:00 of a label `HH:MM:SS:FF` (`;` or `.` before the frames marks drop
 * frame); null when it is not a label. Drop frame skips frame numbers 0 and 1 (0–3 at 59.94) at
 * every minute not divisible by ten, so those numbers are taken out of the count.
 */
export function framesOfTimecode(label: string, rate: FrameRate): number | null {
  const m = /^(\d{1,2}):(\d{2}):(\d{2})([:;.,])(\d{2,3})$/.exec(label.trim());
  if (!m) return null;
  const [h, min, s, f] = [m[1], m[2], m[3], m[5]].map(Number) as [number, number, number, number];
  const nominal = Math.round(rate.num / rate.den);
  if (min > 59 || s > 59 || f >= nominal) return null;
  const dropFrame = (rate.dropFrame || m[4] === ';' || m[4] === ',') && canDropFrame(rate);
  const totalMinutes = h * 60 + min;
  let frames = (totalMinutes * 60 + s) * nominal + f;
  if (dropFrame) {
    const dropped = nominal === 60 ? 4 : 2;
    frames -= dropped * (totalMinutes - Math.floor(totalMinutes / 10));
  }
  return frames;
}
