// One timer per folder, at the earliest due check of its waiting files (engine/settle.ts says when
// each is due), never one per file: 10,000 files landing at once are one timer, not 10,000.
// The settle checker sets it (`schedule`) and is called back with the time when it fires.

/** Shortest gap between settle ticks while due files are still being re-stat'ed. */
const TICK_FLOOR_MS = 50;

export class DueTicker {
  private tick: { timer: NodeJS.Timeout; at: number } | undefined;

  /**
   * `due(now)` hands out the files due by `now` and answers when the next one is (undefined: none
   * waits). `epoch`: the checker's generation; a tick set before a reset does nothing.
   */
  constructor(
    private readonly now: () => number,
    private readonly epoch: () => number,
    private readonly due: (now: number) => number | undefined,
  ) {}

  /** A check is due at `at`: the timer moves earlier when it must, never later. */
  schedule(at: number): void {
    if (this.tick && this.tick.at <= at) return;
    if (this.tick) clearTimeout(this.tick.timer);
    const gen = this.epoch();
    const timer = setTimeout(() => this.fire(gen), Math.max(0, at - this.now()));
    timer.unref();
    this.tick = { timer, at };
  }

  /** No check is due any more (pause, folder gone). */
  clear(): void {
    if (this.tick) clearTimeout(this.tick.timer);
    this.tick = undefined;
  }

  private fire(gen: number): void {
    this.tick = undefined;
    if (gen !== this.epoch()) return;
    const now = this.now();
    const next = this.due(now);
    if (next !== undefined) this.schedule(Math.max(next, now + TICK_FLOOR_MS));
  }
}
