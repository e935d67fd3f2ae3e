// Reported files that a raw file-system event touched, each looked at once more a moment later,
// all in one batch: what chokidar's own throttles drop is still seen.

/**
 * chokidar drops a file's event that comes within 5 ms of the one before (and a change within
 * 50 ms of the last it emitted), and never emits it later: a write right after a touch or an
 * attribute change of a reported file would wait for the periodic rescan. Any raw event on a
 * reported file has it looked at once more after this long (a stat; nothing if it is unchanged).
 */
export const TRAILING_LOOK_MS = 120;

export class TrailingLooks {
  private readonly paths = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly look: (path: string) => void) {}

  add(p: string): void {
    this.paths.add(p);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const due = [...this.paths];
      this.paths.clear();
      for (const q of due) this.look(q);
    }, TRAILING_LOOK_MS);
    this.timer.unref();
  }

  delete(p: string): void {
    this.paths.delete(p);
  }

  /** Nothing pending is looked at (a pause, the folder gone). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.paths.clear();
  }
}
