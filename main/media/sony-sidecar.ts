// A Sony XAVC/XDCAM clip's timecode lives beside it, not in it: `C0001.MP4` has no `tmcd` track,
// and `C0001M01.XML` (NonRealTimeMeta) holds `<LtcChangeTable tcFps="25">` with the first frame's
// timecode in `<LtcChange frameCount="0" value="…"/>`. Professional bodies write the value as the
// LTC word's four bytes FF SS MM HH in BCD, the drop-frame flag in the frames byte (0x40); Alpha
// bodies may write `HH:MM:SS:FF`. The rate's 1000/1001 comes from `<VideoFrame formatFps="29.97p">`.
// At high frame rates (59.94p, 50p, 119.88p on FX6, FX3, A7S III, A1, FX30) the LTC still counts at
// 30 or 25 and `halfStep="true"` says each LTC frame spans two of the picture's: the start is then
// converted to the picture's rate (frame counts doubled), which is the rate the clip is edited at.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { convert as Convert } from 'xmlbuilder2';
import type { FrameRate, SourceStart } from '../engine/media-facts.js';
import { canDropFrame, ntscRate, readTimecodeLabel } from '../../common/timecode.js';

type Node = Readonly<Record<string, unknown>>;

/** The sidecar's possible names beside `media`: `C0001M01.XML` (and lower-case, as copied by some tools). */
export function sidecarPaths(media: string): string[] {
  const dir = path.dirname(media);
  const base = path.basename(media, path.extname(media));
  return [`${base}M01.XML`, `${base}M01.xml`, `${base}m01.xml`].map((n) => path.join(dir, n));
}

const asNode = (v: unknown): Node | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : undefined;
const list = (v: unknown): Node[] => (Array.isArray(v) ? v : [v]).map(asNode).filter((n): n is Node => !!n);

/** `FFSSMMHH` (BCD, as the LTC word stores it) or `HH:MM:SS:FF` → a label and its drop-frame flag. */
export function ltcLabel(value: string): { label: string; dropFrame: boolean } | null {
  const v = value.trim();
  if (/^\d{2}:\d{2}:\d{2}[:;.]\d{2}$/.test(v)) return { label: v, dropFrame: /[;.]/.test(v) };
  if (!/^[0-9a-fA-F]{8}$/.test(v)) return null;
  const byte = (i: number): number => parseInt(v.slice(i * 2, i * 2 + 2), 16);
  const bcd = (b: number): number | null => ((b & 0xf) > 9 || b >> 4 > 9 ? null : (b >> 4) * 10 + (b & 0xf));
  const [ff, ss, mm, hh] = [byte(0), byte(1), byte(2), byte(3)];
  const parts = [bcd(hh & 0x3f), bcd(mm & 0x7f), bcd(ss & 0x7f), bcd(ff & 0x3f)];
  if (parts.some((p) => p === null)) return null;
  const dropFrame = (ff & 0x40) !== 0;
  const [h, m, s, f] = parts.map((p) => String(p).padStart(2, '0'));
  return { label: `${h}:${m}:${s}${dropFrame ? ';' : ':'}${f}`, dropFrame };
}

// The XML library is loaded when a sidecar is read: most media has none, and it is a noticeable
// part of a command's start-up.
const requireHere = createRequire(import.meta.url);

/** A sidecar that does not give a start, and why (it names the file in the job's words). */
export interface SidecarRefusal {
  refused: string;
}

const unreadable = (why: string): SidecarRefusal => ({ refused: `The camera’s timecode file ${why}` });

/** The start a NonRealTimeMeta document gives, or why it gives none this reads. */
export function sidecarStart(xml: string): SourceStart | SidecarRefusal {
  let doc: Node | undefined;
  try {
    const { convert } = requireHere('xmlbuilder2') as { convert: typeof Convert };
    doc = asNode(asNode(convert(xml, { format: 'object' }))?.NonRealTimeMeta);
  } catch {
    return unreadable('is not readable XML');
  }
  const table = asNode(doc?.LtcChangeTable);
  const tcFps = Number(table?.['@tcFps']);
  if (!table || !Number.isInteger(tcFps) || tcFps <= 0) return unreadable('has no LtcChangeTable with a tcFps');
  const first = list(table.LtcChange).find((c) => Number(c['@frameCount']) === 0);
  const value = typeof first?.['@value'] === 'string' ? first['@value'] : null;
  const ltc = value === null ? null : ltcLabel(value);
  if (!ltc)
    return unreadable(value === null ? 'gives no first timecode' : `gives the timecode "${value}", which is not one`);
  const formatFps = String(asNode(asNode(doc?.VideoFormat)?.VideoFrame)?.['@formatFps'] ?? '');
  // 23.98p, 29.97p, 59.94i, 119.88p: the NTSC rate the timecode counts at; 25p, 24p, 50i: whole frames.
  const ntsc = /^(23\.98|29\.97|59\.94|119\.88)/.test(formatFps) || ltc.dropFrame;
  const base: FrameRate = { ...(ntsc ? ntscRate(tcFps) : { num: tcFps, den: 1 }), dropFrame: false };
  const rate: FrameRate = { ...base, dropFrame: ltc.dropFrame && canDropFrame(base) };
  const read = readTimecodeLabel(ltc.label, rate);
  if (read === null || 'refused' in read) return { refused: read?.refused ?? unreadable('gives no timecode').refused };
  // The counting the label was read in (a `;` in it says drop-frame).
  const counted = read.rate;
  if (table['@halfStep'] !== 'true') return { kind: 'frames', frames: read.frames, rate: counted, from: 'sidecar' };
  // Two picture frames per LTC frame: the same moment, counted at twice the rate (drop-frame too).
  const picture: FrameRate = { num: counted.num * 2, den: counted.den, dropFrame: counted.dropFrame };
  return { kind: 'frames', frames: read.frames * 2, rate: picture, from: 'sidecar' };
}

/** The start from the clip's sidecar; why it gives none when one lies beside it; null when there is none. */
export async function readSidecarStart(media: string): Promise<SourceStart | SidecarRefusal | null> {
  for (const file of sidecarPaths(media)) {
    const xml = await readFile(file, 'utf8').catch(() => null);
    if (xml === null) continue;
    const start = sidecarStart(xml);
    return 'refused' in start
      ? { refused: start.refused.replace('timecode file', `timecode file ${path.basename(file)}`) }
      : start;
  }
  return null;
}
