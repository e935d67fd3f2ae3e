// Note: the job journal (write before you act depends on it).
// - Format: `jobs.jsonl` in the state dir. Line 1 is a header `{"h":"sluice-jobs","v":2,"a":..,"r":..}`
//   (`a`, `r`: the archive's committed lengths, see job-archive.ts; v1 had none); then
//   every change appends ONE line: `{"p":<full JobRecord>}` for a put, `{"d":"<id>"}` for a delete.
//   Identity is the record's `id` (a UUID minted by the runtime); on load the last line for an id
//   wins, a delete line removes it. Full records, not patches: any single line is self-sufficient,
//   so losing or skipping one never makes another unreadable.
// - Durability: `put` returns after write(2) handed the whole line to the kernel (O_APPEND, one
//   write per line). That survives kill -9 and any crash of this process in every fsync mode; fsync
//   only matters for power loss / OS crash: 'always' = durable when put returns (fdatasync per
//   put, ~0.1 ms on the measured disk, more on laptops), 'batch' = within `batchMs` (group commit,
//   synced off the event loop; `flush()` forces it), 'never' = whenever the OS writes back.
//   `putSoon` is for records nothing has acted on yet (a watch folder's new jobs): their lines go
//   out together at the end of the event loop's turn, or sooner with any other write, so a
//   change acted on is never written before them. A crash in between loses only such records.
// - Torn writes: with a single appending writer only the tail can be torn. A line is trusted only
//   when it ends in '\n' and parses; unparseable lines at the tail are cut off at open (truncate),
//   unparseable lines in the middle (outside damage) are skipped and vanish at the next compaction.
// - Compaction (when the journal holds > `compactRatio` × live records and > `compactMinLines`, and
//   at open when a record is due for the archive): records due for the archive (`archivable`:
//   finished and out of the Queue) are appended to the archive and fsynced first; the rest →
//   `jobs.jsonl.tmp` under a header naming the archive's new lengths, fsync, rename over the
//   journal, fsync the directory. The rename is the commit: a crash before it leaves the old
//   journal (still holding every record) and archive bytes past its header, cut off at open; after
//   it, the new journal. Either way nothing is lost or held twice; a stale .tmp is removed at open.
// - Memory: only the journal's records are held; the archive is read on demand (`get` falls back
//   to it, so an action on an archived job brings it back into the journal).
// - Migration: a v1 journal (everything in one file) is archived by the compaction at its first open.
// - One writer: the app's single-instance lock guarantees one process; there is no file lock.
// - Records handed in and out are shared, not copied: callers treat them as immutable (the
//   reducer never mutates a job).
import fs from 'node:fs';
import path from 'node:path';
import type { JobRecord } from '../../../engine/job.js';
import { fsyncDir } from '../archive/archive-index.js';
import {
  archiveLengthsOnDisk,
  JobArchive,
  readArchivedRecords,
  type ArchivePolicy,
  type Committed,
} from '../archive/job-archive.js';
import {
  committedOf,
  cutTail,
  header,
  readJournal,
  replay,
  VERSION,
  writeAll,
  writeCompacted,
  type Identified,
} from './journal-lines.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';

export type FsyncMode = 'always' | 'batch' | 'never';

export interface JobStoreOptions<T> {
  fsync?: FsyncMode;
  /** Group-commit window of 'batch'. */
  batchMs?: number;
  compactMinLines?: number;
  compactRatio?: number;
  fileName?: string;
  /** Shape check for each loaded record; a record failing it is skipped like a garbage line. */
  validate?: (value: unknown) => value is T;
  /** Moves records that `archivable` says are done with out of the journal (none without it). */
  archive?: ArchivePolicy<T>;
  now?: () => number;
}

export interface LoadReport {
  lines: number;
  live: number;
  skipped: number;
  truncatedBytes: number;
  ms: number;
}

export class JobStore<T extends Identified = JobRecord> {
  private readonly records = new Map<string, T>();
  private fd: number;
  private lines = 0;
  /** Size of the journal up to the last complete line (to undo a half-written one). */
  private bytes = 0;
  private syncTimer: NodeJS.Timeout | undefined;
  /** Lines of `putSoon`, written before the next line or at the end of this turn. */
  private soon: string[] = [];
  private soonTimer: NodeJS.Immediate | undefined;
  private soonRefused: ((err: unknown) => void) | undefined;
  private closed = false;
  private committed: Committed = { records: 0, rows: 0 };
  private readonly archive: JobArchive<T> | undefined;
  readonly loadReport: LoadReport;

  private constructor(
    readonly file: string,
    private readonly opts: Required<Omit<JobStoreOptions<T>, 'validate' | 'archive'>> &
      Pick<JobStoreOptions<T>, 'validate' | 'archive'>,
  ) {
    const started = performance.now();
    fs.rmSync(`${file}.tmp`, { force: true });
    const report = this.load();
    this.fd = fs.openSync(file, 'a', PRIVATE_FILE_MODE);
    this.bytes = fs.fstatSync(this.fd).size;
    if (report.lines === 0) {
      // No header to say what the archive holds: keep it whole rather than cut it to nothing.
      if (opts.archive) this.committed = archiveLengthsOnDisk(path.dirname(file));
      this.append(header(this.committed), true);
    }
    if (opts.archive) this.archive = JobArchive.open(path.dirname(file), this.committed, opts.archive);
    this.loadReport = { ...report, ms: performance.now() - started };
  }

  /**
   * The records as they are on disk, without taking the journal over: for a second process
   * (`sluice status`) while the engine runs. Nothing is truncated or compacted.
   */
  static snapshot<T extends Identified = JobRecord>(dir: string, fileName = 'jobs.jsonl'): T[] {
    const { records, committed } = JobStore.journalSnapshot<T>(dir, fileName);
    const archived = readArchivedRecords<T>(dir, committed).filter((r) => !records.has(r.id));
    return [...archived, ...records.values()];
  }

  /** The journal's records and the archive's lengths its header commits, read without taking it over. */
  static journalSnapshot<T extends Identified = JobRecord>(
    dir: string,
    fileName = 'jobs.jsonl',
  ): { records: Map<string, T>; committed: Committed } {
    const records = new Map<string, T>();
    const buf = readJournal(path.join(dir, fileName));
    let committed: Committed = { records: 0, rows: 0 };
    // A damaged line is skipped: the owner of the journal repairs it.
    if (buf) replay(buf, records, undefined, (h) => (committed = committedOf(h)));
    return { records, committed };
  }

  static open<T extends Identified = JobRecord>(dir: string, options: JobStoreOptions<T> = {}): JobStore<T> {
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const opts = {
      fsync: options.fsync ?? 'batch',
      batchMs: options.batchMs ?? 20,
      compactMinLines: options.compactMinLines ?? 10_000,
      compactRatio: options.compactRatio ?? 4,
      fileName: options.fileName ?? 'jobs.jsonl',
      now: options.now ?? Date.now,
      ...(options.validate ? { validate: options.validate } : {}),
      ...(options.archive ? { archive: options.archive } : {}),
    };
    const store = new JobStore<T>(path.join(dir, opts.fileName), opts);
    if (store.needsCompaction()) store.compact();
    else if (store.hasArchivable()) {
      try {
        store.compact();
      } catch {
        // The records stay in the journal, whole: the archive is an optimisation, not a reason not to start.
      }
    }
    return store;
  }

  /** The records in the journal (not the archived ones). */
  all(): T[] {
    return [...this.records.values()];
  }

  /** A record from the journal, or else its newest archived version. */
  get(id: string): T | undefined {
    return this.records.get(id) ?? this.archive?.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** True when the record is held in the journal (not only in the archive). */
  isHot(id: string): boolean {
    return this.records.has(id);
  }

  /** The archive, for lookups and History; undefined when the store does not archive. */
  get archived(): JobArchive<T> | undefined {
    return this.archive;
  }

  get size(): number {
    return this.records.size;
  }

  /** Appends the full record; when it returns, the change survives a crash of this process. */
  put(record: T): void {
    this.assertOpen();
    this.append(`${JSON.stringify({ p: record })}\n`);
    this.records.set(record.id, record);
    this.compactIfDue();
  }

  /**
   * Takes the record now; its line goes out with the others of this turn in one write (see the
   * note). A refused late write (disk full) tells `refused`; the lines wait for the next write.
   */
  putSoon(record: T, refused: (err: unknown) => void): void {
    this.assertOpen();
    this.soon.push(`${JSON.stringify({ p: record })}\n`);
    this.records.set(record.id, record);
    this.soonRefused = refused;
    this.soonTimer ??= setImmediate(() => {
      this.soonTimer = undefined;
      if (this.closed || this.soon.length === 0) return;
      try {
        this.append('');
        this.compactIfDue();
      } catch (e) {
        this.soonRefused?.(e);
      }
    });
  }

  delete(id: string): boolean {
    this.assertOpen();
    if (!this.records.has(id)) return false;
    this.append(`${JSON.stringify({ d: id })}\n`);
    this.records.delete(id);
    return true;
  }

  /** Makes everything written so far durable against power loss (no-op when nothing is pending). */
  flush(): void {
    if (this.closed) return;
    if (this.soon.length > 0) this.append('');
    if (this.syncTimer) {
      clearTimeout(this.syncTimer);
      this.syncTimer = undefined;
    }
    if (this.opts.fsync !== 'never' && this.fd >= 0) fs.fdatasyncSync(this.fd);
  }

  compact(): void {
    this.assertOpen();
    const now = this.opts.now();
    const due = this.opts.archive ? this.all().filter((r) => this.opts.archive!.archivable(r, now)) : [];
    const before = this.committed;
    const moved = new Set(due.map((r) => r.id));
    const tmp = `${this.file}.tmp`;
    let after = before;
    try {
      // First durable in the archive, then gone from the journal: see the note at the top.
      if (due.length > 0 && this.archive) after = this.archive.append(due);
      writeCompacted(tmp, after, this.records.values(), moved);
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      this.undoArchive(before);
      throw e;
    }
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    // Closed before the rename: Windows refuses to replace a file that is still open.
    this.closeFd();
    try {
      try {
        fs.renameSync(tmp, this.file);
      } catch (e) {
        this.undoArchive(before);
        throw e;
      }
      this.committed = after;
      for (const id of moved) this.records.delete(id);
      this.soon = []; // their records are in the new journal
      fsyncDir(path.dirname(this.file));
      if (after !== before) this.archive?.committedAt(after);
      this.lines = this.records.size + 1;
    } finally {
      this.reopen();
    }
  }

  /** Opens the journal for appending again; when that fails, the next write tries again. */
  private reopen(): void {
    this.fd = fs.openSync(this.file, 'a', PRIVATE_FILE_MODE);
    this.bytes = fs.fstatSync(this.fd).size;
  }

  private closeFd(): void {
    if (this.fd < 0) return;
    const fd = this.fd;
    this.fd = -1;
    fs.closeSync(fd);
  }

  close(): void {
    if (this.closed) return;
    if (this.soonTimer) clearImmediate(this.soonTimer);
    try {
      if (this.soon.length > 0) this.append('');
    } catch {
      // Refused (disk full): new jobs of watch folders, offered again at the next start.
      this.soon = [];
    }
    if (this.fd >= 0) this.flush();
    this.closeFd();
    this.archive?.close();
    this.closed = true;
  }

  /** The journal did not take the new header: the archive's new bytes would be read twice. */
  private undoArchive(to: Committed): void {
    try {
      this.archive?.rollback(to);
    } catch {
      /* cut off at the next open, which trusts only the header's lengths */
    }
  }

  private hasArchivable(): boolean {
    const a = this.opts.archive;
    if (!a) return false;
    const now = this.opts.now();
    for (const r of this.records.values()) if (a.archivable(r, now)) return true;
    return false;
  }

  /** The record is already safe in the journal: a compaction that fails (disk full) waits for the next put. */
  private compactIfDue(): void {
    if (!this.needsCompaction()) return;
    try {
      this.compact();
    } catch {
      /* retried at the next put; the journal itself is intact */
    }
  }

  private needsCompaction(): boolean {
    return this.lines > this.opts.compactMinLines && this.lines > this.records.size * this.opts.compactRatio;
  }

  /** Writes `line` (may be empty) after the lines of `putSoon`, in one write. */
  private append(line: string, forceSync = false): void {
    if (this.fd < 0) this.reopen();
    const taken = this.soon.length;
    const buf = Buffer.from(taken > 0 ? this.soon.join('') + line : line, 'utf8');
    try {
      writeAll(this.fd, buf);
    } catch (e) {
      // A half-written line (disk full) would glue itself to the next one: cut it off.
      try {
        fs.ftruncateSync(this.fd, this.bytes);
      } catch {
        /* the open-time tail check still catches it */
      }
      throw e;
    }
    if (taken > 0) this.soon = [];
    this.bytes += buf.length;
    this.lines += taken + (line === '' ? 0 : 1);
    if (forceSync || this.opts.fsync === 'always') fs.fdatasyncSync(this.fd);
    else if (this.opts.fsync === 'batch' && !this.syncTimer) {
      this.syncTimer = setTimeout(() => {
        this.syncTimer = undefined;
        // Off the event loop: a synchronous fdatasync every window held a 100,000-file watch
        // folder's intake for a tenth of its time. Nobody waits on it (flush and close sync
        // synchronously), so an fd closed meanwhile (a compaction) only makes it fail or sync
        // whichever file took that number; the lines are with the kernel either way.
        if (!this.closed && this.fd >= 0) fs.fdatasync(this.fd, () => undefined);
      }, this.opts.batchMs);
      this.syncTimer.unref();
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('JobStore is closed');
  }

  private load(): Omit<LoadReport, 'ms'> {
    const buf = readJournal(this.file);
    if (!buf) return { lines: 0, live: 0, skipped: 0, truncatedBytes: 0 };
    const { lines, skipped, validEnd } = replay(buf, this.records, this.opts.validate, (h) => {
      if (typeof h.v === 'number' && h.v > VERSION) {
        throw new Error(`${this.file} was written by a newer Sluice (format ${h.v}); refusing to touch it.`);
      }
      this.committed = committedOf(h);
    });
    const truncatedBytes = buf.length - validEnd;
    if (truncatedBytes > 0) cutTail(this.file, validEnd);
    this.lines = lines;
    return { lines, live: this.records.size, skipped, truncatedBytes };
  }
}
