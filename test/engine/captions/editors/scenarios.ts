// The three sources the editor formats must hold to: a 23.976 MOV whose timecode track starts at
// 01:00:00:00, a 29.97 drop-frame MP4 starting at 00:59:50;00 and a BWF WAV stamped 10:00:00,
// with a diarized transcript whose times fall between frames. Expected frames are computed here
// independently of the engine: smpte-timecode for the starts, exact integer division for times.
import Timecode from 'smpte-timecode';
import { buildCues } from '../../../../main/engine/captions/cues.js';
import type { CaptionWord, NormalizedTranscript } from '../../../../main/engine/captions/normalize.js';
import type { FrameRate, MediaFacts } from '../../../../main/engine/media-facts.js';

export interface Scenario {
  name: string;
  sourcePath: string;
  facts: MediaFacts;
  rate: FrameRate;
  /** The start as the oracle counts it. */
  startFrame: number;
  startText: string;
}

const r23: FrameRate = { num: 24000, den: 1001, dropFrame: false };
const df: FrameRate = { num: 30000, den: 1001, dropFrame: true };
const pal: FrameRate = { num: 25, den: 1, dropFrame: false };
const count = (tc: string, r: FrameRate): number => new Timecode(tc, [r.num, r.den], r.dropFrame).frameCount;

export const SCENARIOS: Scenario[] = [
  {
    name: '23.976 MOV at 01:00:00:00',
    sourcePath: '/Volumes/NAS/Interview A & B.mov',
    facts: {
      durationMs: 20_000,
      hasAudio: true,
      videoRate: r23,
      start: { kind: 'frames', frames: count('01:00:00:00', r23), rate: r23, from: 'tmcd' },
    },
    rate: r23,
    startFrame: count('01:00:00:00', r23),
    startText: '01:00:00:00',
  },
  {
    name: '29.97 DF MP4 at 00:59:50;00',
    sourcePath: '/media/cam b/clip_0001.mp4',
    facts: {
      durationMs: 20_000,
      hasAudio: true,
      videoRate: { num: 30000, den: 1001, dropFrame: false },
      start: { kind: 'frames', frames: count('00:59:50;00', df), rate: df, from: 'tmcd' },
    },
    rate: df,
    startFrame: count('00:59:50;00', df),
    startText: '00:59:50;00',
  },
  {
    name: 'BWF WAV stamped 10:00:00',
    sourcePath: '/audio/Sound Devices/T001.WAV',
    facts: {
      durationMs: 20_000,
      hasAudio: true,
      videoRate: null,
      start: { kind: 'samples', samples: 10 * 3600 * 48_000, sampleRate: 48_000, from: 'bext' },
    },
    rate: pal,
    startFrame: count('10:00:00:00', pal),
    startText: '10:00:00:00',
  },
];

let t = 0;
const said = (speaker: string, text: string, start: number, each = 283): CaptionWord[] =>
  text.split(' ').map((w, i) => {
    t = start + i * each;
    return { text: w, startMs: t, endMs: t + each - 17, speaker, spaceBefore: true };
  });

/** Two speakers (one renamed to a name starting with a digit), times off the frame grid, pauses between cues. */
export const WORDS: CaptionWord[] = [
  ...said('Speaker 1', 'Good morning, and welcome.', 1013),
  ...said('2nd Host', 'Thanks for having me & <all> of you.', 4037),
  ...said('Speaker 1', 'So tell us how the budget for the new season came together this year?', 8123, 211),
];

export const TRANSCRIPT: NormalizedTranscript = {
  words: WORDS,
  speakers: ['Speaker 1', '2nd Host'],
  timeUnit: 'ms',
  text: '',
};

export const CUES = buildCues(WORDS);

/** Exact ⌊ms · rate⌋ and ⌈ms · rate⌉ in frames. */
export const floorFrame = (ms: number, r: FrameRate): number =>
  Number((BigInt(ms) * BigInt(r.num)) / (BigInt(r.den) * 1000n));
export const ceilFrame = (ms: number, r: FrameRate): number => {
  const n = BigInt(ms) * BigInt(r.num);
  const d = BigInt(r.den) * 1000n;
  return Number((n + d - 1n) / d);
};

/** Where each caption must land, from the media's start. */
export const expectedCaptions = (r: FrameRate): Array<{ start: number; end: number }> =>
  CUES.map((c) => ({ start: floorFrame(c.startMs, r), end: ceilFrame(c.endMs, r) }));

/** Markers: one per speaker turn, at its first word. */
export const TURNS = [
  { name: 'Speaker 1', ms: 1013 },
  { name: '2nd Host', ms: 4037 },
  { name: 'Speaker 1', ms: 8123 },
];

export const oracleTimecode = (frames: number, r: FrameRate): string =>
  new Timecode(frames, [r.num, r.den], r.dropFrame).toString();
export const oracleFrames = (tc: string, r: FrameRate): number => count(tc, r);
