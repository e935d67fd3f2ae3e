// Measures what was really uploaded: a link (C8), nothing, something that is not media, or media
// with its real duration (the app's own media probe: QuickTime, MP4, MXF, WAV, MP3, FLAC, WebM, ...).
import { open, readFile } from 'node:fs/promises';
import { readMedia } from '../adapters/media/probe.js';
import type { MediaReading } from '../adapters/media/probe.js';
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
    };

const { minSpeechMs: MIN_SPEECH_MS, silencePeak: SILENCE_PEAK } = SANDBOX_BEHAVIOUR;

export async function probeMedia(path: string, bytes: number): Promise<MediaInfo> {
  if (bytes === 0) return { kind: 'empty' };
  if (bytes <= LINK_BODY.maxBytes) {
    const url = asLink(await readFile(path));
    if (url !== null) return { kind: 'link', url };
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
  // A container with no length (an MP4 whose `moov` never arrived, a WAV header alone) is not media
  // the processor can read.
  if (container === null || facts.durationMs === null) return { kind: 'invalid' };
  const durationMs = facts.durationMs;
  let speechless = !facts.hasAudio || durationMs < MIN_SPEECH_MS;
  if (!speechless && container === 'Wave' && media.bitsPerSample === 16) {
    speechless = (await wavPeak(path)) < SILENCE_PEAK;
  }
  return { kind: 'media', durationMs, ...described, speechless };
}

/**
 * Note: bench and test fixtures only. A file whose comment tag reads
 * `sluice-sandbox-duration-ms=<N>` is taken by the sandbox as N ms long, so a soak can send hours
 * of simulated media as files of a second (`ffmpeg -metadata comment=…`, or a RIFF ICMT chunk).
 * Only the sandbox reads it; the service never would, and Sluice itself never writes it.
 */
export const DURATION_TAG = 'sluice-sandbox-duration-ms=';

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
