// A burst of file-system events can overflow the kernel's queue of them (inotify keeps 16,384 by
// default, and a card dump of 10,000 files makes two or more each), and what overflows is lost
// without a word: Node's fs.watch never reports the overflow. So after a burst a folder is read
// again for names not seen yet, once it goes quiet (or every so often while it lasts), instead of
// those files waiting for the periodic rescan a minute later.

/** Raw events in one burst that make the folder worth reading again: far below what overflows. */
export const BURST_EVENTS = 2000;
/** How long a burst must be quiet before the look. */
export const BURST_QUIET_MS = 1000;
/** The longest a burst that does not stop waits for its look. */
export const BURST_MAX_WAIT_MS = 10_000;

export class EventBurst {
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  private armedAt = 0;

  constructor(
    private readonly onBurstOver: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** One raw event. */
  event(): void {
    if (++this.count < BURST_EVENTS) return;
    if (this.timer === undefined) {
      this.armedAt = this.now();
      this.timer = setTimeout(() => this.fire(), BURST_QUIET_MS);
      this.timer.unref();
    } else if (this.now() - this.armedAt < BURST_MAX_WAIT_MS) this.timer.refresh();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.count = 0;
  }

  private fire(): void {
    this.timer = undefined;
    this.count = 0;
    this.onBurstOver();
  }
}
