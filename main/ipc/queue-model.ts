// The Queue screen's numbers, computed in main: counts, the current batch (done/total since the
// queue was last empty), upload throughput over the last minute, and a rough ETA. Shared by the
// handlers (queue:snapshot) and the event stream (queue:stats-changed) so both say the same thing.
import type { JobView, QueueSnapshot, QueueStats } from '../../preload/contract.js';
import { isTerminal, JOB_STATES, type JobRecord, type JobState } from '../engine/job.js';
import type { Runtime } from '../runtime.js';
import { toJobView } from './views.js';

const WINDOW_MS = 60_000;

export class QueueModel {
  private batch = new Set<string>();
  private samples: Array<{ at: number; bytes: number }> = [];
  private uploadedTotal = 0;
  private readonly lastSent = new Map<string, number>();
  /** Set by "stop after current"; cleared on resume or once nothing is in flight. */
  stoppingAfterCurrent = false;

  constructor(
    private readonly rt: Runtime,
    private readonly now: () => number = Date.now,
  ) {
    for (const j of rt.runner.activeJobs()) this.batch.add(j.id);
  }

  /** Feed every job the engine reports, so the batch and the throughput stay current. */
  observe(job: JobRecord): void {
    if (!isTerminal(job.state) && !this.batch.has(job.id)) {
      // A job arriving after everything before it finished starts a new batch.
      this.resetBatchIfDone();
      this.batch.add(job.id);
    }
    const sent = this.rt.runner.progress.get(job.id)?.sent ?? (job.uploadConfirmed ? job.totalBytes : 0);
    const before = this.lastSent.get(job.id) ?? 0;
    if (sent > before) {
      this.uploadedTotal += sent - before;
      this.samples.push({ at: this.now(), bytes: this.uploadedTotal });
    }
    if (isTerminal(job.state) || job.uploadConfirmed) this.lastSent.delete(job.id);
    else this.lastSent.set(job.id, sent);
  }

  private resetBatchIfDone(): void {
    const allDone = [...this.batch].every((id) => {
      const j = this.rt.job(id);
      return !j || isTerminal(j.state);
    });
    if (allDone) this.batch = new Set();
  }

  private activeCount(): number {
    return this.rt.runner.activeJobs().length;
  }

  private throughput(): number {
    const now = this.now();
    this.samples = this.samples.filter((s) => now - s.at <= WINDOW_MS);
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.at === first.at) return 0;
    return Math.round((last.bytes - first.bytes) / ((last.at - first.at) / 1000));
  }

  stats(): QueueStats {
    const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
    for (const j of this.rt.jobs()) if (!j.dismissed || !isTerminal(j.state)) counts[j.state] += 1;
    let done = 0;
    let remainingBytes = 0;
    for (const id of this.batch) {
      const j = this.rt.job(id);
      if (!j || isTerminal(j.state)) done += 1;
      else if (!j.uploadConfirmed) remainingBytes += j.totalBytes - (this.rt.runner.progress.get(id)?.sent ?? 0);
    }
    const throughput = this.throughput();
    const inFlight = this.activeCount();
    if (this.stoppingAfterCurrent && (!this.rt.pauseState || this.inFlightCount() === 0)) {
      this.stoppingAfterCurrent = false;
    }
    const pause = this.rt.pauseState;
    return {
      counts,
      batch: {
        done,
        total: this.batch.size,
        throughput,
        // Upload time only: processing at the service is not predictable from here.
        ...(throughput > 0 && inFlight > 0 ? { etaMs: Math.round((remainingBytes / throughput) * 1000) } : {}),
      },
      ...(pause
        ? { pause: { reason: pause.reason, message: pause.message, ...(pause.until ? { until: pause.until } : {}) } }
        : {}),
      offline: this.rt.runner.isOffline,
      stoppingAfterCurrent: this.stoppingAfterCurrent,
    };
  }

  private inFlightCount(): number {
    return this.rt.runner.activeJobs().filter((j) => j.state !== 'queued').length;
  }

  view(job: JobRecord): JobView {
    return toJobView(job, this.rt.runner.progress.get(job.id), this.now());
  }

  /** Active jobs in queue order, then finished ones newest first; dismissed ones are left out. */
  snapshot(): QueueSnapshot {
    const jobs = this.rt.jobs().filter((j) => !j.dismissed || !isTerminal(j.state));
    const active = jobs.filter((j) => !isTerminal(j.state)).sort((a, b) => a.priority - b.priority || a.seq - b.seq);
    const done = jobs
      .filter((j) => isTerminal(j.state))
      .sort((a, b) => (b.completedAt ?? b.updatedAt) - (a.completedAt ?? a.updatedAt));
    return { ...this.stats(), jobs: [...active, ...done].map((j) => this.view(j)), generatedAt: this.now() };
  }
}
