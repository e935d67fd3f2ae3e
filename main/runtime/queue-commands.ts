// What a person (or a script) asks of the queue: add files and links, cancel, retry, move, dismiss,
// pause and resume, and wait for a batch. The engine decides each; the queue runner carries it out.
import type { SharedFolders } from '../adapters/claims/shared-folders.js';
import type { AddOptions, AddOutcome, Intake } from '../adapters/queue/intake.js';
import { hopelessRetry } from '../adapters/queue/intake-media.js';
import { linkResultsDir } from '../adapters/results/link-destination.js';
import type { QueueRunner, PauseState } from '../adapters/queue/queue-runner.js';
import { checkTemplateSettings, type TemplateCheckResult } from '../adapters/queue/template-check.js';
import type { TemplateCatalogueCache } from '../adapters/queue/template-catalogue-cache.js';
import type { UploadProgress } from '../adapters/queue/uploader.js';
import { everyJob, jobOfStream } from '../adapters/store/journal/jobs.js';
import type { JobStore } from '../adapters/store/journal/job-store.js';
import type { SettingsStore } from '../adapters/store/state/settings-store.js';
import type { SluiceClient } from '../api/client.js';
import { needsPerson } from '../engine/batch.js';
import { canCancel, canRetry } from '../engine/eligibility.js';
import type { EngineEvent } from '../engine/events.js';
import { isTerminal, type JobRecord } from '../engine/job.js';
import { isLinkJob, sourceName } from '../engine/media-link.js';
import { templateProblems, type TemplateProblem } from '../engine/params.js';
import { manualAdd, type ManualAdd } from '../engine/manual-add.js';
import { move, type MoveDirection } from '../engine/scheduler.js';
import type { Params } from '../engine/settings.js';

/** The template or its parameters do not fit the account's catalogue: nothing was added. */
export class TemplateRejected extends Error {
  constructor(readonly problems: readonly TemplateProblem[]) {
    super(problems.map((p) => p.message).join(' '));
    this.name = 'TemplateRejected';
  }
}

/** A retry refused in words (a shared folder's file another computer holds, or completed): nothing changed. */
export class RetryRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryRefused';
  }
}

export interface QueueCommandsDeps {
  store: JobStore<JobRecord>;
  runner: QueueRunner;
  intake: Intake;
  settings: SettingsStore;
  templates: TemplateCatalogueCache;
  /** The live client, read at call time (a reconnect swaps it). */
  client: () => SluiceClient;
  /** Team mode: a shared folder's job takes its claim on the share again before a retry. */
  claims?: Pick<SharedFolders, 'reclaim'>;
  /** Subscribes to engine events; returns the unsubscribe function. */
  on: (listener: (e: EngineEvent) => void) => () => void;
  /**
   * 'ignore': a pause the editor chose in an earlier run does not hold here (`sluice process`,
   * files named by hand); it stays kept for the app and `watch`. Default 'keep'.
   */
  heldPause?: 'keep' | 'ignore';
  now?: () => number;
}

/** What the Queue says of the editor's own pause once Sluice has started again. */
export const PAUSED_BY_YOU = 'Paused by you.';

export class QueueCommands {
  /** "Stop after current": the pause lets files in flight finish; this says so until they have. */
  private stopping = false;

  constructor(private readonly d: QueueCommandsDeps) {
    // Another pause (storage, spending cap) ending must not end the editor's: it comes back.
    if (d.heldPause !== 'ignore') d.on((e) => void (e.type === 'queue:resumed' && this.restoreHeldPause()));
  }

  /**
   * At start (and whenever another pause lifts): the pause the editor chose and has not resumed
   * holds again, so nothing new starts. True when it holds.
   */
  restoreHeldPause(): boolean {
    if (this.d.heldPause === 'ignore' || this.d.runner.pauseState || !this.d.settings.heldPause()) return false;
    this.d.runner.setPause({ reason: 'user', message: PAUSED_BY_YOU });
    return true;
  }

  private holdPause(): void {
    this.d.settings.holdPause({ since: new Date((this.d.now ?? Date.now)()).toISOString() });
  }

  /** Files or folders added by hand: they go before watch-folder files. */
  addPaths(paths: readonly string[], opts: AddOptions = {}): Promise<AddOutcome[]> {
    return this.d.intake.addManual(paths, this.withTemplate(opts));
  }

  /** Media links added by hand (§4.4 b); results go to the links' folder from Settings. */
  addLinks(links: readonly string[], opts: AddOptions & { resultsDir?: string } = {}): Promise<AddOutcome[]> {
    return this.d.intake.addLinks(links, {
      ...this.withTemplate(opts),
      resultsDir: opts.resultsDir ?? linkResultsDir(this.d.settings.get()),
    });
  }

  /**
   * What a manual add will use (Settings' defaults unless given, engine/manual-add.ts), checked
   * against the catalogue known now: adding files never waits for the configuration service.
   * The intake takes it as given.
   */
  private withTemplate<T extends AddOptions>(opts: T): T & Omit<ManualAdd, 'sent' | 'problems'> {
    const { sent, problems: recipeProblems, ...add } = manualAdd(this.d.settings.get(), opts);
    // Checked as sent: with the recipe's prompts and the glossary.
    const problems = [
      ...recipeProblems.map((message) => ({ field: 'recipe', detail: message, message })),
      ...templateProblems(add.templateId, sent, this.d.templates.current),
    ];
    if (problems.length > 0) throw new TemplateRejected(problems);
    return { ...opts, ...add };
  }

  /** "Check these settings": Sluice's check, then the service's preview of the patched template. */
  async checkTemplate(templateId: string, params: Params): Promise<TemplateCheckResult> {
    return checkTemplateSettings(
      { previewTemplate: (id, patches) => this.d.client().previewTemplate(id, patches) },
      await this.d.templates.get(),
      templateId,
      params,
    );
  }

  job(id: string): JobRecord | undefined {
    return this.d.store.get(id);
  }

  /** The jobs in the journal: every unfinished one and those the Queue still shows (not the archive). */
  jobs(): JobRecord[] {
    return this.d.store.all();
  }

  /** Every job, the archived ones read one by one from disk: for rare whole-history actions. */
  everyJob(): Generator<JobRecord> {
    return everyJob(this.d.store);
  }

  /** The job that ran (or runs) a stream, archived or not. */
  jobOfStream(streamId: string): JobRecord | undefined {
    return jobOfStream(this.d.store, streamId);
  }

  cancel(id: string): JobRecord | undefined {
    return this.d.runner.apply(id, { type: 'cancelRequested' });
  }

  /**
   * Retries a job by hand. A shared folder's file first takes its claim on the share again: refused
   * (RetryRefused, nothing changed) while another computer holds it or once it was completed.
   */
  async retry(id: string): Promise<JobRecord | undefined> {
    const job = this.d.store.get(id);
    if (!job || !canRetry(job)) return this.d.runner.apply(id, { type: 'retryRequested' });
    const got = await this.d.claims?.reclaim(job);
    if (got && !got.ok) throw new RetryRefused(got.message);
    return this.d.runner.apply(id, { type: 'retryRequested', ...(got ? { claim: got.claim } : {}) });
  }

  /**
   * Stops a stream by id: through its job when one of ours still runs it (the reducer decides the
   * abort and the cancel), otherwise at the service (a stream started elsewhere).
   */
  async cancelStream(streamId: string): Promise<{ alreadyFinished: boolean }> {
    const local = this.d.store.all().find((j) => j.streamId === streamId && canCancel(j));
    if (local) {
      this.cancel(local.id);
      return { alreadyFinished: false };
    }
    const r = await this.d.client().cancelStream(streamId);
    return { alreadyFinished: r.alreadyFinished };
  }

  /** Retries every failed job that could succeed; says which were left alone and why. */
  async retryAllFailed(): Promise<{
    count: number;
    skipped: Array<{ jobId: string; fileName: string; reason: string }>;
  }> {
    let count = 0;
    const skipped: Array<{ jobId: string; fileName: string; reason: string }> = [];
    for (const j of [...this.everyJob()]) {
      if (j.state !== 'failed') continue;
      const reason = isLinkJob(j) ? undefined : await hopelessRetry(j);
      if (reason) skipped.push({ jobId: j.id, fileName: sourceName(j), reason });
      else {
        const retried = await this.retry(j.id).catch((e: unknown) => e as Error);
        if (retried instanceof Error) skipped.push({ jobId: j.id, fileName: sourceName(j), reason: retried.message });
        else if (retried?.state === 'queued') count++;
      }
    }
    return { count, skipped };
  }

  /** Moves a queued job; the scheduler decides the new keys, the reducer records them. */
  move(id: string, direction: MoveDirection): void {
    for (const r of move(this.d.runner.activeJobs(), id, direction)) {
      this.d.runner.apply(r.id, { type: 'reordered', priority: r.priority, seq: r.seq });
    }
    this.d.runner.schedulePump();
  }

  /** Hides a finished job from the queue; it stays in the history and is still known (never re-taken). */
  dismiss(id: string): boolean {
    return this.d.runner.apply(id, { type: 'dismissRequested' })?.dismissed === true;
  }

  /**
   * Pauses now: nothing new starts, and uploads in flight stop (their streams canceled before any
   * processing, the files queued again to upload from the start on resume), so the line is free at
   * once. "Stop after current" is the pause that lets them finish.
   */
  pause(): void {
    this.stopping = false;
    const uploading = this.inFlight().filter((j) => j.state === 'uploading' && !j.verifyStream);
    const message =
      uploading.length === 0
        ? PAUSED_BY_YOU
        : `${PAUSED_BY_YOU} ${uploading.length === 1 ? 'The upload in progress was' : `${uploading.length} uploads in progress were`} stopped; ${uploading.length === 1 ? 'it starts' : 'they start'} again from the beginning when you resume.`;
    this.holdPause();
    this.d.runner.setPause({ reason: 'user', message });
    for (const j of uploading) this.d.runner.apply(j.id, { type: 'uploadInterrupted' });
  }

  /** Pauses, letting the files in flight finish (this pause never interrupts them). */
  stopAfterCurrent(): void {
    this.stopping = false;
    this.holdPause();
    this.d.runner.setPause({
      reason: 'user',
      message: 'Stopping after the files in progress; nothing new starts until you resume.',
    });
    this.stopping = true;
  }

  /** Still waiting for the files in flight after "stop after current". */
  get stoppingAfterCurrent(): boolean {
    if (this.stopping && (!this.d.runner.pauseState || this.inFlight().length === 0)) this.stopping = false;
    return this.stopping;
  }

  resume(): void {
    this.stopping = false;
    // Lifted on disk first: the resume's own event must not bring it back.
    this.d.settings.holdPause(undefined);
    this.d.runner.setPause(undefined);
  }

  get isOffline(): boolean {
    return this.d.runner.isOffline;
  }

  /** Jobs not yet finished. */
  activeJobs(): JobRecord[] {
    return this.d.runner.activeJobs();
  }

  /** Jobs past the queue: uploading, processing at the service, or exporting. */
  inFlight(): JobRecord[] {
    return this.d.runner.activeJobs().filter((j) => j.state !== 'queued');
  }

  /** Bytes sent of the upload running now for a job (in memory only). */
  progressOf(id: string): UploadProgress | undefined {
    return this.d.runner.progress.get(id);
  }

  get pauseState(): PauseState | undefined {
    return this.d.runner.pauseState;
  }

  /**
   * Resolves when every job in `ids` is finished, or rejects when the queue stops for a reason
   * only a person can fix (credentials, usage limit): a batch must not wait forever for that.
   */
  whenSettled(ids: readonly string[]): Promise<JobRecord[]> {
    const store = this.d.store;
    const pending = new Set(ids.filter((id) => !isTerminal(store.get(id)?.state ?? 'completed')));
    const result = (): JobRecord[] => ids.map((id) => store.get(id)).filter((j): j is JobRecord => !!j);
    if (pending.size === 0) return Promise.resolve(result());
    // A pause that came before this call (while the files were still being added) counts too.
    const already = this.d.runner.pauseState;
    if (already && needsPerson(already)) return Promise.reject(new Error(already.message));
    return new Promise((resolve, reject) => {
      const off = this.d.on((e) => {
        if (e.type === 'job:updated' && isTerminal(e.job.state)) {
          pending.delete(e.job.id);
          if (pending.size === 0) {
            off();
            resolve(result());
          }
        } else if (e.type === 'queue:paused' && needsPerson(e)) {
          off();
          reject(new Error(e.message));
        }
      });
    });
  }
}
