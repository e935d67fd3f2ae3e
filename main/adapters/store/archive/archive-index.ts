// Note: the archive's lookup index (see job-archive.ts for the archive itself).
// - What: for every archived line, a few keys (`i:<id>`, `p:<source path>`, `s:<stream id>`,
//   `r:<result path>`) hashed to 32 bits, each stored with the line's byte offset in the archive.
//   A hit is only a candidate: the caller reads the line and checks the key itself, so a hash
//   collision costs one read, never a wrong answer.
// - Format: immutable segment files `index-<start>-<end>.idx` in the archive folder, each covering
//   the archive's bytes [start, end): an 8-byte magic, then 10-byte entries (u32 hash, u48 offset,
//   big-endian) sorted by hash. Looked up by binary search with positioned reads: nothing of it is
//   kept in memory, so memory does not grow with the history.
// - Derived data: the archive is the truth and the index can always be rebuilt from it. A segment
//   is written to a .tmp, fsynced and renamed; at open the longest chain of segments from byte 0 is
//   used, the rest (left over from a crash mid-merge) removed, and an archive tail no segment
//   covers is indexed again. Past `MAX_SEGMENTS` segments the newest are merged (size-tiered).
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-files.js';

const MAGIC = Buffer.from('SLXIDX01', 'latin1');
const ENTRY = 10;
const MAX_SEGMENTS = 8;
const NAME = /^index-(\d+)-(\d+)\.idx$/;

export interface IndexEntry {
  hash: number;
  offset: number;
}

interface Segment {
  start: number;
  end: number;
  file: string;
  fd: number;
  count: number;
}

/** 32-bit FNV-1a over UTF-16 code units: fast, and good enough when every hit is verified. */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class ArchiveIndex {
  private segments: Segment[] = [];

  private constructor(private readonly dir: string) {}

  /**
   * Opens the segments covering [0, covered) and returns how far they reach; the caller indexes
   * the archive from there up to its committed end (`extend`).
   */
  static open(dir: string, committed: number): { index: ArchiveIndex; covered: number } {
    const index = new ArchiveIndex(dir);
    const found: Array<{ start: number; end: number; name: string }> = [];
    for (const name of fs.readdirSync(dir)) {
      if (name.endsWith('.idx.tmp')) fs.rmSync(path.join(dir, name), { force: true });
      const m = NAME.exec(name);
      if (m) found.push({ start: Number(m[1]), end: Number(m[2]), name });
    }
    const chain: typeof found = [];
    let at = 0;
    for (;;) {
      const next = found
        .filter((f) => f.start === at && f.end > at && f.end <= committed)
        .sort((a, b) => b.end - a.end)[0];
      if (!next) break;
      chain.push(next);
      at = next.end;
    }
    for (const f of found) if (!chain.includes(f)) fs.rmSync(path.join(dir, f.name), { force: true });
    for (const f of chain) index.attach(f.start, f.end, path.join(dir, f.name));
    return { index, covered: at };
  }

  /** Adds a segment for archive bytes [start, end) with these entries, then merges if there are too many. */
  extend(start: number, end: number, entries: IndexEntry[]): void {
    if (end <= start) return;
    const file = this.writeSegment(start, end, entries);
    this.attach(start, end, file);
    if (this.segments.length > MAX_SEGMENTS) this.merge(this.mergeFrom());
  }

  /** Archive offsets of lines that may hold `key` (newest segment first). */
  candidates(key: string): number[] {
    const hash = keyHash(key);
    const out: number[] = [];
    const buf = Buffer.alloc(ENTRY);
    for (let s = this.segments.length - 1; s >= 0; s--) {
      const seg = this.segments[s]!;
      const at = (i: number): number => {
        fs.readSync(seg.fd, buf, 0, ENTRY, MAGIC.length + i * ENTRY);
        return buf.readUInt32BE(0);
      };
      let lo = 0;
      let hi = seg.count;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (at(mid) < hash) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < seg.count && at(i) === hash; i++) out.push(buf.readUIntBE(4, 6));
    }
    return out;
  }

  /** Forgets segments reaching past `end` (the archive was cut back to it). */
  dropBeyond(end: number): void {
    for (const s of this.segments.filter((x) => x.end > end)) {
      fs.closeSync(s.fd);
      fs.rmSync(s.file, { force: true });
    }
    this.segments = this.segments.filter((x) => x.end <= end);
  }

  close(): void {
    for (const s of this.segments) fs.closeSync(s.fd);
    this.segments = [];
  }

  private attach(start: number, end: number, file: string): void {
    const fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(MAGIC.length);
    fs.readSync(fd, head, 0, MAGIC.length, 0);
    if (!head.equals(MAGIC) || (size - MAGIC.length) % ENTRY !== 0) {
      fs.closeSync(fd);
      throw new Error(`${file} is not an index segment.`);
    }
    this.segments.push({ start, end, file, fd, count: (size - MAGIC.length) / ENTRY });
  }

  private writeSegment(start: number, end: number, entries: IndexEntry[]): string {
    const order = Uint32Array.from(entries.keys()).sort((a, b) => entries[a]!.hash - entries[b]!.hash);
    const buf = Buffer.alloc(MAGIC.length + entries.length * ENTRY);
    MAGIC.copy(buf, 0);
    let pos = MAGIC.length;
    for (const i of order) {
      const e = entries[i]!;
      buf.writeUInt32BE(e.hash, pos);
      buf.writeUIntBE(e.offset, pos + 4, 6);
      pos += ENTRY;
    }
    const file = path.join(this.dir, `index-${start}-${end}.idx`);
    writeDurably(file, buf);
    return file;
  }

  /**
   * Size-tiered: the newest segments merge while each older one is at most twice what is gathered,
   * so the big segment of a migrated history is not rewritten for every few new jobs.
   */
  private mergeFrom(): number {
    const segs = this.segments;
    let from = segs.length - 1;
    let total = segs[from]!.count;
    while (from > 0 && segs[from - 1]!.count <= 2 * total) {
      from--;
      total += segs[from]!.count;
    }
    return Math.min(from, segs.length - 2);
  }

  /** Merges segments [from..] into one; the old ones go only once the new one is durable. */
  private merge(from: number): void {
    const entries: IndexEntry[] = [];
    const old = this.segments.slice(from);
    for (const seg of old) {
      const buf = Buffer.alloc(seg.count * ENTRY);
      fs.readSync(seg.fd, buf, 0, buf.length, MAGIC.length);
      for (let p = 0; p < buf.length; p += ENTRY) {
        entries.push({ hash: buf.readUInt32BE(p), offset: buf.readUIntBE(p + 4, 6) });
      }
    }
    const start = old[0]!.start;
    const end = old[old.length - 1]!.end;
    const file = this.writeSegment(start, end, entries);
    for (const s of old) fs.closeSync(s.fd);
    this.segments = this.segments.slice(0, from);
    for (const s of old) fs.rmSync(s.file, { force: true });
    this.attach(start, end, file);
  }
}

/** Writes a whole file so that it either exists complete under `file` or not at all. */
export function writeDurably(file: string, buf: Buffer): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w', PRIVATE_FILE_MODE);
  try {
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  fsyncDir(path.dirname(file));
}

export function fsyncDir(dir: string): void {
  // Makes a rename durable; directories cannot be opened for sync on Windows, hence best effort.
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    /* best effort */
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
