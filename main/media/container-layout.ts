// Reads a media file's container layout for the wholeness check (engine/container-whole.ts): the
// top-level boxes of an MP4/MOV (16 bytes read per box, however large the file), a WAV's RIFF
// header, where an MXF's header places its footer (and the 16 bytes there), or an MP3's Xing/Info
// byte count. Nothing else is read, so it is cheap enough to ask on every settle of a stalled copy.
import { open } from 'node:fs/promises';
import { isMediaName } from '../../common/media-files.js';
import {
  judgeContainer,
  layoutVouches,
  riffOverrun,
  type BoxExtent,
  type ContainerLayout,
  type Wholeness,
} from '../engine/container-whole.js';
import { readAt, type ByteReader } from './byte-reader.js';

/** Box types that may open an ISO BMFF file; anything else is not read as one. */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot', 'uuid', 'styp', 'sidx', 'moof']);
/** A bound on the walk: real files have a handful of top-level boxes, fragmented ones a few thousand. */
const MAX_BOXES = 100_000;

export async function readContainerLayout(path: string): Promise<ContainerLayout> {
  const fh = await open(path, 'r');
  try {
    return await layoutOf(fh);
  } finally {
    await fh.close();
  }
}

/** The layout read through a handle the caller opened (and closes). */
async function layoutOf(fh: ByteReader, known?: number, mediaNamed = false): Promise<ContainerLayout> {
  const size = known ?? (await fh.stat()).size;
  const head = await readAt(fh, 0, 16);
  if (head.length >= 12) {
    const magic = head.toString('latin1', 0, 4);
    if ((magic === 'RIFF' || magic === 'RF64') && head.toString('latin1', 8, 12) === 'WAVE') {
      return { kind: 'riff', fileSize: size, declaredSize: await riffSize(fh, magic, head.readUInt32LE(4)) };
    }
  }
  if (head.length >= 8 && FIRST_BOXES.has(head.toString('latin1', 4, 8))) return await walkBoxes(fh, size);
  if (isPartitionKey(head)) return await mxfLayout(fh, size);
  if (head.toString('latin1', 0, 3) === 'ID3' || isMpegAudioSync(head, 0)) return await mpegAudioLayout(fh, size, head);
  // Every audio and video container Sluice takes has a non-zero byte in its first 16 (raw data
  // named otherwise may start with silence): zeros there are a reserved copy not written yet.
  if (mediaNamed && head.length === 16 && head.every((b) => b === 0)) return { kind: 'unwritten', fileSize: size };
  return { kind: 'other' };
}

/** Whether the file's container is whole; a file that cannot be read is left to the other checks. */
export async function containerWholeness(path: string): Promise<Wholeness> {
  try {
    const fh = await open(path, 'r');
    try {
      return judgeContainer(await layoutOf(fh, undefined, isMediaName(path)));
    } finally {
      await fh.close();
    }
  } catch {
    return { whole: true };
  }
}

/**
 * The wholeness through the caller's handle, and whether the container vouches for it (see
 * layoutVouches); a file that cannot be read is left to the other checks, unvouched.
 */
export async function containerCheckOf(
  fh: ByteReader,
  size: number | undefined,
  file: string,
): Promise<{ wholeness: Wholeness; vouched: boolean }> {
  try {
    const layout = await layoutOf(fh, size, isMediaName(file));
    return { wholeness: judgeContainer(layout), vouched: layoutVouches(layout) };
  } catch {
    return { wholeness: { whole: true }, vouched: false };
  }
}

/** Why a WAV would upload far more than its header declares (engine's riffOverrun), read through the caller's handle. */
export async function riffOverrunOf(fh: ByteReader, size: number): Promise<string | undefined> {
  const layout = await layoutOf(fh, size).catch(() => undefined);
  return layout ? riffOverrun(layout) : undefined;
}

async function riffSize(fh: ByteReader, magic: string, size32: number): Promise<number | null> {
  if (magic === 'RF64') {
    // RF64 keeps the real size in its ds64 chunk, right after the WAVE id.
    const ds64 = await readAt(fh, 12, 16);
    if (ds64.length < 16 || ds64.toString('latin1', 0, 4) !== 'ds64') return null;
    return Number(ds64.readBigUInt64LE(8));
  }
  return size32 === 0 || size32 === 0xffffffff ? null : size32;
}

async function walkBoxes(fh: ByteReader, fileSize: number): Promise<ContainerLayout> {
  const boxes: BoxExtent[] = [];
  let at = 0;
  while (at < fileSize && boxes.length < MAX_BOXES) {
    const h = await readAt(fh, at, 16);
    if (h.length < 8) return { kind: 'isobmff', fileSize, boxes, brokenAt: at };
    const type = h.toString('latin1', 4, 8);
    if (!/^[\x20-\x7e©]{4}$/.test(type)) return { kind: 'isobmff', fileSize, boxes, brokenAt: at };
    const size32 = h.readUInt32BE(0);
    let size: number | null;
    if (size32 === 1) {
      if (h.length < 16) return { kind: 'isobmff', fileSize, boxes, brokenAt: at };
      size = Number(h.readBigUInt64BE(8));
    } else if (size32 === 0) {
      size = null;
    } else {
      size = size32;
    }
    if (size !== null && size < 8) return { kind: 'isobmff', fileSize, boxes, brokenAt: at };
    boxes.push({ type, start: at, size });
    if (size === null) break;
    at += size;
  }
  return { kind: 'isobmff', fileSize, boxes };
}

/** The first 13 bytes of every MXF partition pack's key (header, body, footer; SMPTE 377 table 13). */
const PARTITION_KEY = Buffer.from([0x06, 0x0e, 0x2b, 0x34, 0x02, 0x05, 0x01, 0x01, 0x0d, 0x01, 0x02, 0x01, 0x01]);
const isPartitionKey = (b: Buffer): boolean => b.length >= 16 && b.subarray(0, 13).equals(PARTITION_KEY);

/**
 * The header partition pack's FooterPartition field: after the 16-byte key and its BER length,
 * versions (2+2), KAGSize (4), ThisPartition (8), PreviousPartition (8), then FooterPartition (8).
 */
async function mxfLayout(fh: ByteReader, fileSize: number): Promise<ContainerLayout> {
  const pack = await readAt(fh, 0, 64);
  const first = pack[16] ?? 0;
  const lengthBytes = first & 0x80 ? 1 + (first & 0x7f) : 1;
  const value = 16 + lengthBytes;
  if (pack.length < value + 32) return { kind: 'mxf', fileSize, footerAt: null, footerThere: null };
  const footer = Number(pack.readBigUInt64BE(value + 24));
  if (footer === 0) return { kind: 'mxf', fileSize, footerAt: null, footerThere: null };
  const footerThere = footer < fileSize ? isPartitionKey(await readAt(fh, footer, 16)) : null;
  return { kind: 'mxf', fileSize, footerAt: footer, footerThere };
}

const isMpegAudioSync = (b: Buffer, at: number): boolean =>
  b.length >= at + 4 && b[at] === 0xff && ((b[at + 1] ?? 0) & 0xe0) === 0xe0 && (((b[at + 1] ?? 0) >> 1) & 3) === 1;

/**
 * An MP3's Xing or Info header (LAME, ffmpeg and most encoders write one): in the first frame, after
 * the 4-byte frame header and the side information (MPEG-1: 17 bytes mono, 32 otherwise; MPEG-2 and
 * 2.5: 9 and 17), its flags say whether a byte count follows (bit 1, after the frame count of bit 0).
 * That count is the audio stream's length from its first frame, after any ID3v2 tag.
 */
async function mpegAudioLayout(fh: ByteReader, fileSize: number, head: Buffer): Promise<ContainerLayout> {
  let at = 0;
  if (head.toString('latin1', 0, 3) === 'ID3') {
    if (head.length < 10) return { kind: 'mpeg-audio', fileSize, streamEnd: null };
    const tag = ((head[6]! & 0x7f) << 21) | ((head[7]! & 0x7f) << 14) | ((head[8]! & 0x7f) << 7) | (head[9]! & 0x7f);
    at = 10 + tag + (head[5]! & 0x10 ? 10 : 0);
  }
  const frame = await readAt(fh, at, 4 + 32 + 16);
  if (!isMpegAudioSync(frame, 0)) return { kind: 'mpeg-audio', fileSize, streamEnd: null };
  const mpeg1 = ((frame[1]! >> 3) & 3) === 3;
  const mono = ((frame[3]! >> 6) & 3) === 3;
  const x = 4 + (mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17);
  if (frame.length < x + 16) return { kind: 'mpeg-audio', fileSize, streamEnd: null };
  const name = frame.toString('latin1', x, x + 4);
  if (name !== 'Xing' && name !== 'Info') return { kind: 'mpeg-audio', fileSize, streamEnd: null };
  const flags = frame.readUInt32BE(x + 4);
  if (!(flags & 2)) return { kind: 'mpeg-audio', fileSize, streamEnd: null };
  const bytes = frame.readUInt32BE(x + 8 + (flags & 1 ? 4 : 0));
  return { kind: 'mpeg-audio', fileSize, streamEnd: at + bytes };
}
