// Note: the archive of finished jobs (the hot journal is job-store.ts; why and when records move is
// written there).
// - Files, in `archive/` beside the journal: `jobs.jsonl`, one full record per line (`{"p":...}`,
//   like the journal), `rows.jsonl`, one short summary per archived line (`{"o":<offset>,...}`) that
//   History scans instead of the records, and the lookup index (archive-index.ts).
// - Both files only grow. Their committed lengths live in the journal's header, which is replaced
//   atomically: bytes past them were appended by a compaction that did not finish, and are cut
//   off at open, so a crash anywhere loses nothing (the journal still holds those records) and
//   duplicates nothing.
// - A record can be archived again after an action brought it back (a retry, a rewrite): the later
//   line wins, and a record in the journal wins over any archived line.
import fs from 'node:fs';
import path from 'node:path';
import { ArchiveIndex, keyHash, type IndexEntry } from './archive-index.js';
import { HistoryIndex } from '../history/history-index.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';

export interface ArchiveSpec<T> {
  /** Index keys of a record (`i:<id>` is added for every record). */
  keys(record: T): string[];
  /** The summary History scans: small, JSON-safe. */
  row(record: T): Record<string, unknown>;
}

export type ArchivePolicy<T> = ArchiveSpec<T> & { archivable: (record: T, now: number) => boolean };

export interface Committed {
  records: number;
  rows: number;
}

export interface ArchivedRow {
  /** Offset of the record's line in `jobs.jsonl`. */
  o: number;
  i: string;
  [field: string]: unknown;
}

const NL = 0x0a;
const CHUNK = 1 << 20;

export class JobArchive<T extends { id: string }> {
  private fd: number;
  private rowsFd: number;
  /** History's SQL index of the rows (history-index.ts); undefined without SQLite or when it failed. */
  private historyIndex: HistoryIndex | undefined;
  private constructor(
    readonly dir: string,
    private committed: Committed,
    private readonly index: ArchiveIndex,
    private readonly spec: ArchiveSpec<T>,
  ) {
    this.fd = fs.openSync(path.join(dir, 'jobs.jsonl'), 'r+');
    this.rowsFd = fs.openSync(path.join(dir, 'rows.jsonl'), 'r+');
  }

  /** Opens the archive as the journal's header last committed it (bytes beyond are cut off). */
  static open<T extends { id: string }>(stateDir: string, committed: Committed, spec: ArchiveSpec<T>): JobArchive<T> {
    const dir = path.join(stateDir, 'archive');
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const actual = {
      records: cutTo(path.join(dir, 'jobs.jsonl'), committed.records),
      rows: cutTo(path.join(dir, 'rows.jsonl'), committed.rows),
    };
    const { index, covered } = ArchiveIndex.open(dir, actual.records);
    const archive = new JobArchive<T>(dir, actual, index, spec);
    if (covered < actual.records) {
      // A crash between appending and indexing, or a lost segment: index what is not covered.
      const entries: IndexEntry[] = [];
      archive.eachLine(archive.fd, covered, actual.records, (text, offset) => {
        const rec = parseRecord<T>(text);
        if (rec) for (const k of archive.keysOf(rec)) entries.push({ hash: keyHash(k), offset });
      });
      index.extend(covered, actual.records, entries);
    }
    archive.historyIndex = openHistoryIndex(dir, actual.rows);
    return archive;
  }

  /**
   * History's index, holding every committed row; undefined when there is none (no SQLite here, or
   * it could not be brought up to date: History then reads the rows).
   */
  get history(): HistoryIndex | undefined {
    const h = this.historyIndex;
    if (!h) return undefined;
    try {
      if (h.covered < this.committed.rows) h.catchUp(this.committed.rows);
      return h;
    } catch {
      return undefined;
    }
  }

  /**
   * The journal's header now names these lengths: History's index takes the new rows. A failure
   * (full disk) leaves it behind, which `history` and the next start make up for.
   */
  committedAt(lengths: Committed): void {
    try {
      this.historyIndex?.catchUp(lengths.rows);
    } catch {
      /* caught up at the next query or start */
    }
  }

  get lengths(): Committed {
    return { ...this.committed };
  }

  /**
   * Appends records and their rows, durably, and indexes them. Returns the new lengths, which
   * count only once the journal's header says so.
   */
  append(records: readonly T[]): Committed {
    if (records.length === 0) return this.lengths;
    const start = this.committed.records;
    const entries: IndexEntry[] = [];
    const lines: string[] = [];
    const rows: string[] = [];
    let offset = start;
    for (const r of records) {
      const line = `${JSON.stringify({ p: r })}\n`;
      lines.push(line);
      rows.push(`${JSON.stringify({ o: offset, i: r.id, ...this.spec.row(r) })}\n`);
      for (const k of this.keysOf(r)) entries.push({ hash: keyHash(k), offset });
      offset += Buffer.byteLength(line);
    }
    const rowsEnd = this.committed.rows + writeChunked(this.rowsFd, rows, this.committed.rows);
    const end = start + writeChunked(this.fd, lines, start);
    fs.fsyncSync(this.fd);
    fs.fsyncSync(this.rowsFd);
    this.index.extend(start, end, entries);
    this.committed = { records: end, rows: rowsEnd };
    return this.lengths;
  }

  /** Takes back lengths that the journal did not commit (its rewrite failed). */
  rollback(to: Committed): void {
    this.index.dropBeyond(to.records);
    fs.ftruncateSync(this.fd, to.records);
    fs.ftruncateSync(this.rowsFd, to.rows);
    this.committed = { ...to };
  }

  /** The newest archived version of a record. */
  get(id: string): T | undefined {
    return this.find(`i:${id}`, (r) => r.id === id)[0]?.record;
  }

  /**
   * Archived records that carry `key` and pass `check` (which guards against hash collisions),
   * newest line first, one per id.
   */
  find(key: string, check: (r: T) => boolean): Array<{ record: T; offset: number }> {
    const seen = new Set<string>();
    const out: Array<{ record: T; offset: number }> = [];
    const offsets = [...new Set(this.index.candidates(key))].sort((a, b) => b - a);
    for (const offset of offsets) {
      const record = this.readAt(offset);
      if (!record || !check(record) || seen.has(record.id)) continue;
      // A newer line of the same record may no longer carry the key (a result renamed): ask for it.
      const newest = offset === this.newestOffset(record.id) ? record : undefined;
      seen.add(record.id);
      if (newest) out.push({ record: newest, offset });
    }
    return out;
  }

  /** Every archived summary, newest line per id, in archive order. */
  rows(): ArchivedRow[] {
    const byId = new Map<string, ArchivedRow>();
    this.eachLine(this.rowsFd, 0, this.committed.rows, (text) => {
      try {
        const row = JSON.parse(text) as ArchivedRow;
        if (typeof row.i === 'string' && typeof row.o === 'number') {
          byId.delete(row.i);
          byId.set(row.i, row);
        }
      } catch {
        /* a damaged row hides one entry from History; the record itself is still found by id */
      }
    });
    return [...byId.values()];
  }

  readAt(offset: number): T | undefined {
    let size = 4096;
    for (;;) {
      const buf = Buffer.alloc(Math.min(size, Math.max(0, this.committed.records - offset)));
      const n = fs.readSync(this.fd, buf, 0, buf.length, offset);
      const nl = buf.subarray(0, n).indexOf(NL);
      if (nl >= 0) return parseRecord<T>(buf.toString('utf8', 0, nl));
      if (offset + n >= this.committed.records) return undefined;
      size *= 4;
    }
  }

  /** Every archived record (newest version of each), streamed: for rare whole-history actions. */
  each(visit: (record: T) => void): void {
    for (const row of this.rows()) {
      const r = this.readAt(row.o);
      if (r) visit(r);
    }
  }

  close(): void {
    this.historyIndex?.close();
    this.historyIndex = undefined;
    this.index.close();
    fs.closeSync(this.fd);
    fs.closeSync(this.rowsFd);
  }

  private newestOffset(id: string): number | undefined {
    let best: number | undefined;
    for (const offset of this.index.candidates(`i:${id}`)) {
      if ((best === undefined || offset > best) && this.readAt(offset)?.id === id) best = offset;
    }
    return best;
  }

  private keysOf(r: T): string[] {
    return [`i:${r.id}`, ...this.spec.keys(r)];
  }

  private eachLine(fd: number, start: number, end: number, visit: (text: string, offset: number) => void): void {
    let pos = start;
    let carry = Buffer.alloc(0);
    while (pos < end) {
      const buf = Buffer.alloc(Math.min(CHUNK, end - pos));
      const n = fs.readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const base = pos - carry.length;
      let from = 0;
      for (let nl = data.indexOf(NL, from); nl >= 0; nl = data.indexOf(NL, from)) {
        visit(data.toString('utf8', from, nl), base + from);
        from = nl + 1;
      }
      carry = Buffer.from(data.subarray(from));
      pos += n;
    }
  }
}

/** History's index, rebuilt once when its file is damaged; undefined when it cannot be had. */
function openHistoryIndex(dir: string, rows: number): HistoryIndex | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return HistoryIndex.open(dir, rows);
    } catch {
      // Derived data: a file SQLite cannot read is removed and built again from the rows.
      for (const f of HistoryIndex.files) fs.rmSync(path.join(dir, f), { force: true });
    }
  }
  return undefined;
}

/**
 * The committed view of an archive for a reader that does not own it (`sluice history` while the
 * app runs): nothing is cut or indexed. Null when there is no archive.
 */
export function readArchivedRecords<T extends { id: string }>(stateDir: string, committed: Committed): T[] {
  const file = path.join(stateDir, 'archive', 'jobs.jsonl');
  let buf: Buffer;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      buf = Buffer.alloc(Math.min(committed.records, fs.fstatSync(fd).size));
      fs.readSync(fd, buf, 0, buf.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const byId = new Map<string, T>();
  let from = 0;
  for (let nl = buf.indexOf(NL); nl >= 0; nl = buf.indexOf(NL, from)) {
    const r = parseRecord<T>(buf.toString('utf8', from, nl));
    if (r) byId.set(r.id, r);
    from = nl + 1;
  }
  return [...byId.values()];
}

/** Archived records at these line offsets, for a reader that does not own the archive (History's index named them). */
export function readArchivedAt<T extends { id: string }>(
  stateDir: string,
  offsets: readonly number[],
): Array<T | undefined> {
  const fd = fs.openSync(path.join(stateDir, 'archive', 'jobs.jsonl'), 'r');
  try {
    return offsets.map((offset) => {
      for (let size = 4096; ; size *= 4) {
        const buf = Buffer.alloc(size);
        const n = fs.readSync(fd, buf, 0, size, offset);
        const nl = buf.subarray(0, n).indexOf(NL);
        if (nl >= 0) return parseRecord<T>(buf.toString('utf8', 0, nl));
        if (n < size) return undefined;
      }
    });
  } finally {
    fs.closeSync(fd);
  }
}

function parseRecord<T>(text: string): T | undefined {
  try {
    const v = JSON.parse(text) as { p?: unknown };
    const p = v.p as { id?: unknown } | undefined;
    return p && typeof p.id === 'string' ? (p as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The archive's whole-line lengths as they are on disk: what a journal that is missing or empty
 * (deleted by hand, lost) adopts, since it has no header to say what was committed. Without this,
 * such a journal would commit zero bytes and the open would cut the whole archive away.
 */
export function archiveLengthsOnDisk(stateDir: string): Committed {
  const dir = path.join(stateDir, 'archive');
  return { records: wholeLines(path.join(dir, 'jobs.jsonl')), rows: wholeLines(path.join(dir, 'rows.jsonl')) };
}

/** Length of a file up to and including its last line break (0 when missing). */
function wholeLines(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return 0;
  }
  try {
    let end = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - buf.length);
      const n = fs.readSync(fd, buf, 0, end - start, start);
      const at = buf.subarray(0, n).lastIndexOf(NL);
      if (at >= 0) return start + at + 1;
      end = start;
    }
    return 0;
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates the file when missing and cuts it to `length`; returns its length (shorter if damaged). */
function cutTo(file: string, length: number): number {
  const fd = fs.openSync(file, 'a', PRIVATE_FILE_MODE);
  try {
    const size = fs.fstatSync(fd).size;
    if (size > length) {
      fs.ftruncateSync(fd, length);
      fs.fsyncSync(fd);
      return length;
    }
    return size;
  } finally {
    fs.closeSync(fd);
  }
}

function writeChunked(fd: number, lines: readonly string[], at: number): number {
  let written = 0;
  let chunk = '';
  const flush = (): void => {
    const buf = Buffer.from(chunk, 'utf8');
    let off = 0;
    while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off, at + written + off);
    written += buf.length;
    chunk = '';
  };
  for (const line of lines) {
    chunk += line;
    if (chunk.length > CHUNK) flush();
  }
  flush();
  return written;
}
