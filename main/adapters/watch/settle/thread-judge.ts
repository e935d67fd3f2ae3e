// Whether a folder's file-system calls may go on being made at once on this thread (a local
// drive: settle-checker.ts `setLocalVolume`), judged from how long they have been holding it.
//
// A cache miss is not a slow drive. Files not read for a while (after a restart, or pages the
// system reclaimed) are read from the disk: most such calls take tens of microseconds, and now
// and then one takes 20-30 ms as the disk's queue drains. On 100,000 such files one call of 26 ms
// sent every later look to the thread pool, where the same first look took 46 s instead of about
// 20 s. What the thread must not do is wait on a drive that is slow as such: one that stalls (a
// disk spinning up, a drive that is not what it says) or whose every call waits (a spinning disk
// seeking, a user-space file system).

/** One call that held the thread this long: the drive stalls. */
export const STALL_MS = 100;
/** The last this many calls... */
export const WINDOW_CALLS = 32;
/** ...held the thread this long together (2 ms a call, some fifty times a cache miss on flash). */
export const WINDOW_MS = 64;

export class ThreadJudge {
  private readonly recent = new Float64Array(WINDOW_CALLS);
  private next = 0;
  private held = 0;
  private slow = false;

  /** `onSlow`: told once, at the call that shows the drive is slow. */
  constructor(private readonly onSlow: () => void) {}

  /** A new verdict: the folder came up again, its drive read again (settle-checker.ts `setLocalVolume`). */
  reset(): void {
    this.recent.fill(0);
    this.next = 0;
    this.held = 0;
    this.slow = false;
  }

  /** One call made on this thread held it `ms`. */
  took(ms: number): void {
    if (this.slow) return;
    this.held += ms - (this.recent[this.next] as number);
    this.recent[this.next] = ms;
    this.next = (this.next + 1) % WINDOW_CALLS;
    if (ms > STALL_MS || this.held > WINDOW_MS) {
      this.slow = true;
      this.onSlow();
    }
  }
}
