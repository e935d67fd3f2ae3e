// Carries out the reducer's decisions: every event goes through `next`, the new record is
// persisted BEFORE its effects run (write before you act), and each effect's outcome comes back as
// an event. Uploads run in a p-queue (upload concurrency); exports and results in Delivery; polling is
// batched by the tracker. Nothing here decides a retry, a failure or a pause reason: the reducer and
// engine/pause.ts do.
import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import { toServiceError } from '../../service/errors.js';
import { failureEffect, pauseMessage } from '../../engine/pause.js';
import type { StreamDto } from '../../service/types.js';
import { ProgressCoalescer } from '../../engine/events.js';
import { failureOf, isTerminal, type Effect, type JobEvent, type JobRecord } from '../../engine/job.js';
import { DEFAULT_CONTEXT, next, type EngineContext } from '../../engine/reducer.js';
import { planDispatch, type SchedulerLimits } from '../../engine/scheduler.js';
import { ActiveJobs } from './active-jobs.js';
import { Delivery } from './delivery.js';
import { StreamTracker } from './stream-tracker.js';
import { Uploader, type UploadProgress } from './uploader.js';
import type { PauseState, RunnerOptions } from './runner-ports.js';
import { OfflineProbe } from './offline-probe.js';
import { sharedStreamId } from '../claims/shared-id.js';
import { StorageGuard } from './storage-guard.js';
import { WakeTimer } from './wake-timer.js';

export type { PauseState, RunnerOptions, ServicePort } from './runner-ports.js';

export class QueueRunner {
  readonly progress = new Map<string, UploadProgress>();
  private readonly active = new ActiveJobs();
  /** Retries after their backoff and the end of a timed pause (wake-timer.ts). */
  private readonly timer: WakeTimer;
  private readonly pausedFolders = new Set<string>();
  /** Watch folders that are away (a share offline): nothing of theirs starts until they return. */
  private readonly awayFolders = new Set<string>();
  private readonly uploadQueue: PQueue;
  private readonly delivery: Delivery;
  private readonly uploader: Uploader;
  private readonly tracker: StreamTracker;
  private readonly probe: OfflineProbe;
  private readonly coalescer = new ProgressCoalescer<JobRecord>();
  private readonly ctx: EngineContext;
  private readonly now: () => number;
  private pause: PauseState | undefined;
  private pumpScheduled = false;
  private started = false;
  private stopped = false;
  private readonly storage: StorageGuard;

  constructor(private readonly o: RunnerOptions) {
    this.ctx = o.ctx ?? DEFAULT_CONTEXT;
    this.now = o.now ?? Date.now;
    this.uploadQueue = new PQueue({ concurrency: o.limits.uploadConcurrency });
    this.timer = new WakeTimer(this.now, {
      wake: (id) => this.resumeIfIdle(id),
      after: () => this.schedulePump(),
      pauseUntil: () => this.pause?.until,
    });
    this.storage = new StorageGuard({
      store: o.store,
      onBlocked: (message) => this.setPause({ reason: 'storage', message }),
      onWritable: () => this.setPause(undefined),
      isWaiting: () => this.pause?.reason === 'storage',
      ...(o.storageRetryMs === undefined ? {} : { retryMs: o.storageRetryMs }),
    });
    this.delivery = new Delivery({
      exportJson: (streamId) => o.service.exportJson(streamId),
      writeResults: o.writeResults,
      job: (id) => o.store.get(id),
      apply: (id, ev) => this.apply(id, ev),
      noteFailure: (err) => this.noteFailure(err),
      storageFailed: (id, err) => this.storage.failed(id, err, o.exportsDir),
      exportsDir: o.exportsDir,
      ...(o.exportConcurrency === undefined ? {} : { concurrency: o.exportConcurrency }),
      ...(o.folderAway ? { folderAway: o.folderAway } : {}),
    });
    this.uploader = new Uploader(
      o.service,
      (id, ev) => this.apply(id, ev),
      this.progress,
      () => this.touchProgress(),
      (err) => this.noteFailure(err),
      o.folderAway,
    );
    this.tracker = new StreamTracker({
      port: o.service,
      streamIdOf: (id) => this.active.get(id)?.streamId,
      onPolled: (id, stream) => this.apply(id, { type: 'streamPolled', stream }),
      onFailed: (id, err) => {
        this.noteFailure(err);
        this.apply(id, { type: 'pollFailed', error: failureOf(toServiceError(err)) });
      },
      now: this.now,
      minListIntervalMs: this.ctx.poll.initialMs,
      maxListIntervalMs: this.ctx.poll.maxMs,
      ...(o.hungryPollMs === undefined ? {} : { hungryPollMs: o.hungryPollMs }),
    });
    this.probe = new OfflineProbe(
      () => o.service.testConnection(),
      () => this.onBackOnline(),
    );
    this.active.load(o.store.all().filter((j) => !isTerminal(j.state)));
  }

  /** Replays the journal: every unfinished job re-derives its next action. */
  start(): void {
    this.started = true;
    for (const id of [...this.active.keys()]) this.apply(id, { type: 'resume' });
    this.schedulePump();
  }

  get pauseState(): PauseState | undefined {
    return this.pause;
  }

  get isOffline(): boolean {
    return this.probe.offline;
  }

  setLimits(limits: SchedulerLimits): void {
    this.o.limits = limits;
    this.uploadQueue.concurrency = limits.uploadConcurrency;
    this.schedulePump();
  }

  /**
   * False when the journal could not take the job (the queue is then paused for storage). `soon`:
   * its line may wait for the end of this turn (a watch folder's files, found again if lost).
   */
  add(job: JobRecord, soon = false): boolean {
    if (!(soon ? this.storage.putSoon(job) : this.storage.put(job))) return false;
    this.active.set(job);
    this.o.emit({ type: 'job:added', job });
    this.schedulePump();
    return true;
  }

  /** Feeds one event to the reducer, persists, publishes, then carries out the effects. */
  apply(jobId: string, event: JobEvent): JobRecord | undefined {
    const job = this.o.store.get(jobId);
    if (!job || this.stopped) return job;
    const { job: updated, effects } = next(job, event, this.now(), this.ctx);
    if (updated !== job) {
      // Write before you act: a change the journal did not take is dropped with its effects. The
      // job keeps its recorded state, and 'resume' re-derives the step once the disk takes writes.
      if (!this.storage.put(updated)) return job;
      if (isTerminal(updated.state)) {
        this.active.delete(jobId);
        this.tracker.untrack(jobId);
        this.timer.forget(jobId);
        this.coalescer.drop(jobId);
      } else this.active.set(updated);
      this.o.emit({ type: 'job:updated', job: updated });
      if (isTerminal(updated.state) && !isTerminal(job.state)) this.o.onSettled?.(updated);
      if (event.type === 'sourceMoved') this.o.onMoved?.(updated);
    }
    // The service's creation time of a new stream: when it is expected to finish (stream-tracker.ts).
    if (event.type === 'uploadSucceeded' && updated !== job)
      this.tracker.noteCreated(jobId, event.stream.createdTimestamp);
    for (const effect of effects) this.run(updated, effect);
    if (updated.state !== job.state) this.schedulePump();
    return updated;
  }

  private run(job: JobRecord, e: Effect): void {
    const id = job.id;
    switch (e.type) {
      case 'startUpload':
        void this.uploadQueue.add(() => this.uploader.upload(job, e.streamId));
        return;
      case 'abortUpload':
        this.uploader.abort(id);
        return;
      case 'checkStream':
        void this.call(id, this.verify(job, e.streamId), ({ stream, ingressBytes }) => ({
          type: 'reattachResult',
          found: true,
          stream,
          ...(ingressBytes === undefined ? {} : { ingressBytes }),
        })).catch((err: unknown) => {
          const se = toServiceError(err);
          if (se.errorClass === 'not-found') this.apply(id, { type: 'reattachResult', found: false });
          else this.apply(id, { type: 'reattachFailed', error: failureOf(se) });
        });
        return;
      case 'cancelStream':
        // The answer goes back to the reducer: a job waiting for its old stream to finish (one
        // file, one bill) acts on it; one the user canceled has settled and ignores it.
        void this.call(id, this.o.service.cancelStream(e.streamId), ({ stream }) => ({
          type: 'cancelAnswered',
          stream,
        })).catch((err: unknown) => this.apply(id, { type: 'cancelFailed', error: failureOf(toServiceError(err)) }));
        return;
      case 'pollLater':
        this.tracker.track(id, e.at);
        return;
      case 'readComponents':
        void this.call(id, this.o.service.streamComponents(e.streamId), (c) => ({
          type: 'componentsRead',
          components: c,
        })).catch((err: unknown) =>
          this.apply(id, { type: 'componentsReadFailed', error: failureOf(toServiceError(err)) }),
        );
        return;
      case 'exportNow':
        this.delivery.exportNow(id, e.streamId);
        return;
      case 'writeResults':
        this.delivery.writeNow(id, e.stagedPath);
        return;
      case 'pauseQueue':
        this.setPause({
          reason: e.reason,
          message: pauseMessage(e.reason, e.message),
          ...(e.until ? { until: e.until } : {}),
        });
        return;
      case 'scheduleRetry':
        this.timer.wakeAt(id, e.at);
        return;
    }
  }

  /** The stream by id, plus (when no 200 was recorded) how many bytes the service received. */
  private async verify(job: JobRecord, streamId: string): Promise<{ stream: StreamDto; ingressBytes?: number }> {
    const stream = await this.o.service.findStream(streamId);
    if (job.uploadConfirmed) return { stream };
    const usage = await this.o.service.streamUsage(streamId).catch(() => undefined);
    if (!usage || usage.processors.length === 0) return { stream };
    return { stream, ingressBytes: usage.processors.reduce((n, p) => n + p.ingressSize, 0) };
  }

  /** Runs a read; a network failure takes the queue offline before the job hears of it. */
  private async call<T>(id: string, p: Promise<T>, ok: (v: T) => JobEvent): Promise<void> {
    const v = await p.catch((err: unknown) => {
      this.noteFailure(err);
      throw err;
    });
    this.apply(id, ok(v));
  }

  noteFailure(err: unknown): void {
    const se = toServiceError(err);
    const effect = failureEffect(se);
    if (effect && this.probe.goOffline(se.message)) {
      this.tracker.hold();
      this.o.emit({ type: 'queue:paused', reason: 'offline', message: effect.offline });
    }
  }

  // ---- pausing -------------------------------------------------------------------------------

  setPause(p: PauseState | undefined): void {
    this.pause = p;
    if (p) {
      this.o.emit({
        type: 'queue:paused',
        reason: p.reason,
        message: p.message,
        ...(p.until ? { until: p.until } : {}),
      });
      if (p.until) this.timer.arm(p.until);
    } else {
      this.o.emit({ type: 'queue:resumed' });
      // Jobs that stopped for the pause (credentials) pick up where they were.
      this.resumeIdle();
    }
    this.schedulePump();
  }

  setFolderPaused(folderId: string, paused: boolean): void {
    if (paused) this.pausedFolders.add(folderId);
    else this.pausedFolders.delete(folderId);
    this.schedulePump();
  }

  /** A watch folder went away or came back; back, the results that waited for it are written. */
  setFolderAway(folderId: string, away: boolean): void {
    if (away) this.awayFolders.add(folderId);
    else if (this.awayFolders.delete(folderId)) this.delivery.writeParked(folderId);
    this.schedulePump();
  }

  /**
   * 'resume' re-derives a job's next step from its record, as after a restart. A job whose upload
   * or export is running in this process right now must not get it: it would be treated as
   * interrupted and its live stream verified and abandoned.
   */
  private resumeIdle(): void {
    for (const id of [...this.active.keys()]) this.resumeIfIdle(id);
  }

  private resumeIfIdle(id: string): void {
    if (!this.uploader.isActive(id) && !this.delivery.isBusy(id)) this.apply(id, { type: 'resume' });
  }

  private onBackOnline(): void {
    this.o.emit({ type: 'queue:resumed' });
    this.resumeIdle();
    const now = this.now();
    this.tracker.release();
    this.timer.arm(now);
    this.schedulePump();
  }

  private isPausedNow(now: number): boolean {
    if (this.probe.offline) return true;
    if (!this.pause) return false;
    if (this.pause.until !== undefined && now >= this.pause.until) {
      this.pause = undefined;
      this.o.emit({ type: 'queue:resumed' });
      return false;
    }
    return true;
  }

  // ---- scheduling ----------------------------------------------------------------------------

  schedulePump(): void {
    // Nothing is dispatched before the journal is replayed: a shared folder's jobs are handed over
    // first (a job ending then would otherwise start the next one before its claim is checked).
    if (this.pumpScheduled || this.stopped || !this.started) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Starts as many queued jobs as the limits allow (the scheduler decides which). */
  private pump(): void {
    const now = this.now();
    if (this.isPausedNow(now)) return;
    const plan = planDispatch({
      jobs: this.active.values(),
      counted: { used: this.active.used, queuedInOrder: this.active.queuedInOrder() },
      now,
      limits: this.o.limits,
      pausedFolders: this.awayFolders.size ? new Set([...this.pausedFolders, ...this.awayFolders]) : this.pausedFolders,
    });
    this.tracker.setHungry(plan.waitingForStream);
    // A shared folder's file asks under the id every computer derives for it (one stream, one bill).
    for (const j of plan.start) {
      this.apply(j.id, { type: 'dispatched', freshStreamId: j.shared ? sharedStreamId(j.shared) : randomUUID() });
    }
  }

  private touchProgress(): void {
    // Progress lives in memory (a restart re-uploads from zero anyway); views read `progress`.
    const now = this.now();
    for (const [id] of this.progress) {
      const job = this.active.get(id);
      if (job && this.coalescer.offer(id, job, now) !== undefined) this.o.emit({ type: 'job:updated', job });
    }
  }

  /** Jobs not yet finished. */
  activeJobs(): JobRecord[] {
    return [...this.active.values()];
  }

  /** Stops starting anything; in-flight uploads are aborted and stay resumable from the journal. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer.stop();
    this.storage.stop();
    this.tracker.stop();
    this.probe.stop();
    this.uploadQueue.pause();
    this.uploader.abortAll();
    this.uploadQueue.clear();
    await Promise.race([
      Promise.all([this.uploadQueue.onIdle(), this.delivery.stop()]),
      new Promise((r) => setTimeout(r, 2000).unref()),
    ]);
  }
}
