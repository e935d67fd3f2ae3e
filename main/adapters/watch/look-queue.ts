// The paths of one watch folder waiting to be looked at (a stat, and for a settled file the open,
// reads and close of its settle check): each at most once in the queue, a bounded number at a
// time, and one asked for again while it is being looked at is looked at once more after.
// On a local drive the looks run on this thread (settle-checker.ts `setLocalVolume`); they then
// finish without waiting, so the queue hands the thread back between runs of SLICE_MS.

const CONCURRENCY = 32;
/**
 * On this thread, the longest run of looks before the thread turns to other work (the walk, the
 * intake, a window's requests).
 */
const SLICE_MS = 8;

export class LookQueue {
  private queue: string[] = [];
  private head = 0;
  private readonly queued = new Set<string>();
  private readonly inflight = new Set<string>();
  private readonly again = new Set<string>();
  /** When the current run of looks on this thread began; undefined between runs. */
  private sliceStart: number | undefined;

  constructor(
    private readonly look: (path: string) => Promise<void>,
    /** Whether looks are made on this thread now. */
    private readonly onThread: () => boolean,
  ) {}

  /** Paths waiting for their look (not those being looked at). */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Waiting for its look, or being looked at. */
  has(p: string): boolean {
    return this.queued.has(p) || this.inflight.has(p);
  }

  add(p: string): void {
    if (this.inflight.has(p)) {
      this.again.add(p);
      return;
    }
    if (this.queued.has(p)) return;
    this.queued.add(p);
    this.queue.push(p);
    this.pump();
  }

  /** Forget what waits; looks under way finish (their callers tell stale ones apart). */
  clear(): void {
    this.queue = [];
    this.head = 0;
    this.queued.clear();
    this.again.clear();
  }

  private pump(): void {
    if (this.onThread() && this.head < this.queue.length) {
      const t = performance.now();
      if (this.sliceStart === undefined) {
        // The run ends when the thread next turns to other work; the looks go on after it.
        this.sliceStart = t;
        setImmediate(() => {
          this.sliceStart = undefined;
          this.pump();
        });
      } else if (t - this.sliceStart > SLICE_MS) return;
    }
    while (this.inflight.size < CONCURRENCY && this.head < this.queue.length) {
      const p = this.queue[this.head++] as string;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      this.queued.delete(p);
      this.inflight.add(p);
      void this.look(p).finally(() => {
        this.inflight.delete(p);
        if (this.again.delete(p)) this.add(p);
        this.pump();
      });
    }
  }
}
