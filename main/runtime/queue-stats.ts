// The Queue screen's numbers: counts, the current batch (done/total since the queue was last
// empty, split by outcome), upload throughput over the last minute, and what is left
// (engine/estimate.ts decides; this gathers its inputs, learning the service's pace as files
// complete). ipc/queue-model.ts turns them into the views both the handlers and the event stream send.
import { isTerminal, JOB_STATES, type JobRecord, type JobState } from '../engine/job.js';
import { batchWith } from '../engine/batch.js';
import { estimateBatch, lineProgress, paceOf, planningPace, type EstimateJob } from '../engine/estimate.js';
import { compareQueueOrder } from '../engine/queue-order.js';
import { MediaDurations } from '../adapters/queue/media-duration.js';
import { PaceStore } from '../adapters/store/state/pace-store.js';
import type { QueueCommands } from './queue-commands.js';

/** Where learned paces are kept; the state folder's `pace.json` by default. */
export interface PaceMemory {
  readonly paces: readonly number[];
  add(pace: number): void;
}

export interface QueueStatsOptions {
  now?: () => number;
  paces?: PaceMemory;
  durations?: MediaDurations;
}

export class QueueStatistics {
  private batch: ReadonlySet<string>;
  private batchId = 1;
  private batchStartedAt: number;
  private batchFinishedAt: number | undefined;
  /** The line's rate when last measured in this batch: plans the uploads still queued between two uploads. */
  private lastLineRate = 0;
  private readonly learned = new Set<string>();
  private readonly now: () => number;
  private readonly paces: PaceMemory;
  private readonly durations: MediaDurations;

  constructor(
    private readonly queue: QueueCommands,
    stateDir: string,
    opts: QueueStatsOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.paces = opts.paces ?? new PaceStore(stateDir);
    this.durations = opts.durations ?? new MediaDurations();
    this.batch = new Set(queue.activeJobs().map((j) => j.id));
    this.batchStartedAt = Math.min(this.now(), ...queue.activeJobs().map((j) => j.createdAt));
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

  private readonly stateOf = (id: string): JobState | undefined => this.queue.job(id)?.state;

  private finished(): number {
    let n = 0;
    for (const id of this.batch) {
      const s = this.stateOf(id);
      if (s === undefined || isTerminal(s)) n += 1;
    }
    return n;
  }

  stats() {
    const now = this.now();
    const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
    for (const j of this.queue.jobs()) if (!j.dismissed || !isTerminal(j.state)) counts[j.state] += 1;
    let completed = 0;
    let failed = 0;
    let canceled = 0;
    let uploading = false;
    let lineRate = 0;
    const open: Array<EstimateJob & { order: JobRecord }> = [];
    for (const id of this.batch) {
      const j = this.queue.job(id);
      // Gone from the journal: it finished, and how is no longer known; counted as completed.
      if (!j || j.state === 'completed') completed += 1;
      else if (j.state === 'failed' || j.state === 'expired') failed += 1;
      else if (j.state === 'canceled') canceled += 1;
      else {
        if (j.state === 'uploading') uploading = true;
        // What the line has carried, not what was handed to the socket (see engine/estimate.ts).
        const p = this.queue.progressOf(id);
        const line = p ? lineProgress(p, now) : { speed: 0, carried: 0 };
        if (j.state === 'uploading') lineRate += line.speed;
        const sent = line.carried;
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
    const pause = this.queue.pauseState;
    // The number on screen is what the line carries now, the sum of the uploads' speeds (0 when
    // nothing uploads, or paused); the estimate plans with the last one measured in the gap between
    // two uploads, and says "unknown" until the first is (an upload's first seconds fill buffers).
    if (lineRate > 0) this.lastLineRate = lineRate;
    const rate = lineRate > 0 ? lineRate : this.lastLineRate;
    const throughput = pause || !uploading ? 0 : lineRate;
    const { pace, learned } = planningPace(this.paces.paces);
    const estimate = estimateBatch({
      jobs: open,
      now,
      throughput: rate,
      pace,
      paused: !!pause,
      stoppingAfterCurrent: this.queue.stoppingAfterCurrent,
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
      offline: this.queue.isOffline,
      stoppingAfterCurrent: this.queue.stoppingAfterCurrent,
    };
  }
}
