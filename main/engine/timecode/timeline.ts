// Where a file sits on the editor's timeline: the rate its frames are counted in and the frame its
// first moment is labelled with. From what the media says (MediaFacts.start) or from the folder's
// choice of a fixed start (Resolve timelines start at 01:00:00:00). Pure.
import { z } from 'zod';
import type { MediaFacts, SourceStart } from '../media-facts.js';
import {
  DEFAULT_RATE_ID,
  droppedPerMinute,
  normalizeRate,
  RATE_IDS,
  rateOf,
  sameRate,
  type FrameRate,
  type RateId,
} from './rates.js';
import { formatTimecode, parseTimecodeParts, partsToFrames, TimecodeError } from './timecode.js';

/** `source`: the media's own timecode (00:00:00:00 when it has none); or a fixed `HH:MM:SS:FF`. */
export type TimelineStart = 'source' | string;

export interface TimelineSettings {
  start: TimelineStart;
  /** The rate for media that says nothing about its own (audio, phone video). */
  defaultRate: RateId;
}

export const TIMELINE_SETTINGS = z.object({
  start: z
    .string()
    .refine((s) => s === 'source' || isTimecodeText(s), 'must be "source" or a timecode such as 01:00:00:00')
    .default('source'),
  defaultRate: z.enum(RATE_IDS).default(DEFAULT_RATE_ID),
});

export const DEFAULT_TIMELINE: TimelineSettings = { start: 'source', defaultRate: DEFAULT_RATE_ID };

function isTimecodeText(s: string): boolean {
  try {
    parseTimecodeParts(s);
    return true;
  } catch {
    return false;
  }
}

export interface Timeline {
  rate: FrameRate;
  /** The frame count the media's first moment is labelled with. */
  startFrame: number;
  /** Where the start came from: the media's own record, the folder's fixed start, or nothing (zero). */
  origin: SourceStart['from'] | 'fixed' | 'none';
}

/** round(n / d) for non-negative integers, ties down, exact at any size. */
function roundDiv(n: bigint, d: bigint): number {
  return Number((2n * n + d - 1n) / (2n * d));
}

/** A source start as a frame count on `rate` (the nearest frame when the rates differ). */
export function startFrameOn(start: SourceStart, rate: FrameRate): number {
  if (start.kind === 'frames') {
    if (sameRate(start.rate, rate)) return start.frames;
    // frames · (den_s / num_s) seconds · (num / den) frames per second.
    const n = BigInt(start.frames) * BigInt(start.rate.den) * BigInt(rate.num);
    return roundDiv(n, BigInt(start.rate.num) * BigInt(rate.den));
  }
  // Samples since midnight: seconds of real time, counted in frames of `rate`.
  const n = BigInt(Math.max(0, Math.round(start.samples))) * BigInt(rate.num);
  return roundDiv(n, BigInt(start.sampleRate) * BigInt(rate.den));
}

/**
 * The rate a file's timeline counts in: its timecode track's, else its video's, else the default.
 * A video at the default's rate takes the default's counting (29.97 video in a 29.97 DF folder is DF).
 */
export function timelineRate(facts: MediaFacts | null, defaultRate: RateId): FrameRate {
  const fallback = rateOf(defaultRate);
  const own = facts?.start?.kind === 'frames' ? facts.start.rate : facts?.videoRate;
  const rate = own ? normalizeRate(own) : null;
  if (!rate) return fallback;
  if (facts?.start?.kind !== 'frames' && sameRate(rate, fallback)) return fallback;
  return rate;
}

/**
 * A fixed start on the file's rate. A label drop-frame skips (01:01:00;00) means the minute's first
 * frame, as NLEs read it when typed; any other impossible label (frame 25 at 25 fps) is an error.
 */
function fixedStart(text: string, rate: FrameRate): number {
  const parts = parseTimecodeParts(text);
  const drop = droppedPerMinute(rate);
  const skipped = drop > 0 && parts.seconds === 0 && parts.minutes % 10 !== 0 && parts.frames < drop;
  return partsToFrames(skipped ? { ...parts, frames: drop } : parts, rate);
}

/** The file's place on the timeline, by the folder's settings. Throws TimecodeError on a bad fixed start. */
export function timelineOf(facts: MediaFacts | null, settings: TimelineSettings = DEFAULT_TIMELINE): Timeline {
  const rate = timelineRate(facts, settings.defaultRate);
  if (settings.start !== 'source') return { rate, startFrame: fixedStart(settings.start, rate), origin: 'fixed' };
  const start = facts?.start ?? null;
  if (!start) return { rate, startFrame: 0, origin: 'none' };
  return { rate, startFrame: startFrameOn(start, rate), origin: start.from };
}

/** The start as an editor reads it: `01:00:00:00 @ 23.976`. */
export const startTimecode = (t: Timeline): string => formatTimecode(t.startFrame, t.rate);

export { TimecodeError };
