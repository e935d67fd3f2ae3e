// Measures what was really uploaded: a link (C8), nothing, something that is not media, or media
// with its real duration (the app's own media probe: QuickTime, MP4, MXF, WAV, MP3, FLAC, WebM, ...).
// Note: the probe lives in main/media/, below both the adapters and the sandbox, so the sandbox
// measures media as the product does without reaching into the product's adapters.
import { open, readFile } from 'node:fs/promises';
import { readMedia } from '../media/probe.js';
import { pcmFormatOf, type PcmFormat } from '../media/wav-length.js';
import type { MediaReading } from '../media/probe.js';
import { LINK_BODY, SANDBOX_BEHAVIOUR } from '../service/policy.js';

export type MediaInfo =
  | { kind: 'empty' }
  | { kind: 'link'; url: string }
  /** A link (C8) whose media could not be fetched, or was not audio or video (link-media.ts). */
  | { kind: 'link-failed'; url: string; reason: string; notMedia: boolean }
  | { kind: 'invalid' }
  | {
      kind: 'media';
      durationMs: number;
      channels: number | null;
      sampleRate: number | null;
      container: string | null;
      /** Valid media without audible content: exported as an empty transcription (§6.6). */
      speechless: boolean;
      /** What the file says, from its test-only speech tag (`SPEECH_TAG`); absent: simulated speech. */
      speech?: string;
    };

const { minSpeechMs: MIN_SPEECH_MS, silencePeak: SILENCE_PEAK } = SANDBOX_BEHAVIOUR;

export async function probeMedia(path: string, bytes: number): Promise<MediaInfo> {
  if (bytes === 0) return { kind: 'empty' };
  if (bytes <= LINK_BODY.maxBytes) {
    const url = asLink(await readFile(path));
    if (url !== null) return { kind: 'link', url };
  }
  const plain = await plainWavOf(path, bytes).catch(() => undefined);
  if (plain) {
    const { durationMs, bitsPerSample, ...described } = plain;
    let speechless = durationMs < MIN_SPEECH_MS;
    if (!speechless && bitsPerSample === 16) speechless = (await wavPeak(path)) < SILENCE_PEAK;
    return { kind: 'media', durationMs, ...described, container: 'Wave', speechless };
  }
  let media: MediaReading;
  try {
    media = await readMedia(path);
  } catch {
    return { kind: 'invalid' };
  }
  const { facts, container } = media;
  const described = {
    channels: media.channels,
    sampleRate: media.sampleRate,
    container,
  };
  const claimed = claimedDurationMs(media.comment);
  if (claimed !== undefined) return { kind: 'media', durationMs: claimed, ...described, speechless: false };
  const speech = taggedSpeech(media.comment);
  // A container with no length (an MP4 whose `moov` never arrived, a WAV header alone) is not media
  // the processor can read.
  if (container === null || facts.durationMs === null) return { kind: 'invalid' };
  const durationMs = facts.durationMs;
  let speechless = !facts.hasAudio || durationMs < MIN_SPEECH_MS;
  if (!speechless && container === 'Wave' && media.bitsPerSample === 16) {
    speechless = (await wavPeak(path)) < SILENCE_PEAK;
  }
  return { kind: 'media', durationMs, ...described, speechless, ...(speech && !speechless ? { speech } : {}) };
}

/**
 * Note: bench and test fixtures only. A file whose comment tag reads
 * `sluice-sandbox-duration-ms=<N>` is taken by the sandbox as N ms long, so a soak can send hours
 * of simulated media as files of a second (`ffmpeg -metadata comment=…`, or a RIFF ICMT chunk).
 * Only the sandbox reads it; the service never would, and Sluice itself never writes it.
 */
export const DURATION_TAG = 'sluice-sandbox-duration-ms=';

/**
 * Note: test fixtures only. A file whose comment tag reads `sluice-sandbox-speech=<text>` (speech
 * generated from that very text) is heard by the sandbox's simulated recognition as saying it,
 * spelt as plain recognition spells (transcript.ts), so what the service's vocabulary changes can
 * be tested. Only the sandbox reads it; the service never would, and Sluice never writes it.
 */
export const SPEECH_TAG = 'sluice-sandbox-speech=';

function taggedSpeech(comment: string | null): string | undefined {
  if (comment === null || !comment.startsWith(SPEECH_TAG)) return undefined;
  const text = comment.slice(SPEECH_TAG.length).replace(/\0+$/, '').trim();
  // A RIFF INFO chunk is read as Latin-1: its UTF-8 bytes are decoded again when they are UTF-8.
  const utf8 = ![...text].some((c) => c.charCodeAt(0) > 0xff) ? Buffer.from(text, 'latin1').toString('utf8') : text;
  const said = utf8.includes('\ufffd') ? text : utf8;
  return said === '' ? undefined : said;
}

function claimedDurationMs(comment: string | null): number | undefined {
  if (comment === null || !comment.startsWith(DURATION_TAG)) return undefined;
  const n = Number(comment.slice(DURATION_TAG.length).replace(/\0+$/, '').trim());
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function asLink(buf: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return null;
  }
  const trimmed = text.trim();
  return LINK_BODY.pattern.test(trimmed) ? trimmed : null;
}

/** Chunks a plain WAV may hold besides its samples' format and data: padding and a fact chunk. */
const PLAIN_CHUNKS = new Set(['fmt ', 'fact', 'data', 'JUNK', 'PAD ']);

export interface PlainWav {
  durationMs: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
}

/**
 * A plain WAV, read from its own header: RIFF, PCM or float samples, and no chunk but those of
 * `PLAIN_CHUNKS` before its data. MediaInfo's pass over such a file cost the sandbox about 3.4 ms of
 * its thread per upload, 40 % of what it did per upload (measured: 300 clips of 0.25 s), and the
 * sandbox shares the machine with the app under test. Anything else (a bext start, a LIST comment,
 * iXML, RF64, a data size past the end or unset) is MediaInfo's to read: undefined.
 */
export async function plainWavOf(path: string, size: number): Promise<PlainWav | undefined> {
  const fh = await open(path, 'r');
  let head: Buffer;
  try {
    head = Buffer.alloc(Math.min(size, 4096));
    head = head.subarray(0, (await fh.read(head, 0, head.length, 0)).bytesRead);
  } finally {
    await fh.close();
  }
  if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') {
    return undefined;
  }
  let fmt: PcmFormat | undefined;
  for (let at = 12; at + 8 <= head.length;) {
    const id = head.toString('latin1', at, at + 4);
    const length = head.readUInt32LE(at + 4);
    if (!PLAIN_CHUNKS.has(id)) return undefined;
    if (id === 'fmt ') {
      if (at + 8 + 16 > head.length) return undefined;
      fmt = pcmFormatOf(head.subarray(at + 8, at + 8 + Math.min(length, 40)));
      if (!fmt || fmt.channels === 0) return undefined;
    } else if (id === 'data') {
      if (!fmt || length === 0 || length === 0xffffffff || at + 8 + length > size) return undefined;
      const { bytesPerSecond, ...described } = fmt;
      return { durationMs: Math.round((length / bytesPerSecond) * 1000), ...described };
    }
    at += 8 + length + (length % 2);
  }
  return undefined;
}

/** Peak |sample| / 32768 of a 16-bit PCM WAV, reading at most the first 16 MB of samples. */
async function wavPeak(path: string): Promise<number> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    let off = 12;
    let dataAt = -1;
    let dataLen = 0;
    while (off + 8 <= bytesRead) {
      const id = head.toString('ascii', off, off + 4);
      const len = head.readUInt32LE(off + 4);
      if (id === 'data') {
        dataAt = off + 8;
        dataLen = len;
        break;
      }
      off += 8 + len + (len % 2);
    }
    if (dataAt < 0) return 1;
    const buf = Buffer.alloc(Math.min(dataLen, 16 * 1024 * 1024));
    const r = await fh.read(buf, 0, buf.length, dataAt);
    let peak = 0;
    for (let i = 0; i + 1 < r.bytesRead; i += 2) peak = Math.max(peak, Math.abs(buf.readInt16LE(i)));
    return peak / 32768;
  } finally {
    await fh.close();
  }
}
