// Frame rates as rationals, the way every NLE stores them: 29.97 is 30000/1001, never 29.97 (a
// float drifts a frame every few minutes). Only 29.97 and 59.94 may count in drop-frame. Pure.
import {
  canDropFrame,
  droppedPerMinute,
  nominalFps,
  ntscNominalOf,
  ntscRate,
  type FrameRate,
} from '../../../common/timecode.js';
import { DEFAULT_RATE_ID, isRateId, RATE_IDS, type RateId } from '../../../common/frame-rates.js';

export type { FrameRate, RateId };
export { DEFAULT_RATE_ID, isRateId, RATE_IDS };
export { canDropFrame, droppedPerMinute, nominalFps };

const RATES: Readonly<Record<RateId, FrameRate>> = {
  '23.976': { ...ntscRate(24), dropFrame: false },
  '24': { num: 24, den: 1, dropFrame: false },
  '25': { num: 25, den: 1, dropFrame: false },
  '29.97': { ...ntscRate(30), dropFrame: false },
  '29.97df': { ...ntscRate(30), dropFrame: true },
  '30': { num: 30, den: 1, dropFrame: false },
  '50': { num: 50, den: 1, dropFrame: false },
  '59.94': { ...ntscRate(60), dropFrame: false },
  '59.94df': { ...ntscRate(60), dropFrame: true },
  '60': { num: 60, den: 1, dropFrame: false },
};

export function rateOf(id: RateId): FrameRate {
  return RATES[id];
}

/** The id of a rate Sluice knows, or null (a 12 fps screen recording, say). */
export function rateIdOf(rate: FrameRate): RateId | null {
  for (const id of RATE_IDS) if (sameRate(RATES[id], rate) && RATES[id].dropFrame === rate.dropFrame) return id;
  return null;
}

/** The same frames per second, whatever the counting (29.97 DF and NDF are one rate). */
export const sameRate = (a: FrameRate, b: FrameRate): boolean => a.num * b.den === b.num * a.den;

/**
 * A rate as a media probe reported it, made valid: drop-frame only where it exists, and a
 * 1000/1001 rate given in other terms (2997/100, 29.97) read as the NTSC rate it stands for.
 */
export function normalizeRate(rate: FrameRate): FrameRate | null {
  if (!(rate.num > 0 && rate.den > 0) || !Number.isFinite(rate.num / rate.den)) return null;
  const ntsc = ntscNominalOf(rate.num / rate.den);
  const exact =
    ntsc !== null
      ? ntscRate(ntsc)
      : Number.isInteger(rate.num) && Number.isInteger(rate.den)
        ? { num: rate.num, den: rate.den }
        : null;
  if (!exact) return null;
  const dropFrame = rate.dropFrame && canDropFrame(exact);
  return { ...exact, dropFrame };
}

/** A short label for screens and reports: `29.97 DF`, `25`. */
export function rateLabel(rate: FrameRate): string {
  const id = rateIdOf(rate);
  if (id) return id.endsWith('df') ? `${id.slice(0, -2)} DF` : id;
  const fps = rate.num / rate.den;
  return Number.isInteger(fps) ? String(fps) : fps.toFixed(3);
}
