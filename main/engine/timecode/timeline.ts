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
import { msToFrameCeil, msToFrameFloor } from '../../../common/frames.js';
import { withinDay } from './midnight.js';
import {
  formatTimecode,
  parseTimecodeParts,
  partsToFrames,
  TimecodeError,
  timecodeTextProblem,
} from '../../../common/timecode.js';

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

/** A start label that exists on some rate Sluice counts (hours 00–23, frames below 60). */
const isTimecodeText = (s: string): boolean => timecodeTextProblem(s) === null;

export interface Timeline {
  rate: FrameRate;
  /** The frame count the media's first moment is labelled with on the timeline. */
  startFrame: number;
  /**
   * The media's own start on `rate` (0 when it has none): what FCPXML's asset and xmeml's file say
   * it is, whatever timeline it is placed on (a fixed start or midnight moves `startFrame` only).
   */
  mediaStartFrame: number;
  /** Where the start came from: the media's own record, the folder's fixed start, or nothing (zero). */
  origin: SourceStart['from'] | 'fixed' | 'none';
  /** Why the start is not the one asked for (a clip that would cross midnight), for the job to say. */
  notes: string[];
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

/** Whether `picture` runs a whole number of times (2 or more) faster than `track`: 59.94 over 29.97. */
function countsInGroups(picture: FrameRate, track: FrameRate): boolean {
  const n = picture.num * track.den;
  const d = picture.den * track.num;
  return n > d && n % d === 0;
}

/**
 * The rate a file's timeline counts in: its timecode track's, else its video's, else the default.
 * A video at the default's rate takes the default's counting (29.97 video in a 29.97 DF folder is DF).
 * A timecode that counts the picture's frames in pairs (a Sony 59.94p clip's sidecar at 30 with
 * `halfStep`, a 50p clip's track at 25) gives way to the picture's rate, keeping its drop-frame
 * counting where that rate has one: an editor's timeline runs at the picture's rate.
 */
export function timelineRate(facts: MediaFacts | null, defaultRate: RateId): FrameRate {
  const fallback = rateOf(defaultRate);
  const track = facts?.start?.kind === 'frames' ? normalizeRate(facts.start.rate) : null;
  const picture = facts?.videoRate ? normalizeRate(facts.videoRate) : null;
  if (track && picture && countsInGroups(picture, track)) {
    return normalizeRate({ ...picture, dropFrame: track.dropFrame }) ?? picture;
  }
  const rate = track ?? picture;
  if (!rate) return fallback;
  if (!track && sameRate(rate, fallback)) return fallback;
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

/**
 * The file's place on the timeline, by the folder's settings. `lengthFrames` (on the timeline's
 * rate; default: the media's duration) is how far the clip's captions and markers reach: a start
 * that would take them past midnight is moved back (midnight.ts). Throws TimecodeError on a bad
 * fixed start.
 */
export function timelineOf(
  facts: MediaFacts | null,
  settings: TimelineSettings = DEFAULT_TIMELINE,
  lengthFrames?: number,
): Timeline {
  const rate = timelineRate(facts, settings.defaultRate);
  const start = facts?.start ?? null;
  const mediaStartFrame = start ? startFrameOn(start, rate) : 0;
  const origin: Timeline['origin'] = settings.start !== 'source' ? 'fixed' : (start?.from ?? 'none');
  const asked = settings.start !== 'source' ? fixedStart(settings.start, rate) : mediaStartFrame;
  const length = lengthFrames ?? (facts?.durationMs ? msToFrameCeil(facts.durationMs, rate) : 0);
  const day = withinDay(asked, length, rate);
  return { rate, startFrame: day.startFrame, mediaStartFrame, origin, notes: day.note ? [day.note] : [] };
}

/** The start as an editor reads it: `01:00:00:00 @ 23.976`. */
export const startTimecode = (t: Timeline): string => formatTimecode(t.startFrame, t.rate);

export { TimecodeError };

/**
 * How far past the last word a clip's captions may reach: a caption held to a preset's minimum, a
 * last marker. Part of the one length every format places the clip by, so none disagrees.
 */
export const CAPTION_TAIL_MS = 2000;

/**
 * The clip's place on the timeline as every format written from one transcript takes it: the
 * editor formats, and the TXT and DOCX stamps. Its length is the media's (when known) or the
 * last word's end and a tail, whichever is longer.
 */
export function clipTimeline(
  facts: MediaFacts | null,
  settings: TimelineSettings | undefined,
  lastWordEndMs: number,
  mediaDurationMs?: number,
): Timeline {
  const s = settings ?? DEFAULT_TIMELINE;
  const rate = timelineRate(facts, s.defaultRate);
  const reachMs = Math.max(facts?.durationMs ?? mediaDurationMs ?? 0, lastWordEndMs + CAPTION_TAIL_MS);
  return timelineOf(facts, s, msToFrameCeil(reachMs, rate));
}

/**
 * A paragraph's stamp in TXT and DOCX: the timeline's timecode (`11:42:15:02`) where the clip has
 * a start (its own or a fixed one), as the editor formats label the same moment; the clock from
 * the media's start (`00:01:23`) where it has none.
 */
export function paragraphStamp(t: Timeline, ms: number): string {
  if (t.origin !== 'none') return formatTimecode(t.startFrame + msToFrameFloor(ms, t.rate), t.rate);
  const total = Math.max(0, Math.floor(ms / 1000));
  const pad = (v: number): string => String(v).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}
