// The journal's lines (the format is described in job-store.ts): the header that commits the
// archive's lengths, replaying the lines into records, trusting only complete ones, cutting off a
// torn tail, and writing a compaction's new journal.
import fs from 'node:fs';
import type { Committed } from '../archive/job-archive.js';
import { PRIVATE_FILE_MODE } from '../private-files.js';

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

/**
 * Writes a compaction's journal to `tmp`: the header naming `committed`, then every record but the
 * `moved` ones, in writes of about 1 MB, fsynced and closed. Renaming it over the journal is the
 * caller's commit; on failure the descriptor is closed and the error thrown (the caller removes `tmp`).
 */
export function writeCompacted<T extends Identified>(
  tmp: string,
  committed: Committed,
  records: Iterable<T>,
  moved: ReadonlySet<string>,
): void {
  const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    let chunk = header(committed);
    for (const r of records) {
      if (moved.has(r.id)) continue;
      chunk += `${JSON.stringify({ p: r })}\n`;
      if (chunk.length > 1 << 20) {
        writeAll(fd, Buffer.from(chunk, 'utf8'));
        chunk = '';
      }
    }
    writeAll(fd, Buffer.from(chunk, 'utf8'));
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
  fs.closeSync(fd);
}

/** Cuts a torn or garbage tail off the journal at `validEnd`, durably, so the next append starts on a clean line. */
export function cutTail(file: string, validEnd: number): void {
  fs.truncateSync(file, validEnd);
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
