// Reads the timecode labels and frame rates containers and camera sidecars give ("01:00:00:00",
// "00:59:50;00", 29.97) into a frame count on a rational rate: the shape MediaFacts stores. Turning
// those frames into a place on a timeline is the timecode module's job (engine/timecode/).
import type { FrameRate } from '../engine/media-facts.js';
import { rateLabel } from '../engine/timecode/rates.js';
import { invalidParts, parseTimecodeParts, partsToFrames } from '../engine/timecode/timecode.js';

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

/** A label read: its frame count, or why it is refused (a timecode no clock shows: 27:00:00:00, frame 30 at 25). */
export type LabelReading = { frames: number } | { refused: string };

/**
 * Frames since 00:00:00:00 of a label `HH:MM:SS:FF` (`;` or `,` before the frames marks drop
 * frame where the rate has it), by the timecode module's parser (engine/timecode/): one reading of
 * SMPTE labels for the whole app. Null when the text is no label at all.
 */
export function readTimecodeLabel(label: string, rate: FrameRate): LabelReading | null {
  const text = label.trim().replace(/^(\d):/, '0$1:');
  let parts;
  try {
    parts = parseTimecodeParts(text);
  } catch {
    return null;
  }
  const dropFrame = (rate.dropFrame || /[;,]\d+$/.test(text)) && canDropFrame(rate);
  const on: FrameRate = { ...rate, dropFrame };
  const problem = invalidParts(parts, on);
  if (problem)
    return {
      refused: `The media’s timecode ${text} does not exist at ${rateLabel(on)} fps (${problem.replace(/\.$/, '')})`,
    };
  return { frames: partsToFrames(parts, on) };
}

/** Frames since 00:00:00:00 of a label; null when it is no label or no timecode a clock shows. */
export function framesOfTimecode(label: string, rate: FrameRate): number | null {
  const read = readTimecodeLabel(label, rate);
  return read && 'frames' in read ? read.frames : null;
}
