// The Queue screen's numbers, computed in main: counts, the current batch (done/total since the
// queue was last empty, split by outcome), upload throughput over the last minute, and what is
// left (engine/estimate.ts decides; this gathers its inputs). Shared by the handlers
// (queue:snapshot) and the event stream (queue:stats-changed) so both say the same thing.
import type { CopyingList, JobView, QueueSnapshot, QueueStats } from '../../preload/contract.js';
import { isTerminal, JOB_STATES, type JobRecord, type JobState } from '../engine/job.js';
import { batchWith } from '../engine/batch.js';
import {
  estimateBatch,
  paceOf,
  planningPace,
  throughputOf,
  THROUGHPUT_WINDOW_MS,
  type EstimateJob,
  type ThroughputSample,
} from '../engine/estimate.js';
import { compareQueueOrder } from '../engine/queue-order.js';
import { MediaDurations } from '../adapters/queue/media-duration.js';
import { PaceStore } from '../adapters/store/pace-store.js';
import type { Runtime } from '../runtime.js';
import { copyingView, toJobView } from './views.js';

/** Files still copying sent in full; past these only their count (a card dump is 100,000 files). */
export const COPYING_SHOWN = 50;

/** Where learned paces are kept; the state folder's `pace.json` by default. */
export interface PaceMemory {
  readonly paces: readonly number[];
  add(pace: number): void;
}

export interface QueueModelOptions {
  now?: () => number;
  paces?: PaceMemory;
  durations?: MediaDurations;
}

export class QueueModel {
  private batch: ReadonlySet<string>;
  private batchId = 1;
  private batchStartedAt: number;
  private batchFinishedAt: number | undefined;
  private samples: ThroughputSample[] = [];
  private uploadedTotal = 0;
  private readonly lastSent = new Map<string, number>();
  private readonly learned = new Set<string>();
  private readonly now: () => number;
  private readonly paces: PaceMemory;
  private readonly durations: MediaDurations;

  constructor(
    private readonly rt: Runtime,
    opts: QueueModelOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.paces = opts.paces ?? new PaceStore(rt.stateDir);
    this.durations = opts.durations ?? new MediaDurations();
    this.batch = new Set(rt.activeJobs().map((j) => j.id));
    this.batchStartedAt = Math.min(this.now(), ...rt.activeJobs().map((j) => j.createdAt));
  }

  /** Feed every job the engine reports, so the batch, the throughput and the pace stay current. */
  observe(job: JobRecord): void {
    const before = this.batch;
    this.batch = batchWith(this.batch, job, this.stateOf);
    if (this.batch !== before && !before.has(this.batch.values().next().value ?? '')) {
      this.batchId += 1;
      this.batchStartedAt = this.now();
      this.batchFinishedAt = undefined;
    }
    if (this.batch.has(job.id)) {
      if (!isTerminal(job.state)) this.durations.of(job.id, job.source.path);
      else if (this.batchFinishedAt === undefined && this.finished() === this.batch.size) {
        this.batchFinishedAt = this.now();
      }
    }
    this.learn(job);
    const sent = this.rt.progressOf(job.id)?.sent ?? (job.uploadConfirmed ? job.totalBytes : 0);
    const was = this.lastSent.get(job.id) ?? 0;
    if (sent > was) {
      this.uploadedTotal += sent - was;
      const at = this.now();
      this.samples = this.samples.filter((s) => at - s.at <= THROUGHPUT_WINDOW_MS);
      this.samples.push({ at, bytes: this.uploadedTotal });
    }
    if (isTerminal(job.state) || job.uploadConfirmed) this.lastSent.delete(job.id);
    else this.lastSent.set(job.id, sent);
  }

  /** A file that completed in this run teaches the service's pace (once). */
  private learn(job: JobRecord): void {
    if (job.state !== 'completed' || this.learned.has(job.id) || !this.batch.has(job.id)) return;
    this.learned.add(job.id);
    const mediaDurationMs = job.mediaDurationMs ?? this.durations.of(job.id, job.source.path);
    const pace = paceOf({
      ...(job.uploadedAt !== undefined ? { uploadedAt: job.uploadedAt } : {}),
      ...(job.completedAt !== undefined ? { completedAt: job.completedAt } : {}),
      ...(mediaDurationMs !== undefined ? { mediaDurationMs } : {}),
    });
    if (pace !== undefined) this.paces.add(pace);
  }

  private readonly stateOf = (id: string): JobState | undefined => this.rt.job(id)?.state;

  private finished(): number {
    let n = 0;
    for (const id of this.batch) {
      const s = this.stateOf(id);
      if (s === undefined || isTerminal(s)) n += 1;
    }
    return n;
  }

  stats(): QueueStats {
    const now = this.now();
    const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
    for (const j of this.rt.jobs()) if (!j.dismissed || !isTerminal(j.state)) counts[j.state] += 1;
    let completed = 0;
    let failed = 0;
    let canceled = 0;
    let uploading = false;
    const open: Array<EstimateJob & { order: JobRecord }> = [];
    for (const id of this.batch) {
      const j = this.rt.job(id);
      // Gone from the journal: it finished, and how is no longer known; counted as completed.
      if (!j || j.state === 'completed') completed += 1;
      else if (j.state === 'failed' || j.state === 'expired') failed += 1;
      else if (j.state === 'canceled') canceled += 1;
      else {
        if (j.state === 'uploading') uploading = true;
        const sent = this.rt.progressOf(id)?.sent ?? 0;
        const mediaDurationMs = j.mediaDurationMs ?? this.durations.of(j.id, j.source.path);
        open.push({
          order: j,
          state: j.state,
          totalBytes: j.totalBytes,
          remainingBytes: j.uploadConfirmed ? 0 : Math.max(0, j.totalBytes - sent),
          ...(mediaDurationMs !== undefined ? { mediaDurationMs } : {}),
          ...(j.uploadedAt !== undefined ? { uploadedAt: j.uploadedAt } : {}),
        });
      }
    }
    open.sort((a, b) => compareQueueOrder(a.order, b.order));
    const pause = this.rt.pauseState;
    // The estimate plans with the last minute's rate even in the gap between two uploads; the
    // number on screen is what is moving now (0 when nothing uploads, or paused).
    const rate = throughputOf(this.samples, now, true);
    const throughput = pause || !uploading ? 0 : rate;
    const { pace, learned } = planningPace(this.paces.paces);
    const estimate = estimateBatch({
      jobs: open,
      now,
      throughput: rate,
      pace,
      paused: !!pause,
      stoppingAfterCurrent: this.rt.stoppingAfterCurrent,
    });
    const done = completed + failed + canceled;
    return {
      counts,
      batch: {
        id: this.batchId,
        done,
        completed,
        failed,
        canceled,
        total: this.batch.size,
        startedAt: this.batchStartedAt,
        ...(this.batchFinishedAt !== undefined && done === this.batch.size ? { finishedAt: this.batchFinishedAt } : {}),
        throughput,
        estimate: estimate.kind,
        ...(estimate.kind === 'eta' ? { etaMs: estimate.ms } : {}),
        pace,
        paceLearned: learned,
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
    const { total, files } = this.copying();
    return {
      ...this.stats(),
      jobs: jobs.map((j) => this.view(j)),
      ...(total > 0 ? { copying: files, copyingTotal: total } : {}),
      generatedAt: this.now(),
    };
  }

  /** The files still copying as a screen shows them: the count, and only the first few in full. */
  copying(): CopyingList {
    return {
      total: this.rt.folders.copyingCount,
      files: this.rt.folders.copies(COPYING_SHOWN).map(copyingView),
    };
  }
}
