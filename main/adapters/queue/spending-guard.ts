// Optional spending guard: pauses the queue when this month's credits (usage report, from the 1st
// of the month UTC to now) reach the cap set in settings, and lifts its own pause when the cap is
// raised or turned off. Checked at start, every few minutes, and after completions.
import type { UsageReportDto } from '../../service/types.js';
import type { Settings } from '../../engine/settings.js';

export const GUARD_INTERVAL_MS = 5 * 60_000;

export interface GuardDeps {
  settings: () => Settings;
  usageReport: (start: Date, end: Date) => Promise<UsageReportDto>;
  pause: (message: string) => void;
  unpause: () => void;
  isPausedByGuard: () => boolean;
  now?: () => number;
}

export function monthStartUtc(now: number): Date {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

export class SpendingGuard {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  lastCredits: number | undefined;

  constructor(private readonly d: GuardDeps) {}

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), GUARD_INTERVAL_MS);
    this.timer.unref();
  }

  /** One check; errors (offline, auth) leave the state as it was — the queue reports those itself. */
  async check(): Promise<void> {
    const g = this.d.settings().spendingGuard;
    if (!g.enabled || g.monthlyCreditCap === null) {
      if (this.d.isPausedByGuard()) this.d.unpause();
      return;
    }
    if (this.checking) return;
    this.checking = true;
    try {
      const now = (this.d.now ?? Date.now)();
      const report = await this.d.usageReport(monthStartUtc(now), new Date(now));
      const credits = Number(report.totalMeasurements.credits);
      this.lastCredits = credits;
      if (credits >= g.monthlyCreditCap) {
        if (!this.d.isPausedByGuard()) {
          this.d.pause(
            `This month's usage (${credits.toFixed(2)} credits) reached the cap of ${g.monthlyCreditCap} credits set in Settings. Raise the cap or resume by hand.`,
          );
        }
      } else if (this.d.isPausedByGuard()) this.d.unpause();
    } catch {
      /* reported by the queue's own calls */
    } finally {
      this.checking = false;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
