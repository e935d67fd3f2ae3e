// The one media probe: what a file says about itself (duration, audio, frame rate, where its own
// timeline starts), for the app's estimates and intake and for the sandbox alike.
//
// Note: MediaInfoLib (mediainfo.js, WebAssembly) rather than music-metadata. music-metadata is a
// tag reader: it gives no duration for QuickTime (`qt`) files, so every .mov measured as 0 ms, and
// it reads neither `tmcd` timecode tracks, MXF timecode nor a BWF `bext` TimeReference. MediaInfoLib
// reads all of these from the container's headers (a few hundred KB, wherever the `moov` sits), with
// no native build and no external binary. One instance is kept and used by one file at a time.
import { open } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import mediaInfoFactory from 'mediainfo.js';
import type { MediaInfo } from 'mediainfo.js';
import type { FrameRate, MediaFacts, SourceStart } from '../engine/media-facts.js';
import { readSidecarStart } from './sony-sidecar.js';
import { ntscNominalOf, ntscRate, readTimecodeLabel } from '../../common/timecode.js';

type Track = Readonly<Record<string, unknown>>;

/** What the probe read, beyond the facts: what the sandbox needs to simulate the service. */
export interface MediaReading {
  readonly facts: MediaFacts;
  /** MediaInfo's container name (`MPEG-4`, `Wave`, `MXF`, …); null when the content is no known format. */
  readonly container: string | null;
  readonly channels: number | null;
  readonly sampleRate: number | null;
  readonly bitsPerSample: number | null;
  /** The file's comment tag, when it has one. */
  readonly comment: string | null;
}

export const NO_FACTS: MediaFacts = { durationMs: null, hasAudio: false, videoRate: null, start: null };

/** Duration, audio, frame rate and start of the file; NO_FACTS when it is not media MediaInfo knows. */
export async function probeMediaFacts(path: string): Promise<MediaFacts> {
  return (await readMedia(path)).facts;
}

/** Reads the file's container headers. Throws only when the file cannot be opened or read. */
export async function readMedia(path: string): Promise<MediaReading> {
  const tracks = await analyse(path);
  const reading = readingOf(tracks);
  // A camera that keeps its timecode in an XML sidecar (Sony XAVC): read it when the media has none.
  if (reading.facts.start || reading.facts.startNote || reading.facts.videoRate === null) return reading;
  const sidecar = await readSidecarStart(path);
  if (sidecar === null) return reading;
  if ('refused' in sidecar)
    return { ...reading, facts: { ...reading.facts, startNote: `${sidecar.refused}: ${ZERO_START}` } };
  return { ...reading, facts: { ...reading.facts, start: sidecar } };
}

/** What a refused start becomes, as the job says it. */
const ZERO_START = 'the media’s start is taken as 00:00:00:00.';

let instance: Promise<MediaInfo<'object'>> | undefined;
let queue: Promise<unknown> = Promise.resolve();

function mediaInfo(): Promise<MediaInfo<'object'>> {
  instance ??= mediaInfoFactory({ format: 'object', full: true });
  return instance;
}

/**
 * Starts loading the probe now, to have it ready when the first file is read: its WebAssembly
 * compiles on V8's own threads while the caller goes on (about 100 ms of a short command's run).
 */
export function warmMediaProbe(): void {
  mediaInfo().catch(() => undefined);
}

/**
 * For a command that runs once and exits: MediaInfo's WebAssembly stays on V8's baseline compiler.
 * The optimising tier compiles its busiest functions in the background, and a process cannot end
 * before that compile does: a 1 KB WAV's `sluice process` spent 120 ms after its last line waiting
 * for code it would never run (measured; 20 ms with this). A file's probe takes about a tenth
 * longer on baseline code (2.9 ms against 2.6 for a short WAV). Only before the first compile.
 */
export function probeForOneRun(): void {
  if (instance === undefined) setFlagsFromString('--liftoff-only');
}

/** One analysis at a time: a MediaInfo instance holds one file's state. */
function analyse(path: string): Promise<Track[]> {
  const run = queue.then(() => analyseNow(path));
  queue = run.catch(() => undefined);
  return run;
}

async function analyseNow(path: string): Promise<Track[]> {
  const mi = await mediaInfo();
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const result = await mi.analyzeData(size, async (chunk, offset) => {
      const buf = Buffer.alloc(Math.max(0, Math.min(chunk, size - offset)));
      const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
      return buf.subarray(0, bytesRead);
    });
    return (result.media?.track ?? []) as unknown as Track[];
  } finally {
    await fh.close();
  }
}

function readingOf(tracks: Track[]): MediaReading {
  const general = tracks.find((t) => t['@type'] === 'General');
  const video = tracks.find((t) => t['@type'] === 'Video');
  const audio = tracks.find((t) => t['@type'] === 'Audio');
  const container = str(general?.Format);
  if (!general || container === null) {
    return { facts: NO_FACTS, container: null, channels: null, sampleRate: null, bitsPerSample: null, comment: null };
  }
  const seconds = num(general.Duration) ?? num(video?.Duration) ?? num(audio?.Duration);
  const durationMs = seconds !== null && seconds > 0 ? Math.round(seconds * 1000) : null;
  const videoRate = video ? trackRate(video) : null;
  const sampleRate = num(audio?.SamplingRate);
  const width = num(video?.Width);
  const height = num(video?.Height);
  const own = startOf(tracks, container, audio, sampleRate);
  const facts: MediaFacts = {
    durationMs,
    hasAudio: audio !== undefined,
    videoRate,
    ...(width && height && width > 0 && height > 0 ? { frameSize: { width, height } } : {}),
    start: 'refused' in own ? null : own.start,
    ...('refused' in own ? { startNote: `${own.refused}: ${ZERO_START}` } : {}),
  };
  return {
    facts,
    container,
    channels: num(audio?.Channels),
    sampleRate,
    bitsPerSample: num(audio?.BitDepth),
    comment: str(general.Comment) ?? str(extra(general).comment),
  };
}

/**
 * Where the media's own timeline starts: a QuickTime/MP4 `tmcd` track or an MXF timecode component
 * (MediaInfo's "Other" tracks, the material package's first), else a BWF `bext` TimeReference.
 */
function startOf(
  tracks: Track[],
  container: string,
  audio: Track | undefined,
  sampleRate: number | null,
): { start: SourceStart | null } | { refused: string } {
  for (const t of tracks) {
    if (t['@type'] !== 'Other') continue;
    const format = str(t.Format) ?? '';
    const from = format === 'QuickTime TC' ? 'tmcd' : format === 'MXF TC' ? 'mxf' : null;
    const label = str(t.TimeCode_FirstFrame);
    const rate = trackRate(t);
    if (from === null || label === null || rate === null) continue;
    const read = readTimecodeLabel(label, rate);
    if (read === null) continue;
    if ('refused' in read) return read;
    return { start: { kind: 'frames', frames: read.frames, rate: read.rate, from } };
  }
  // Note: MediaInfo gives the bext TimeReference as a delay in seconds (to the nanosecond), so the
  // sample count is exact once multiplied back and rounded.
  const delay = num(audio?.Delay);
  if (container === 'Wave' && delay !== null && sampleRate !== null && str(audio?.Delay_Source)?.includes('bext')) {
    return { start: { kind: 'samples', samples: Math.round(delay * sampleRate), sampleRate, from: 'bext' } };
  }
  return { start: null };
}

function trackRate(t: Track): FrameRate | null {
  return probedRate(num(t.FrameRate_Num), num(t.FrameRate_Den), num(t.FrameRate));
}

function extra(t: Track): Track {
  const e = t.extra;
  return e !== null && typeof e === 'object' ? (e as Track) : {};
}

function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** A rate from a numerator/denominator pair when given, else from its decimal; null when neither. */
function probedRate(numerator: number | null, denominator: number | null, decimal: number | null): FrameRate | null {
  let num: number;
  let den: number;
  if (numerator !== null && denominator !== null && numerator > 0 && denominator > 0) {
    num = numerator;
    den = denominator;
  } else if (decimal !== null && decimal > 0) {
    // The NTSC-family rates written as decimals (23.976, 29.97, 59.94, …) as their exact fraction.
    const ntsc = ntscNominalOf(decimal);
    if (ntsc !== null) {
      ({ num, den } = ntscRate(ntsc));
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
