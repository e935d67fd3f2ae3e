// Settle tracking: a detected file is taken only once its size AND mtime have stayed the same for
// settleMs. Pure: the watcher adapter stats the file and calls `observe` on every event and at the
// `checkAt` it was told; nothing here reads the disk or sets timers.
import { DEFAULT_SETTLE_MS } from '../../common/defaults.js';
import { ineligible } from '../../common/media-files.js';

export { DEFAULT_SETTLE_MS };

/**
 * How long a file must have been left alone when its container cannot show that it is whole (MP3,
 * AAC, MKV, a WAV whose writer left its size open) before it is taken: a copy that stalls longer than
 * the settle time would otherwise be uploaded half, and billed again when the rest arrives. On a local
 * drive the file's own modification time counts (a file written an hour ago is taken at once); on a
 * network drive (or a user-space file system: sshfs, a card reader's exFAT driver) only what this
 * computer saw counts, as the server's clock may be off. An MP4, MOV, WAV or MXF is judged by its
 * container instead, and keeps the usual settle time.
 */
export const DEFAULT_NETWORK_SETTLE_MS = 30_000;

/** What becomes of a file found unchanged for the settle time. */
export type SettledCheck =
  | { kind: 'take' }
  /** Nothing copied yet (a copy that stalls before its first byte): not taken, said once. */
  | { kind: 'empty' }
  /** Its container is not whole, or nothing but time can tell and not enough has passed: look again. */
  | { kind: 'wait' };

export interface SettledFacts {
  size: number;
  /** The container check found nothing missing. */
  whole: boolean;
  /** The container itself shows the file is whole (boxes, RIFF size, MXF footer); false: time alone tells. */
  vouched: boolean;
  /** How long the file has been unchanged, as this computer saw it. */
  unchangedMs: number;
  /** Now less the file's modification time, by this computer's clock. */
  mtimeAgeMs?: number;
  /**
   * Not watched for the settle time here: a walk found it modified that long ago on a local drive.
   * Only a container that vouches for itself is then taken; time alone must have been seen here.
   */
  unwatched?: boolean;
}

export function judgeSettled(
  f: SettledFacts,
  o: { slowVolume: boolean; networkSettleMs: number } = { slowVolume: false, networkSettleMs: 0 },
): SettledCheck {
  if (ineligible({ size: f.size })) return { kind: 'empty' };
  if (!f.whole) return { kind: 'wait' };
  if (!f.vouched) {
    if (f.unwatched) return { kind: 'wait' };
    const quietMs = o.slowVolume ? f.unchangedMs : Math.max(f.unchangedMs, f.mtimeAgeMs ?? 0);
    if (quietMs < o.networkSettleMs) return { kind: 'wait' };
  }
  return { kind: 'take' };
}

export interface FileStat {
  size: number;
  mtimeMs: number;
}

interface Entry extends FileStat {
  /** When these exact size + mtime were first seen. */
  since: number;
}

export type SettleTracker = ReadonlyMap<string, Entry>;

export type SettleDecision =
  | { kind: 'wait'; checkAt: number }
  /** Stable long enough; the entry is dropped so a later change starts a fresh wait. */
  | { kind: 'settled'; stat: FileStat };

export const emptyTracker = (): SettleTracker => new Map();

/**
 * Size alone is not enough: a downloader that pre-allocates the full size keeps writing inside it,
 * which moves only the mtime. Any difference restarts the wait, and there is no give-up: a file
 * that never settles is simply never taken.
 */
function decide(
  prev: Entry | undefined,
  stat: FileStat,
  now: number,
  settleMs: number,
): { entry: Entry | undefined; decision: SettleDecision } {
  const same = prev !== undefined && prev.size === stat.size && prev.mtimeMs === stat.mtimeMs;
  const since = same ? prev.since : now;
  if (same && now - since >= settleMs) {
    return { entry: undefined, decision: { kind: 'settled', stat: { size: stat.size, mtimeMs: stat.mtimeMs } } };
  }
  return {
    entry: { size: stat.size, mtimeMs: stat.mtimeMs, since },
    decision: { kind: 'wait', checkAt: since + settleMs },
  };
}

export function observe(
  tracker: SettleTracker,
  path: string,
  stat: FileStat,
  now: number,
  settleMs: number = DEFAULT_SETTLE_MS,
): { tracker: SettleTracker; decision: SettleDecision } {
  const { entry, decision } = decide(tracker.get(path), stat, now, settleMs);
  const next = new Map(tracker);
  if (entry) next.set(path, entry);
  else next.delete(path);
  return { tracker: next, decision };
}

/** The file went away (deleted, renamed): stop tracking it. */
export function forget(tracker: SettleTracker, path: string): SettleTracker {
  if (!tracker.has(path)) return tracker;
  const rest = new Map(tracker);
  rest.delete(path);
  return rest;
}

/** Paths whose check is due at `now` (for an adapter that re-stats on a single timer). */
export function dueChecks(tracker: SettleTracker, now: number, settleMs: number = DEFAULT_SETTLE_MS): string[] {
  const due: string[] = [];
  for (const [p, e] of tracker) if (now - e.since >= settleMs) due.push(p);
  return due;
}

interface HeapItem {
  path: string;
  since: number;
}

/**
 * The same decisions over a mutable map, for the watcher adapter: copying an immutable map on each
 * of 10,000 near-simultaneous events costs O(n²) (seconds), which the folder-drop target forbids.
 * The entries are also kept in a heap by when each was first seen unchanged, so a tick finds what
 * is due without walking every file still waiting: a first look at a folder of 100,000 files ticks
 * hundreds of times while most of them wait, and each walk of them all was 100,000 steps.
 */
export class SettleSet {
  private readonly entries = new Map<string, Entry>();
  /** Min-heap on `since`. An item whose path moved on (forgotten, or seen changed) is skipped when met. */
  private heap: HeapItem[] = [];
  /** path → the `since` its heap item carries; absent once handed out by `due`. */
  private readonly inHeap = new Map<string, number>();

  constructor(private readonly settleMs: number = DEFAULT_SETTLE_MS) {}

  observe(path: string, stat: FileStat, now: number): SettleDecision {
    const { entry, decision } = decide(this.entries.get(path), stat, now, this.settleMs);
    if (entry) {
      this.entries.set(path, entry);
      if (this.inHeap.get(path) !== entry.since) this.push(path, entry.since);
    } else this.forget(path);
    return decision;
  }

  forget(path: string): void {
    this.entries.delete(path);
    this.inHeap.delete(path);
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Drop every entry the predicate selects (a folder removed, a filter changed). */
  forgetWhere(pred: (path: string) => boolean): void {
    for (const p of this.entries.keys()) if (pred(p)) this.forget(p);
  }

  clear(): void {
    this.entries.clear();
    this.inHeap.clear();
    this.heap = [];
  }

  /**
   * The paths due now, each handed out once: the caller looks at each and observes it again, which
   * settles it, or starts a fresh wait that comes due in its turn. One still waiting that was handed
   * out is not handed out again until it is observed.
   */
  *due(now: number): Generator<string> {
    for (;;) {
      const top = this.validTop();
      if (top === undefined || now - top.since < this.settleMs) return;
      this.pop();
      this.inHeap.delete(top.path);
      yield top.path;
    }
  }

  /** Earliest time a waiting entry not yet handed out becomes due, or undefined when there is none. */
  nextCheckAt(): number | undefined {
    const top = this.validTop();
    return top === undefined ? undefined : top.since + this.settleMs;
  }

  get size(): number {
    return this.entries.size;
  }

  private validTop(): HeapItem | undefined {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined || this.inHeap.get(top.path) === top.since) return top;
      this.pop();
    }
  }

  private push(path: string, since: number): void {
    this.inHeap.set(path, since);
    // Items left behind by changed or forgotten files: rebuilt before they outnumber the live ones.
    if (this.heap.length > 2 * this.inHeap.size + 1024) {
      this.heap = this.heap.filter((x) => this.inHeap.get(x.path) === x.since);
      this.heap.sort((a, b) => a.since - b.since);
    }
    const h = this.heap;
    h.push({ path, since });
    let i = h.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if ((h[up] as HeapItem).since <= since) break;
      [h[i], h[up]] = [h[up] as HeapItem, h[i] as HeapItem];
      i = up;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && (h[l] as HeapItem).since < (h[m] as HeapItem).since) m = l;
      if (r < h.length && (h[r] as HeapItem).since < (h[m] as HeapItem).since) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as HeapItem, h[i] as HeapItem];
      i = m;
    }
  }
}
