// A list of selects as a timeline, the one every string-out format is written from: each bite's
// source in and out snapped to its clip's frames at the clip's own timecode (in down, out up, so no
// word is clipped), optional handles clamped to the media, and record times back to back from the
// timeline's start on the timeline's rate. Pure.
//
// Note (mixed rates): the timeline runs at one rate: the one asked for, else the first bite's clip's
// picture rate, else the default (25). A bite keeps its source in on its own clip's frames and
// takes, on the timeline, the whole timeline frames from there to its last word's end (up), so it
// plays at its own speed, as an NLE places a clip of another rate (no conform), and ends within
// one timeline frame after its words. Media without a
// picture rate (audio) is counted at the timeline's rate: it has no frames of its own to keep.
import { MAX_STRING_OUT_HANDLES } from '../../../common/string-out-formats.js';
import type { MediaFacts } from '../media-facts.js';
import { frameToMs, msToFrameCeil, msToFrameFloor } from '../../../common/frames.js';
import {
  DEFAULT_RATE_ID,
  droppedPerMinute,
  normalizeRate,
  rateLabel,
  rateOf,
  sameRate,
  type FrameRate,
  type RateId,
} from '../timecode/rates.js';
import { formatTimecode, framesPerDay, parseTimecodeParts, partsToFrames } from '../../../common/timecode.js';
import { withinDay } from '../timecode/midnight.js';
import { startFrameOn, timelineRate } from '../timecode/timeline.js';
import { mediaKindOf } from '../transcript/media-kind.js';
import type { Transcript } from '../transcript/transcript.js';
import { readSelect, type SelectColour, type SelectList } from './selects.js';
import { isSpacer, rowsOf } from './rows.js';
import type { SpacerKind } from './spacers.js';

/** One clip a list names, as the runtime found it. */
export interface ClipSource {
  jobId: string;
  /** Where the file is now (the job follows its file: source-path.ts). */
  path: string;
  transcript: Transcript;
  facts: MediaFacts | null;
  mediaDurationMs?: number;
}

/** Why a clip a list names cannot be placed. */
export interface MissingClip {
  jobId: string;
  /** The labels of its selects, as last known. */
  labels: string[];
  /** The file as last known, when the job is. */
  path?: string;
  reason: string;
}

export interface ClipPlacement {
  jobId: string;
  /** Distinct per clip within the string-out: `c1`, `c2`… */
  key: string;
  path: string;
  fileName: string;
  /** The file's name without its extension: the clip's name in the NLE. */
  title: string;
  rate: FrameRate;
  /** The media's own start on `rate` (0 when it has none). */
  mediaStartFrame: number;
  /**
   * Where its timecode labels (EDL, script, the screen) count from: the media's start, moved back
   * by whole hours when the clip runs past midnight (timecode/midnight.ts), as its own editor files
   * are, since no label passes 23:59:59. The formats that count time (FCPXML, xmeml, OTIO) keep
   * `mediaStartFrame`.
   */
  labelStartFrame: number;
  /** Present when `labelStartFrame` moved: what was done, to say to the user. */
  midnightNote?: string;
  /** Media length in frames of `rate` (at least up to the last select). */
  durationFrames: number;
  hasVideo: boolean;
  hasAudio: boolean;
  frameSize?: { width: number; height: number };
}

export interface Bite {
  /** 1-based, in the list's order. */
  number: number;
  selectId: string;
  clip: ClipPlacement;
  label: string;
  note: string;
  colour: SelectColour;
  speaker?: string;
  text: string;
  /** The words' own times, ms from the media's start. */
  wordsFromMs: number;
  wordsToMs: number;
  /** The bite's span in media time with its handles (within the media): what a one-rate format snaps anew. */
  fromMs: number;
  toMs: number;
  /** Frames from the media's start on the clip's rate: the words' in (down) and out (up, exclusive). */
  wordsIn: number;
  wordsOut: number;
  /** The same with the handles, clamped to the media. */
  sourceIn: number;
  sourceOut: number;
  /** Frames from the timeline's start on its rate, back to back. */
  recordIn: number;
  recordOut: number;
}

/** A gap or title card on the timeline: nothing plays there; a title card's text is for the editor. */
export interface PlacedSpacer {
  id: string;
  kind: SpacerKind;
  /** A title card's text. */
  text?: string;
  /** Frames from the timeline's start on its rate: its length is its ms on those frames (nearest, at least one). */
  recordIn: number;
  recordOut: number;
}

/** A row of the timeline in order: a bite or a spacer. */
export type TimelineItem = { bite: Bite; spacer?: undefined } | { spacer: PlacedSpacer; bite?: undefined };

export interface StringOut {
  name: string;
  rate: FrameRate;
  /** The timeline's first frame's label, as a frame count on `rate`. */
  startFrame: number;
  handles: number;
  bites: Bite[];
  /** The gaps and title cards, in order; record times of the bites after them count them. */
  spacers: PlacedSpacer[];
  missing: MissingClip[];
  /** What was chosen where the formats could not follow each bite exactly, to say to the user. */
  notes: string[];
}

export interface StringOutOptions {
  /** `HH:MM:SS:FF` on the timeline's rate; default 01:00:00:00, where NLE sequences start. */
  start?: string;
  /** The timeline's rate; default: the first bite's clip's picture rate, else 25. */
  rate?: RateId;
  /** Frames added before and after each bite, clamped to the media. */
  handles?: number;
}

export const DEFAULT_STRING_OUT_START = '01:00:00:00';
export const MAX_HANDLES = MAX_STRING_OUT_HANDLES;

/** A start label on a rate: a drop-frame label that does not exist means the minute's first frame. */
function startOn(text: string, rate: FrameRate): number {
  const parts = parseTimecodeParts(text);
  const drop = droppedPerMinute(rate);
  const skipped = drop > 0 && parts.seconds === 0 && parts.minutes % 10 !== 0 && parts.frames < drop;
  return partsToFrames(skipped ? { ...parts, frames: drop } : parts, rate);
}

/**
 * A bite's length on the timeline: the timeline frames from its source in (on its clip's frames)
 * up to the end of its words (and handles). On one rate that is the clip's own frame count; on
 * another, the bite still ends within one timeline frame after its last word, never before it.
 */
export function recordLength(sourceIn: number, outMs: number, clip: FrameRate, timeline: FrameRate): number {
  // ⌈(outMs − sourceIn · clip.den · 1000 / clip.num) · timeline.num / (timeline.den · 1000)⌉, in integers.
  const n =
    (BigInt(Math.round(outMs)) * BigInt(clip.num) - BigInt(sourceIn) * BigInt(clip.den) * 1000n) * BigInt(timeline.num);
  const d = BigInt(clip.num) * BigInt(timeline.den) * 1000n;
  if (n <= 0n) return 1;
  return Math.max(1, Number((n + d - 1n) / d));
}

/**
 * A moment of a clip (`ms` after its first frame, which is labelled `mediaStartFrame` on `clip`) as
 * a frame count on another rate: down for an in, up for an out. Exact, in integers.
 */
export function frameOnRate(mediaStartFrame: number, ms: number, clip: FrameRate, to: FrameRate, up: boolean): number {
  const n =
    (BigInt(mediaStartFrame) * BigInt(clip.den) * 1000n + BigInt(Math.round(ms)) * BigInt(clip.num)) * BigInt(to.num);
  const d = BigInt(clip.num) * 1000n * BigInt(to.den);
  return Number(up ? (n + d - 1n) / d : n / d);
}

/** round(frames · from⁻¹ · to), exact: a bite's length moved from its clip's rate to the timeline's. */
export function framesBetweenRates(frames: number, from: FrameRate, to: FrameRate): number {
  if (sameRate(from, to)) return frames;
  const n = BigInt(frames) * BigInt(from.den) * BigInt(to.num);
  const d = BigInt(from.num) * BigInt(to.den);
  return Number((2n * n + d) / (2n * d));
}

function pictureRate(facts: MediaFacts | null): FrameRate | null {
  return facts?.videoRate ? normalizeRate(facts.videoRate) : null;
}

function placement(clip: ClipSource, key: string, timelineRateNow: FrameRate, lastOutMs: number): ClipPlacement {
  const facts = clip.facts;
  const hasPicture = pictureRate(facts) !== null;
  // Audio takes the timeline's rate; picture its own (its timecode track's counting, timeline.ts).
  const rate = hasPicture ? timelineRate(facts, DEFAULT_RATE_ID) : timelineRateNow;
  const mediaStartFrame = facts?.start ? startFrameOn(facts.start, rate) : 0;
  const durationMs = facts?.durationMs ?? clip.mediaDurationMs;
  const durationFrames = Math.max(durationMs ? msToFrameFloor(durationMs, rate) : 0, msToFrameCeil(lastOutMs, rate), 1);
  const day = withinDay(mediaStartFrame, durationFrames, rate);
  const fileName = clip.path.split(/[/\\]/).pop() ?? clip.path;
  const dot = fileName.lastIndexOf('.');
  return {
    jobId: clip.jobId,
    key,
    path: clip.path,
    fileName,
    title: dot > 0 ? fileName.slice(0, dot) : fileName,
    rate,
    mediaStartFrame,
    labelStartFrame: day.startFrame,
    ...(day.note ? { midnightNote: `${fileName}: ${day.note}` } : {}),
    durationFrames,
    hasVideo: facts ? hasPicture : mediaKindOf(fileName).kind === 'video',
    hasAudio: facts ? facts.hasAudio : true,
    ...(facts?.frameSize && hasPicture ? { frameSize: { ...facts.frameSize } } : {}),
  };
}

/**
 * The list as a timeline. `clips` holds every clip found; a select whose clip is not there (its
 * job gone, its media moved or missing, `missing` says why) is left out and named in `missing`.
 */
export function stringOut(
  list: SelectList,
  clips: ReadonlyMap<string, ClipSource>,
  missingWhy: ReadonlyMap<string, { reason: string; path?: string }> = new Map(),
  options: StringOutOptions = {},
): StringOut {
  const handles = Math.max(0, Math.min(MAX_HANDLES, Math.floor(options.handles ?? 0)));
  const firstPicture = list.selects
    .map((s) => pictureRate(clips.get(s.jobId)?.facts ?? null) && clips.get(s.jobId))
    .find((c): c is ClipSource => !!c);
  const rate = options.rate
    ? rateOf(options.rate)
    : firstPicture
      ? timelineRate(firstPicture.facts, DEFAULT_RATE_ID)
      : rateOf(DEFAULT_RATE_ID);
  const startFrame = startOn(options.start ?? DEFAULT_STRING_OUT_START, rate);

  // Each clip's reach: the furthest any of its selects goes, so its media length covers them.
  const reach = new Map<string, number>();
  for (const s of list.selects) reach.set(s.jobId, Math.max(reach.get(s.jobId) ?? 0, s.toMs));
  const placements = new Map<string, ClipPlacement>();
  const missing = new Map<string, MissingClip>();
  const bites: Bite[] = [];
  const spacers: PlacedSpacer[] = [];
  const notes: string[] = [];
  let record = 0;
  for (const s of rowsOf(list)) {
    if (isSpacer(s)) {
      const length = Math.max(1, msToFrameRound(s.ms, rate));
      spacers.push({
        id: s.id,
        kind: s.kind,
        ...(s.kind === 'title' ? { text: s.text ?? '' } : {}),
        recordIn: record,
        recordOut: record + length,
      });
      record += length;
      continue;
    }
    const clip = clips.get(s.jobId);
    if (!clip) {
      const why = missingWhy.get(s.jobId) ?? { reason: 'its job is no longer in this state folder' };
      const m = missing.get(s.jobId) ?? { jobId: s.jobId, labels: [], ...why };
      m.labels.push(s.label ?? s.text);
      missing.set(s.jobId, m);
      continue;
    }
    const reading = readSelect(clip.transcript, s);
    if (reading.words.length === 0) {
      notes.push(`Bite "${reading.label}" has no words left (corrected away) and was left out.`);
      continue;
    }
    let place = placements.get(s.jobId);
    if (!place) {
      place = placement(clip, `c${placements.size + 1}`, rate, reach.get(s.jobId) ?? s.toMs);
      placements.set(s.jobId, place);
      if (place.midnightNote) notes.push(place.midnightNote);
    }
    const first = reading.words[0]!;
    const last = reading.words[reading.words.length - 1]!;
    const wordsIn = msToFrameFloor(first.startMs, place.rate);
    const wordsOut = Math.max(wordsIn + 1, msToFrameCeil(last.endMs, place.rate));
    const sourceIn = Math.max(0, wordsIn - handles);
    const sourceOut = Math.min(Math.max(place.durationFrames, wordsOut), wordsOut + handles);
    // The bite's end in media time: the last word's end and the handles, within the media.
    const outMs = Math.max(
      last.endMs,
      Math.min(last.endMs + frameToMs(handles, place.rate), frameToMs(place.durationFrames, place.rate)),
    );
    const length = recordLength(sourceIn, outMs, place.rate, rate);
    bites.push({
      number: bites.length + 1,
      selectId: s.id,
      clip: place,
      label: reading.label,
      note: s.note,
      colour: s.colour,
      ...(reading.speaker === undefined ? {} : { speaker: reading.speaker }),
      text: reading.text,
      wordsFromMs: first.startMs,
      wordsToMs: last.endMs,
      fromMs: Math.max(0, first.startMs - frameToMs(handles, place.rate)),
      toMs: outMs,
      wordsIn,
      wordsOut,
      sourceIn,
      sourceOut,
      recordIn: record,
      recordOut: record + length,
    });
    record += length;
  }
  const why = options.rate
    ? 'as asked'
    : firstPicture
      ? 'the first clip’s with a picture'
      : 'no clip has a picture rate';
  notes.unshift(`The timeline runs at ${rateLabel(rate)} (${why}) from ${formatTimecode(startFrame, rate)}.`);
  const others = [...placements.values()].filter((p) => p.hasVideo && !sameRate(p.rate, rate));
  if (others.length > 0) {
    const one = others.length === 1;
    const names = others.map((p) => `${p.fileName} (${rateLabel(p.rate)})`).join(', ');
    const its = one ? 'its' : 'their';
    notes.push(
      `The timeline runs at ${rateLabel(rate)}; ${names} keep${one ? 's' : ''} ${its} own rate and play${one ? 's' : ''} at ${its} own speed, each bite ending within a frame after its last word. The EDL counts one rate: there ${its} source timecode is relabelled at ${rateLabel(rate)} (${its} own is in a comment), and a bite may be a frame longer or shorter.`,
    );
  }
  return { name: list.name, rate, startFrame, handles, bites, spacers, missing: [...missing.values()], notes };
}

/** ms as the nearest whole frames of `rate`. */
const msToFrameRound = (ms: number, rate: FrameRate): number => Math.round((ms * rate.num) / (rate.den * 1000));

/** Bites and spacers in timeline order (record in), what every format walks. */
export function timelineItems(so: StringOut): TimelineItem[] {
  const items: TimelineItem[] = [...so.bites.map((bite) => ({ bite })), ...so.spacers.map((spacer) => ({ spacer }))];
  const at = (i: TimelineItem): number => (i.bite ?? i.spacer).recordIn;
  return items.sort((a, b) => at(a) - at(b));
}

/** The timeline's length in its frames: every bite and spacer back to back. */
export function timelineLength(so: StringOut): number {
  const ends = [...so.bites, ...so.spacers].map((x) => x.recordOut);
  return ends.length > 0 ? Math.max(...ends) : 0;
}

/** A frame count of the timeline as its label (`01:00:04:12`). */
export const recordTimecode = (so: StringOut, frames: number): string =>
  formatTimecode(so.startFrame + frames, so.rate);

/** A frame of a bite's clip as its label at the clip's own timecode. */
export const sourceTimecode = (clip: ClipPlacement, frames: number): string =>
  formatTimecode(clip.labelStartFrame + frames, clip.rate);

/**
 * Where a clip's timecode labels start, and how long it is, on `rate`: its media's start, moved back
 * by whole hours when the clip runs past midnight (what the review, the screens and the files show).
 */
export function clipLabels(
  facts: MediaFacts | null,
  rate: FrameRate,
  lengthMs: number,
): { mediaStartFrame: number; labelStartFrame: number; lengthFrames: number } {
  const mediaStartFrame = facts?.start ? startFrameOn(facts.start, rate) : 0;
  const lengthFrames = msToFrameCeil(Math.max(0, lengthMs), rate);
  return { mediaStartFrame, labelStartFrame: withinDay(mediaStartFrame, lengthFrames, rate).startFrame, lengthFrames };
}

/**
 * A typed source timecode (as a frame count of its label) as frames from the media's start: read
 * as the screens and files label the clip, else as the camera's own clock says it (which starts
 * again at 00:00:00:00 after midnight); null when neither is within the media.
 */
export function sourceLabelFrames(label: number, clip: ReturnType<typeof clipLabels>, rate: FrameRate): number | null {
  const day = framesPerDay(rate);
  for (const base of [clip.labelStartFrame, clip.mediaStartFrame, clip.mediaStartFrame - day]) {
    const f = label - base;
    if (f >= 0 && f <= clip.lengthFrames) return f;
  }
  return null;
}
