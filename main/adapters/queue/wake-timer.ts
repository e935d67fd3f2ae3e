// One timer for everything of the queue that comes due: a job's retry after its backoff, and the
// end of a timed pause (queue-runner.ts). Never one timer per job: 10,000 jobs waiting to retry
// are one timer set at the earliest of them.
export class WakeTimer {
  /** Job id → when it wakes. */
  private readonly wakeups = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private stopped = false;

  /**
   * `wake(id)`: a job's time came; `after()`: every due job was woken; `pauseUntil()`: the end of a
   * timed pause, if the queue has one (the timer fires then too).
   */
  constructor(
    private readonly now: () => number,
    private readonly d: { wake(id: string): void; after(): void; pauseUntil(): number | undefined },
  ) {}

  /** Job `id` wakes at `at`. */
  wakeAt(id: string, at: number): void {
    this.wakeups.set(id, at);
    this.arm(at);
  }

  /** Job `id` no longer waits (it finished). */
  forget(id: string): void {
    this.wakeups.delete(id);
  }

  /** The timer fires by `at` (earlier if something else is due first). */
  arm(at: number): void {
    if (this.stopped || at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.tick(), Math.max(0, at - this.now()));
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private tick(): void {
    this.timerAt = Infinity;
    this.timer = undefined;
    const now = this.now();
    for (const [id, at] of this.wakeups) {
      if (at <= now) {
        this.wakeups.delete(id);
        this.d.wake(id);
      }
    }
    this.d.after();
    let nextAt = this.d.pauseUntil() ?? Infinity;
    for (const at of this.wakeups.values()) if (at < nextAt) nextAt = at;
    if (nextAt < Infinity) this.arm(Math.max(nextAt, now + 5));
  }
}
