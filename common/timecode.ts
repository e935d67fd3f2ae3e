// SMPTE timecode ↔ frame counts (SMPTE ST 12-1), non-drop and drop-frame: the one reading and
// labelling of timecode for the whole app (the editor formats, a typed start, container and
// sidecar labels, the review's running clock). Drop-frame skips the frame NUMBERS 00 and 01 (00–03
// at 59.94) at the start of every minute except each tenth, so that 29.97 timecode keeps to the
// clock; no frame of picture is dropped. The rates' table and arithmetic beyond this are main's
// (main/engine/timecode/rates.ts).

/** A frame rate as a rational (frames per second = num / den), drop-frame only for 29.97 and 59.94. */
export interface FrameRate {
  readonly num: number;
  readonly den: number;
  readonly dropFrame: boolean;
}

/** Frames per timecode second: 30 for 29.97, 24 for 23.976. The FF field counts 0 … nominal − 1. */
export const nominalFps = (rate: FrameRate): number => Math.round(rate.num / rate.den);

/** Frame numbers skipped at each minute not divisible by ten: 2 at 29.97, 4 at 59.94, else none. */
export const droppedPerMinute = (rate: FrameRate): number => (rate.dropFrame ? Math.round(nominalFps(rate) / 15) : 0);

/**
 * Note (NTSC): the NTSC family (23.976, 29.97, 47.952, 59.94, 119.88) runs 1000/1001 slower than
 * the count its timecode keeps, so each is that count × 1000 over 1001 (30000/1001). Whether a
 * rate is one is decided here once: iTT's `ttp:frameRateMultiplier`, Premiere's `<ntsc>`, drop-frame
 * and the reading of a probe's decimal rate all ask these three.
 */
const NTSC_DEN = 1001;
const NTSC_NOMINALS = [24, 30, 48, 60, 120] as const;

/** Whether a rate is an NTSC one (its count × 1000/1001): 23.976, 29.97, 59.94… */
export const isNtscRate = (rate: Pick<FrameRate, 'den'>): boolean => rate.den === NTSC_DEN;

/** The NTSC rate that counts `nominal` frames per timecode second: 30 → 30000/1001. */
export const ntscRate = (nominal: number): { num: number; den: number } => ({ num: nominal * 1000, den: NTSC_DEN });

/**
 * The count of the NTSC rate a decimal stands for (29.97 → 30, 23.98 → 24), or null when it is
 * none: how a rate a probe or a file gave in other terms (2997/100, 29.97) is read.
 */
export function ntscNominalOf(fps: number): number | null {
  const nominal = Math.round(fps);
  const near = NTSC_NOMINALS.some((n) => n === nominal) && Math.abs(fps - (nominal * 1000) / NTSC_DEN) < 0.01;
  return near ? nominal : null;
}

/** Whether drop-frame counting exists at this rate: 29.97 and 59.94 only. */
export const canDropFrame = (rate: Pick<FrameRate, 'num' | 'den'>): boolean =>
  isNtscRate(rate) && (rate.num === 30000 || rate.num === 60000);

export interface TimecodeParts {
  hours: number;
  minutes: number;
  seconds: number;
  frames: number;
}

export class TimecodeError extends Error {}

/** Frames in 24 hours of timecode: counts wrap there, as a clock does. */
export function framesPerDay(rate: FrameRate): number {
  const fps = nominalFps(rate);
  const drop = droppedPerMinute(rate);
  return fps * 86_400 - drop * 9 * 144;
}

/** A frame count → the timecode it is labelled with (wrapping at 24 hours). */
export function framesToParts(frames: number, rate: FrameRate): TimecodeParts {
  if (!Number.isInteger(frames)) throw new TimecodeError(`A frame count must be a whole number (got ${frames}).`);
  const day = framesPerDay(rate);
  let f = ((frames % day) + day) % day;
  const fps = nominalFps(rate);
  const drop = droppedPerMinute(rate);
  if (drop > 0) {
    // Per ten minutes: the first minute keeps all its numbers, the other nine lose `drop` each.
    const perTen = fps * 600 - drop * 9;
    const perMinute = fps * 60 - drop;
    const tens = Math.floor(f / perTen);
    const rest = f % perTen;
    const skippedInTen = rest < drop ? 0 : drop * Math.floor((rest - drop) / perMinute);
    f += drop * 9 * tens + skippedInTen;
  }
  return {
    hours: Math.floor(f / (fps * 3600)),
    minutes: Math.floor(f / (fps * 60)) % 60,
    seconds: Math.floor(f / fps) % 60,
    frames: f % fps,
  };
}

/** A timecode → its frame count; throws on numbers that do not exist on this rate. */
export function partsToFrames(tc: TimecodeParts, rate: FrameRate): number {
  const problem = invalidParts(tc, rate);
  if (problem) throw new TimecodeError(problem);
  const fps = nominalFps(rate);
  const drop = droppedPerMinute(rate);
  const totalMinutes = tc.hours * 60 + tc.minutes;
  const counted = ((tc.hours * 60 + tc.minutes) * 60 + tc.seconds) * fps + tc.frames;
  return counted - drop * (totalMinutes - Math.floor(totalMinutes / 10));
}

/** Frames in one hour of timecode: subtracting it changes a label's hours only, in drop-frame too. */
export function framesPerHour(rate: FrameRate): number {
  return framesPerDay(rate) / 24;
}

/** What makes a timecode impossible on `rate` (hours past 23, frame 25 at 25 fps, a skipped DF label), or null. */
export function invalidParts(tc: TimecodeParts, rate: FrameRate): string | null {
  const fps = nominalFps(rate);
  const { hours, minutes, seconds, frames } = tc;
  const whole = [hours, minutes, seconds, frames].every((v) => Number.isInteger(v) && v >= 0);
  if (!whole || hours > 23 || minutes > 59 || seconds > 59)
    return 'A timecode reads HH:MM:SS:FF with hours 00–23 and minutes and seconds 00–59.';
  if (frames >= fps) return `At ${fps} frames per second the frame number runs from 00 to ${fps - 1} (got ${frames}).`;
  const drop = droppedPerMinute(rate);
  if (drop > 0 && seconds === 0 && minutes % 10 !== 0 && frames < drop) {
    return `Drop-frame timecode skips frames 00–${String(drop - 1).padStart(2, '0')} at minute ${minutes}; the minute starts at ;${String(drop).padStart(2, '0')}.`;
  }
  return null;
}

const pad = (v: number): string => String(v).padStart(2, '0');

/** `HH:MM:SS:FF`, or `HH:MM:SS;FF` in drop-frame (unless `separator` says otherwise, as iTT needs). */
export function formatTimecode(frames: number, rate: FrameRate, separator?: ':' | ';'): string {
  const p = framesToParts(frames, rate);
  const sep = separator ?? (rate.dropFrame ? ';' : ':');
  return `${pad(p.hours)}:${pad(p.minutes)}:${pad(p.seconds)}${sep}${pad(p.frames)}`;
}

const TIMECODE = /^(\d{2}):(\d{2}):(\d{2})([:;.,])(\d{2,3})$/;

/** Reads `HH:MM:SS:FF` (or `;`/`.`/`,` before the frames, as NLEs write DF) into parts. */
export function parseTimecodeParts(text: string): TimecodeParts {
  const m = TIMECODE.exec(text.trim());
  if (!m) throw new TimecodeError(`"${text}" is not a timecode; write it as HH:MM:SS:FF, e.g. 01:00:00:00.`);
  return { hours: Number(m[1]), minutes: Number(m[2]), seconds: Number(m[3]), frames: Number(m[5]) };
}

/** The highest frame rate Sluice counts at (60): a label is checked against it where no rate is known yet. */
const FASTEST: FrameRate = { num: 60, den: 1, dropFrame: false };

/**
 * What makes a timecode label impossible on any rate Sluice counts (`99:99:99:99`, `24:00:00:00`,
 * frame 60), or null: the check for a start typed before its media's rate is known.
 */
export function timecodeTextProblem(text: string): string | null {
  try {
    return invalidParts(parseTimecodeParts(text), FASTEST);
  } catch (e) {
    return (e as Error).message;
  }
}

/** A timecode on `rate` → its frame count. The separator is not trusted for DF: the rate decides. */
export function parseTimecode(text: string, rate: FrameRate): number {
  return partsToFrames(parseTimecodeParts(text), rate);
}

/** A label read: its frame count and the counting it was read in, or why it is refused. */
export type LabelReading = { frames: number; rate: FrameRate } | { refused: string };

/**
 * A label a container or a camera's sidecar gives (`01:00:00:00`, `00:59:50;00`, `1:00:00:00`) on
 * the rate it gives beside it. Unlike a typed start (parseTimecode, where the rate decides), a
 * label's `;` or `,` before the frames says it counts in drop-frame, where the rate has it; a
 * one-digit hour is read. Null when the text is no label at all; refused, saying why, when it is a
 * timecode no clock shows at that rate (27:00:00:00, frame 30 at 25, a number drop-frame skips).
 */
export function readTimecodeLabel(label: string, rate: FrameRate): LabelReading | null {
  const text = label.trim().replace(/^(\d):/, '0$1:');
  let parts: TimecodeParts;
  try {
    parts = parseTimecodeParts(text);
  } catch {
    return null;
  }
  const on: FrameRate = { ...rate, dropFrame: (rate.dropFrame || /[;,]\d+$/.test(text)) && canDropFrame(rate) };
  const problem = invalidParts(parts, on);
  if (problem) {
    // `25`, `23.976`, `29.97 DF`.
    const fps = `${Math.round((on.num / on.den) * 1000) / 1000}${on.dropFrame ? ' DF' : ''}`;
    return { refused: `The media’s timecode ${text} does not exist at ${fps} fps (${problem.replace(/\.$/, '')})` };
  }
  return { frames: partsToFrames(parts, on), rate: on };
}
