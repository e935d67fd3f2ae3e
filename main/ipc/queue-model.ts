// The Queue screen's numbers, computed in main: counts, the current batch (done/total since the
// queue was last empty), upload throughput over the last minute, and a rough ETA. Shared by the
// handlers (queue:snapshot) and the event stream (queue:stats-changed) so both say the same thing.
import type { JobView, QueueSnapshot, QueueStats } from '../../preload/contract.js';
import { isTerminal, JOB_STATES, type JobRecord, type JobState } from '../engine/job.js';
import { batchDone, batchWith } from '../engine/batch.js';
import { compareQueueOrder } from '../engine/queue-order.js';
import type { Runtime } from '../runtime.js';
import { copyingView, toJobView } from './views.js';

const WINDOW_MS = 60_000;

export class QueueModel {
  private batch: ReadonlySet<string>;
  private samples: Array<{ at: number; bytes: number }> = [];
  private uploadedTotal = 0;
  private readonly lastSent = new Map<string, number>();

  constructor(
    private readonly rt: Runtime,
    private readonly now: () => number = Date.now,
  ) {
    this.batch = new Set(rt.activeJobs().map((j) => j.id));
  }

  /** Feed every job the engine reports, so the batch and the throughput stay current. */
  observe(job: JobRecord): void {
    this.batch = batchWith(this.batch, job, this.stateOf);
    const sent = this.rt.progressOf(job.id)?.sent ?? (job.uploadConfirmed ? job.totalBytes : 0);
    const before = this.lastSent.get(job.id) ?? 0;
    if (sent > before) {
      this.uploadedTotal += sent - before;
      this.samples.push({ at: this.now(), bytes: this.uploadedTotal });
    }
    if (isTerminal(job.state) || job.uploadConfirmed) this.lastSent.delete(job.id);
    else this.lastSent.set(job.id, sent);
  }

  private readonly stateOf = (id: string): JobState | undefined => this.rt.job(id)?.state;

  private activeCount(): number {
    return this.rt.activeJobs().length;
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
    const done = batchDone(this.batch, this.stateOf);
    let remainingBytes = 0;
    for (const id of this.batch) {
      const j = this.rt.job(id);
      if (j && !isTerminal(j.state) && !j.uploadConfirmed) {
        remainingBytes += j.totalBytes - (this.rt.progressOf(id)?.sent ?? 0);
      }
    }
    const throughput = this.throughput();
    const inFlight = this.activeCount();
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
      offline: this.rt.isOffline,
      stoppingAfterCurrent: this.rt.stoppingAfterCurrent,
    };
  }

  view(job: JobRecord): JobView {
    return toJobView(job, this.rt.progressOf(job.id), this.now());
  }

  /** Jobs in the engine's queue order; dismissed ones are left out. */
  snapshot(): QueueSnapshot {
    const jobs = this.rt.jobs().filter((j) => !j.dismissed || !isTerminal(j.state));
    jobs.sort(compareQueueOrder);
    const copying = this.rt.folders.copies().map(copyingView);
    return {
      ...this.stats(),
      jobs: jobs.map((j) => this.view(j)),
      ...(copying.length > 0 ? { copying } : {}),
      generatedAt: this.now(),
    };
  }
}
