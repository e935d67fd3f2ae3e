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

/** In `LookQueue.state`: waiting for its look, being looked at, to be looked at again after. */
const QUEUED = 1;
const IN_FLIGHT = 2;
const AGAIN = 4;
const STATE = QUEUED | IN_FLIGHT | AGAIN;
/** The caller's flags for a path's next look sit above the three state bits. */
const FLAGS_AT = 3;

export class LookQueue {
  private queue: string[] = [];
  private head = 0;
  /**
   * path → its state bits, with the flags its next look is to be made with above them. One map,
   * set as a path moves on and deleted once when it is done: a set each for waiting, being looked
   * at and again (and the caller's own for its flags) grew and shrank their tables with every
   * look, and at 100,000 files that churn was tens of MB of garbage reaching the old generation.
   */
  private readonly state = new Map<string, number>();
  private inFlight = 0;
  /** When the current run of looks on this thread began; undefined between runs. */
  private sliceStart: number | undefined;

  constructor(
    /** Looks at a path with the flags its adds gave since its last look (OR-ed together). */
    private readonly look: (path: string, flags: number) => Promise<void>,
    /** Whether looks are made on this thread now. */
    private readonly onThread: () => boolean,
  ) {}

  /** Paths waiting for their look (not those being looked at). */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Waiting for its look, or being looked at. */
  has(p: string): boolean {
    return this.state.has(p);
  }

  /** Asks for a look at `p`; `flags` are kept for its next look, with any an earlier add gave. */
  add(p: string, flags = 0): void {
    const s = this.state.get(p);
    const f = flags << FLAGS_AT;
    if (s === undefined) {
      this.state.set(p, QUEUED | f);
      this.queue.push(p);
      this.pump();
    } else if (s & IN_FLIGHT) this.state.set(p, s | AGAIN | f);
    else if (f !== 0) this.state.set(p, s | f);
  }

  /** The flags of `p`'s next look are dropped (the file went); the look itself, if any, stays. */
  unflag(p: string): void {
    const s = this.state.get(p);
    if (s !== undefined && s >>> FLAGS_AT !== 0) this.state.set(p, s & STATE);
  }

  /** Forget what waits; looks under way finish (their callers tell stale ones apart). */
  clear(): void {
    this.queue = [];
    this.head = 0;
    for (const [p, s] of this.state) {
      if (s & IN_FLIGHT) this.state.set(p, IN_FLIGHT);
      else this.state.delete(p);
    }
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
    while (this.inFlight < CONCURRENCY && this.head < this.queue.length) {
      const p = this.queue[this.head++] as string;
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      const s = this.state.get(p) ?? QUEUED;
      this.state.set(p, IN_FLIGHT);
      this.inFlight++;
      void this.look(p, s >>> FLAGS_AT).finally(() => {
        this.inFlight--;
        const now = this.state.get(p);
        if (now !== undefined && now & AGAIN) {
          this.state.set(p, QUEUED | (now & ~STATE));
          this.queue.push(p);
        } else this.state.delete(p);
        this.pump();
      });
    }
  }
}
