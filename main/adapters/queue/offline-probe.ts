// When the service stops answering, the queue goes offline and this probe asks the service at a
// growing interval (1 s → 30 s) until it answers; then the queue resumes by itself.
export class OfflineProbe {
  offline = false;
  reason = '';
  private delayMs = 1000;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly check: () => Promise<void>,
    private readonly onBack: () => void,
    private readonly maxDelayMs = 30_000,
  ) {}

  /** Returns true when this call took the queue offline (it was online before). */
  goOffline(reason: string): boolean {
    if (this.offline) return false;
    this.offline = true;
    this.reason = reason;
    this.delayMs = 1000;
    this.schedule();
    return true;
  }

  private schedule(): void {
    this.timer = setTimeout(() => void this.attempt(), this.delayMs);
    this.timer.unref?.();
  }

  private async attempt(): Promise<void> {
    try {
      await this.check();
    } catch (e) {
      // Any answer at all (even 401) proves the network is back; only silence keeps us offline.
      const kind = (e as { kind?: string }).kind;
      if (kind === 'network' || kind === 'timeout') {
        this.delayMs = Math.min(this.delayMs * 2, this.maxDelayMs);
        this.schedule();
        return;
      }
    }
    this.offline = false;
    this.reason = '';
    this.onBack();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
