// The journal's lines (the format is described in job-store.ts): the header that commits the
// archive's lengths, and replaying the lines into records, trusting only complete ones.
import fs from 'node:fs';
import type { Committed } from '../archive/job-archive.js';

const FORMAT = 'sluice-jobs';
export const VERSION = 2;
const NL = 0x0a;

/** The journal's first line, naming the archive's committed lengths. */
export const header = (c: Committed): string =>
  `${JSON.stringify({ h: FORMAT, v: VERSION, a: c.records, r: c.rows })}\n`;

export interface Identified {
  id: string;
}

const hasId = (v: unknown): v is Identified =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string';

/**
 * Applies every complete line (one ending in '\n') to `records`. A torn tail (no newline) was never
 * acknowledged and is not read; a line that does not parse, or fails `validate`, is skipped.
 * `validEnd` is where the last good line ends.
 */
export function replay<T extends Identified>(
  buf: Buffer,
  records: Map<string, T>,
  validate?: (value: unknown) => value is T,
  onHeader?: (header: { v?: unknown; a?: unknown; r?: unknown }) => void,
): { lines: number; skipped: number; validEnd: number } {
  const apply = (text: string): boolean => {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return false;
    }
    if (typeof v !== 'object' || v === null) return false;
    const o = v as { h?: unknown; v?: unknown; p?: unknown; d?: unknown; a?: unknown; r?: unknown };
    if (o.h === FORMAT) {
      onHeader?.(o);
      return true;
    }
    if (typeof o.d === 'string') {
      records.delete(o.d);
      return true;
    }
    if (hasId(o.p) && (!validate || validate(o.p))) {
      records.set(o.p.id, o.p as T);
      return true;
    }
    return false;
  };
  let pos = 0;
  let validEnd = 0;
  let lines = 0;
  let skipped = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(NL, pos);
    if (nl < 0) break;
    const ok = apply(buf.toString('utf8', pos, nl));
    pos = nl + 1;
    if (ok) {
      validEnd = pos;
      lines++;
    } else skipped++;
  }
  return { lines, skipped, validEnd };
}

export function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

/** The archive's lengths a header commits (none before format 2). */
export function committedOf(h: { a?: unknown; r?: unknown }): Committed {
  const n = (x: unknown): number => (typeof x === 'number' && Number.isSafeInteger(x) && x >= 0 ? x : 0);
  return { records: n(h.a), rows: n(h.r) };
}

/** The journal's bytes, or null when there is none yet. */
export function readJournal(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
