// What the engine tells the outside (UI, CLI, web bridge), and the coalescing that keeps progress
// from flooding it (≤ 10 updates per second per job, house style).
import type { JobRecord, PauseReason } from './job.js';

export type FolderStatus = 'watching' | 'paused' | 'scanning' | 'unavailable' | 'error';

export type EngineEvent =
  | { type: 'job:added'; job: JobRecord }
  | { type: 'job:updated'; job: JobRecord }
  | { type: 'job:removed'; id: string }
  | { type: 'queue:paused'; reason: QueuePauseReason; message: string; until?: number }
  | { type: 'queue:resumed' }
  | { type: 'folder:status'; folderId: string; status: FolderStatus; message?: string }
  /**
   * A watch folder's file left as it was, being queued or processed already: said, so a listener
   * (the CLI's log, a test) knows the file was looked at rather than waiting for nothing.
   */
  | { type: 'folder:skipped'; folderId: string; path: string; outcome: 'already-queued' | 'already-done' }
  /** A watch folder's list of files it left, and why, changed (folder-skips.ts): its status goes out again. */
  | { type: 'folder:skips-changed'; folderId: string }
  /** A transcript was corrected and its results rewritten (`problem`: why they could not be). */
  | { type: 'transcript:changed'; jobId: string; revision: number; problem?: string }

  /**
   * Files in watch folders still changing (being copied) appeared, grew or were taken: only their
   * count, so a 100,000-file card dump costs each event O(1); the list is asked for when shown.
   */
  | { type: 'copies:changed'; total: number }
  /** Files of shared watch folders that other computers hold changed (team mode). */
  | { type: 'claims:changed' };

/** A file a watch folder has seen but not taken yet, because its size or time still changes. */
export interface CopyInProgress {
  folderId: string;
  path: string;
  size: number;
  /** When the file was first seen, and when its size or time last changed. */
  firstSeenAt: number;
  changedAt: number;
}

export type EngineEventType = EngineEvent['type'];

/**
 * Why nothing new starts: a job's verdict (credentials, usage limit), the user, the network, the
 * spending cap, or a state folder that cannot be written (storage).
 */
export type QueuePauseReason = PauseReason | 'user' | 'offline' | 'spending-cap' | 'storage';

export const DEFAULT_MIN_INTERVAL_MS = 100;

interface Slot<T> {
  lastEmitAt: number;
  pending?: T;
}

/**
 * Per-key rate limiter that keeps the latest value: the first update goes out at once, later ones
 * within the interval are held (newest wins) and released by `flush` when their time comes. A
 * `force`d update (state change, completion) goes out at once and drops what was held, so the last
 * thing a subscriber sees is never a stale progress value. The clock is the caller's `now`.
 */
export class ProgressCoalescer<T> {
  private readonly slots = new Map<string, Slot<T>>();

  constructor(private readonly minIntervalMs: number = DEFAULT_MIN_INTERVAL_MS) {}

  /** Returns the value to emit now, or undefined when it was held for a later flush. */
  offer(key: string, value: T, now: number, force = false): T | undefined {
    const slot = this.slots.get(key);
    if (force || !slot || now - slot.lastEmitAt >= this.minIntervalMs) {
      this.slots.set(key, { lastEmitAt: now });
      return value;
    }
    slot.pending = value;
    return undefined;
  }

  /** Held values whose interval has passed; emit them. */
  flush(now: number): Array<[string, T]> {
    const out: Array<[string, T]> = [];
    for (const [key, slot] of this.slots) {
      if (slot.pending !== undefined && now - slot.lastEmitAt >= this.minIntervalMs) {
        out.push([key, slot.pending]);
        this.slots.set(key, { lastEmitAt: now });
      }
    }
    return out;
  }

  /** Earliest time a held value becomes due (for a single timer), or undefined when none is held. */
  nextFlushAt(): number | undefined {
    let at: number | undefined;
    for (const slot of this.slots.values()) {
      if (slot.pending === undefined) continue;
      const due = slot.lastEmitAt + this.minIntervalMs;
      if (at === undefined || due < at) at = due;
    }
    return at;
  }

  /** Forget a key (job removed or finished) so the map does not grow with history. */
  drop(key: string): void {
    this.slots.delete(key);
  }

  get size(): number {
    return this.slots.size;
  }
}
