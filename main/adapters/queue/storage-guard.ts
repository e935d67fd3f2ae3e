// Writes to the journal for the runner, and what happens when the state folder refuses them (full
// disk, quota, read-only or failing volume): nothing escapes as an exception, the runner is told to
// pause with a message naming the folder, and the write is tried again until it succeeds.
import path from 'node:path';
import type { JobRecord } from '../../engine/job.js';
import type { JobStore } from '../store/journal/job-store.js';

export interface StorageGuardOptions {
  store: JobStore<JobRecord>;
  /** The state folder refused a write: pause the queue with this message. */
  onBlocked: (message: string) => void;
  /** A write went through again: resume. */
  onWritable: () => void;
  /** Whether the runner still waits for storage (a user's pause or a stop may have replaced it). */
  isWaiting: () => boolean;
  /** How often a refused write is tried again (default 2 s). */
  retryMs?: number;
}

export class StorageGuard {
  /** The job whose change could not be journaled; its recorded version is re-written as the test. */
  private blocked: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: StorageGuardOptions) {}

  /** Appends the record; false (and the queue told to pause) when the journal refused it. */
  put(job: JobRecord): boolean {
    return this.attempt(job, () => this.o.store.put(job));
  }

  /**
   * A new job nothing acts on yet, written at the end of this turn with the others (a watch
   * folder's intake). A refused late write pauses the queue as `put` does; the retry writes it.
   * While the queue waits for storage, the job is written at once (and refused, to be offered again).
   */
  putSoon(job: JobRecord): boolean {
    if (this.o.isWaiting()) return this.put(job);
    return this.attempt(job, () => this.o.store.putSoon(job, (err) => this.failed(job.id, err)));
  }

  private attempt(job: JobRecord, write: () => void): boolean {
    try {
      write();
      return true;
    } catch (err) {
      this.failed(job.id, err);
      return false;
    }
  }

  /** A write of Sluice's own into `dir` (the journal's folder by default) failed for this job. */
  failed(jobId: string, err: unknown, dir = path.dirname(this.o.store.file)): void {
    // A job the journal never took cannot serve as the test: the last one it did take stands in.
    this.blocked = this.o.store.has(jobId) ? jobId : (this.blocked ?? this.o.store.all()[0]?.id);
    if (!this.o.isWaiting()) this.o.onBlocked(storageMessage(dir, err));
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.retry();
    }, this.o.retryMs ?? 2000);
    this.timer.unref?.();
  }

  private retry(): void {
    if (this.stopped || !this.o.isWaiting()) return;
    const probe = this.blocked === undefined ? undefined : this.o.store.get(this.blocked);
    try {
      // Re-writing a record already in the journal changes nothing but proves a line fits again.
      if (probe) this.o.store.put(probe);
    } catch {
      this.arm();
      return;
    }
    this.blocked = undefined;
    this.o.onWritable();
  }
}

/**
 * A state folder that cannot be written when Sluice starts, said with the folder and what to do
 * (the bare system error named neither); any other error is returned as it is.
 */
export function startupStorageError(dir: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const what =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'is on a full disk: free some space'
      : code === 'EROFS'
        ? 'is on a read-only volume: make it writable'
        : undefined;
  if (!what) return err;
  const message = `The state folder ${dir} ${what}, or choose another with --state-dir or SLUICE_STATE_DIR.`;
  return Object.assign(new Error(message, { cause: err }), { code });
}

export function storageMessage(dir: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full'
      : code === 'EROFS'
        ? 'the volume is read-only'
        : (code ?? (err instanceof Error ? err.message : String(err)));
  return `Sluice cannot record its work in ${dir} (${why}). The queue is paused and resumes by itself once the folder can be written again; nothing recorded so far is lost.`;
}
