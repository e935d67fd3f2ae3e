// A PCM WAV's length read from its own chunks (fmt and data, a handful of small reads), for the
// check of a file added by hand. MediaInfo reads the same from the same header, but its pass costs
// about 2.5 ms of the main thread per file (measured on 1,000 clips of 0.25 s), most of a dropped
// folder's intake, while uploads of the first files wait on the same thread. Anything but plain
// PCM or float samples (compressed WAV, a header with no data size, RF64 without ds64) is left to
// MediaInfo: its length is not simply bytes over rate.
import { readAt, type ByteReader } from './byte-reader.js';

/** Format tags whose length is the data's size over the byte rate: PCM, IEEE float, extensible. */
const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;
/** Chunks walked before the data chunk: BWF and recorder files carry a few (bext, iXML, LIST, JUNK). */
const MAX_CHUNKS = 64;

/** The length in ms of a PCM or float WAV (RIFF or RF64), through the caller's handle; undefined for anything else. */
export async function pcmWavLengthOf(fh: ByteReader, fileSize: number): Promise<number | undefined> {
  const head = await readAt(fh, 0, 12);
  if (head.length < 12 || head.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  const magic = head.toString('latin1', 0, 4);
  if (magic !== 'RIFF' && magic !== 'RF64') return undefined;
  let bytesPerSecond: number | undefined;
  let dataSize64: number | undefined;
  let at = 12;
  for (let i = 0; i < MAX_CHUNKS && at + 8 <= fileSize; i++) {
    const h = await readAt(fh, at, 8);
    if (h.length < 8) return undefined;
    const id = h.toString('latin1', 0, 4);
    const size = h.readUInt32LE(4);
    if (id === 'ds64') {
      const body = await readAt(fh, at + 8, 16);
      if (body.length < 16) return undefined;
      dataSize64 = Number(body.readBigUInt64LE(8));
    } else if (id === 'fmt ') {
      bytesPerSecond = pcmFormatOf(await readAt(fh, at + 8, Math.min(size, 40)))?.bytesPerSecond;
      if (bytesPerSecond === undefined) return undefined;
    } else if (id === 'data') {
      const dataSize = magic === 'RF64' && size === 0xffffffff ? dataSize64 : size;
      // No size (a writer streaming to a pipe leaves 0 or all ones), or no fmt before the data.
      if (!dataSize || dataSize === 0xffffffff || bytesPerSecond === undefined) return undefined;
      // Data said to run past the end: a copy cut short, for the wholeness check to name.
      if (at + 8 + dataSize > fileSize) return undefined;
      return Math.round((dataSize / bytesPerSecond) * 1000);
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** A fmt chunk of plain samples: what the sandbox reports of a plain WAV, and its bytes per second. */
export interface PcmFormat {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  bytesPerSecond: number;
}

/** Plain samples (PCM, float, or extensible of either) from the fmt chunk's body; undefined for any other coding. */
export function pcmFormatOf(fmt: Buffer): PcmFormat | undefined {
  if (fmt.length < 16) return undefined;
  let tag = fmt.readUInt16LE(0);
  const sampleRate = fmt.readUInt32LE(4);
  const blockAlign = fmt.readUInt16LE(12);
  // WAVE_FORMAT_EXTENSIBLE: the coding is the first two bytes of the sub-format GUID.
  if (tag === EXTENSIBLE) tag = fmt.length >= 26 ? fmt.readUInt16LE(24) : 0;
  if ((tag !== PCM && tag !== FLOAT) || sampleRate === 0 || blockAlign === 0) return undefined;
  return {
    channels: fmt.readUInt16LE(2),
    sampleRate,
    bitsPerSample: fmt.readUInt16LE(14),
    bytesPerSecond: sampleRate * blockAlign,
  };
}
