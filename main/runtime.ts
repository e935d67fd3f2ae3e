// Sluice without Electron: settings, the job journal, the client (or the embedded sandbox), the
// queue runner and the watch folders wired together. The CLI, the web bridge and the desktop app
// all drive this one object.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { Credentials } from './api/auth.js';
import { createClient, type SluiceClient } from './api/client.js';
import type { Sandbox, SandboxOptions } from './sandbox/index.js';
import {
  ConnectionError,
  resolveConnection,
  type ConnectionOverrides,
  type ResolvedConnection,
} from './adapters/queue/connection.js';
import { noCredentialsClient } from './adapters/queue/no-credentials.js';
import { FolderService } from './adapters/watch/folder-service.js';
import { hopelessRetry, Intake, type AddOptions, type AddOutcome } from './adapters/queue/intake.js';
import { linkResultsDir } from './adapters/results/link-destination.js';
import { JobStore, type FsyncMode } from './adapters/store/job-store.js';
import { JOB_ARCHIVE, resultKey, streamKey } from './adapters/store/job-archive-spec.js';
import type { SecretStore } from './adapters/store/keychain.js';
import { QueueRunner, type PauseState } from './adapters/queue/queue-runner.js';
import { Rewriter } from './adapters/results/rewriter.js';
import type { Ownership } from './adapters/results/result-writer.js';
import { TranscriptEditor } from './adapters/results/transcript-editor.js';
import { CorrectionsStore } from './adapters/store/transcript-corrections.js';
import { TranscriptIndex, type TranscriptHits } from './adapters/store/transcript-index.js';
import { removeSuperseded } from './adapters/results/supersede.js';
import { ResultOwnership, writeResults } from './adapters/results/write-results.js';
import { ensurePrivateStateDir } from './adapters/store/private-files.js';
import { SettingsStore } from './adapters/store/settings-store.js';
import { SpendingGuard } from './adapters/queue/spending-guard.js';
import { acquireStateLock } from './adapters/store/state-lock.js';
import { TemplateCatalogueCache } from './adapters/queue/template-catalogue-cache.js';
import { checkTemplateSettings, type TemplateCheckResult } from './adapters/queue/template-check.js';
import type { TemplateCatalogue } from './service/template-catalogue.js';
import type { EngineEvent } from './engine/events.js';
import { canCancel, refusal, type JobAction } from './engine/eligibility.js';
import { isTerminal, type JobEvent, type JobRecord } from './engine/job.js';
import { isLinkJob } from './engine/media-link.js';
import { templateProblems } from './engine/params.js';
import { recipeParams } from './engine/recipes/recipe-params.js';
import { DEFAULT_CONTEXT, type EngineContext } from './engine/reducer.js';
import { move, type MoveDirection } from './engine/scheduler.js';
import type { OutputSettings, Params, Settings, WatchFolder } from './engine/settings.js';

export interface RuntimeOptions {
  stateDir: string;
  connection?: ConnectionOverrides;
  credentials?: Credentials;
  secrets?: SecretStore;
  sandboxOptions?: SandboxOptions;
  /** Overrides of the saved settings for this run only (CLI flags). */
  concurrency?: number;
  ctx?: Partial<EngineContext>;
  fsync?: FsyncMode;
  env?: NodeJS.ProcessEnv;
  /** false: watch folders by periodic rescans only (tests). */
  watchEvents?: boolean;
  /**
   * 'pause': with no credentials for the configured service, open anyway with the queue paused for
   * credentials (the desktop app, whose Settings screen is where the key is entered). Default: throw.
   */
  missingCredentials?: 'throw' | 'pause';
}

interface Live {
  conn: ResolvedConnection;
  client: SluiceClient;
  /** Opened without credentials: why (the credentials pause says so). */
  missing?: string;
}

export class Runtime {
  private readonly emitter = new EventEmitter();
  private readonly runner: QueueRunner;
  /** "Stop after current": the pause lets files in flight finish; this says so until they have. */
  private stopping = false;
  /** Folders watched for this run only, besides the saved ones (`sluice watch <folder>`). */
  private extraFolders: readonly WatchFolder[] = [];
  private readonly intake: Intake;
  readonly folders: FolderService;
  private readonly guard: SpendingGuard;
  private readonly ownership: Ownership & Pick<ResultOwnership, 'record'>;
  private readonly exportsDir: string;
  private readonly rewriter: Rewriter;
  /** Corrections of transcripts, saved as they are made; the results follow them. */
  readonly transcripts: TranscriptEditor;
  private readonly searchIndex: TranscriptIndex;
  /** Search-index updates under way (awaited by close). */
  private readonly indexing = new Set<Promise<void>>();
  /** The account's templates (§13), read through the current client. */
  readonly templates: TemplateCatalogueCache;
  /** The in-process sandbox, once started; reused by every reconnect to the sandbox. */
  private embedded: Sandbox | undefined;
  /** An API key given for this run only (Settings' "until Sluice quits"): memory, never disk or logs. */
  private sessionKey: string | undefined;

  private constructor(
    readonly stateDir: string,
    readonly settings: SettingsStore,
    readonly store: JobStore<JobRecord>,
    private live: Live,
    private readonly opts: RuntimeOptions,
    private readonly releaseLock: () => void,
  ) {
    this.emitter.setMaxListeners(100);
    this.exportsDir = path.join(stateDir, 'exports');
    this.embedded = live.conn.sandbox;
    const s = settings.get();
    const emit = (e: EngineEvent): void => void this.emitter.emit('event', e);
    this.ownership = archivedOwnership(new ResultOwnership(() => store.all()), store);
    // The service port reads `this.client` at call time, so a reconnect swaps it under the runner.
    this.runner = new QueueRunner({
      store,
      service: {
        upload: (o) => this.client.upload(o),
        findStream: (id) => this.client.findStream(id),
        listReady: () => collect(this.client.iterateStreams({ states: 'READY', size: 100 })),
        cancelStream: (id) => this.client.cancelStream(id),
        streamComponents: (id) => this.client.streamComponents(id),
        streamUsage: (id) => this.client.streamUsage(id),
        exportJson: (id) => this.client.exportJson(id),
        testConnection: () => this.client.testConnection(),
      },
      exportsDir: this.exportsDir,
      limits: {
        uploadConcurrency: opts.concurrency ?? s.queue.uploadConcurrency,
        maxStreamsInFlight: s.queue.maxStreamsInFlight,
      },
      emit,
      writeResults: (job, exportPath) => this.writeOwned(job, exportPath),
      onSettled: (job) => {
        void this.folders.settled(job);
        if (job.state === 'completed') void this.guard.check();
      },
      ctx: {
        ...DEFAULT_CONTEXT,
        poll: { ...DEFAULT_CONTEXT.poll, initialMs: s.queue.pollMinMs, maxMs: s.queue.pollMaxMs },
        ...opts.ctx,
      },
    });
    this.intake = new Intake(store, this.runner, () => this.settings.get());
    this.templates = new TemplateCatalogueCache(() => this.client.iterateTemplates());
    this.folders = new FolderService({
      intake: this.intake,
      settings: () => this.settings.get(),
      emit,
      record: (id, event) => this.runner.apply(id, event),
      setFolderPaused: (id, paused) => this.runner.setFolderPaused(id, paused),
      extra: () => this.extraFolders,
      ...(opts.watchEvents === undefined ? {} : { events: opts.watchEvents }),
    });
    this.rewriter = new Rewriter({
      exportsDir: this.exportsDir,
      externalDir: path.join(stateDir, 'external'),
      exportJson: (id) => this.client.exportJson(id),
      writeOwned: (job, exportPath) => this.writeOwned(job, exportPath),
    });
    this.transcripts = new TranscriptEditor({
      exportsDir: this.exportsDir,
      store: new CorrectionsStore(path.join(stateDir, 'corrections')),
      rewrite: async (id) => void (await this.writeAgain(id)),
      changed: (jobId, revision, problem) =>
        emit({ type: 'transcript:changed', jobId, revision, ...(problem ? { problem } : {}) }),
    });
    this.searchIndex = new TranscriptIndex({
      dir: path.join(stateDir, 'search'),
      // Archived jobs too: their transcripts stay searchable after they leave the Queue.
      jobIds: () => {
        const ids = store
          .all()
          .filter((j) => j.state === 'completed')
          .map((j) => j.id);
        for (const r of store.archived?.rows() ?? []) {
          if ((r as { s?: unknown }).s === 'completed' && !store.isHot(r.i)) ids.push(r.i);
        }
        return ids;
      },
      source: async (id) => {
        const job = store.get(id);
        return job ? this.transcripts.searchSource(job) : undefined;
      },
    });
    // The index follows as jobs complete and as transcripts are corrected (a no-op when unchanged).
    this.emitter.on('event', (e: EngineEvent) => {
      const id =
        e.type === 'transcript:changed'
          ? e.jobId
          : e.type === 'job:updated' && e.job.state === 'completed'
            ? e.job.id
            : '';
      if (!id) return;
      const p: Promise<void> = this.searchIndex
        .update(id)
        .catch(() => undefined)
        .finally(() => this.indexing.delete(p));
      this.indexing.add(p);
    });
    this.guard = new SpendingGuard({
      settings: () => this.settings.get(),
      usageReport: (start, end) => this.client.usageReport({ start, end, granularity: 'DAYS' }),
      pause: (message) => this.runner.setPause({ reason: 'spending-cap', message }),
      unpause: () => this.runner.setPause(undefined),
      isPausedByGuard: () => this.runner.pauseState?.reason === 'spending-cap',
    });
  }

  static async open(opts: RuntimeOptions): Promise<Runtime> {
    ensurePrivateStateDir(opts.stateDir);
    const release = acquireStateLock(opts.stateDir);
    try {
      const settings = new SettingsStore(opts.stateDir);
      const live = await Runtime.connect(settings.get(), opts).then(
        (conn): Live => ({ conn, client: createClient(conn.client) }),
        (e: unknown) => {
          if (opts.missingCredentials !== 'pause' || !(e instanceof ConnectionError)) throw e;
          return withoutCredentials(settings.get());
        },
      );
      const store = JobStore.open<JobRecord>(opts.stateDir, { fsync: opts.fsync ?? 'batch', archive: JOB_ARCHIVE });
      const rt = new Runtime(opts.stateDir, settings, store, live, opts, release);
      if (live.missing) rt.runner.setPause({ reason: 'credentials', message: live.missing });
      return rt;
    } catch (e) {
      release();
      throw e;
    }
  }

  private static connect(settings: Settings, opts: RuntimeOptions, running?: Sandbox): Promise<ResolvedConnection> {
    return resolveConnection({
      ...(running ? { running } : {}),
      settings: settings.connection,
      stateDir: opts.stateDir,
      ...(opts.connection ? { overrides: opts.connection } : {}),
      ...(opts.secrets ? { secrets: opts.secrets } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      ...(opts.sandboxOptions ? { sandboxOptions: opts.sandboxOptions } : {}),
      ...(opts.env ? { env: opts.env } : {}),
    });
  }

  get client(): SluiceClient {
    return this.live.client;
  }

  get simulated(): boolean {
    return this.live.conn.simulated;
  }

  get connectionLabel(): string {
    return this.live.conn.describe;
  }

  /** True while the runtime runs without credentials (opened with `missingCredentials: 'pause'`). */
  get credentialsMissing(): boolean {
    return this.live.missing !== undefined;
  }

  get sandbox(): ResolvedConnection['sandbox'] {
    return this.live.conn.sandbox;
  }

  /** Subscribes to engine events; returns the unsubscribe function. */
  on(listener: (e: EngineEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /**
   * Folders to watch for this run only, besides the saved ones; given before `start`, once their
   * template has been checked against the account's catalogue (`sluice watch <folder>`).
   */
  watchAlso(folders: readonly WatchFolder[]): void {
    this.extraFolders = folders;
  }

  /** Starts the queue (replaying the journal) and, with `watch`, the watch folders. */
  async start(opts: { watch?: boolean } = {}): Promise<void> {
    this.runner.start();
    this.guard.start();
    void this.templates.get();
    if (opts.watch) await this.folders.apply();
  }

  /**
   * Uses new connection settings or credentials (Settings screen) without a restart. In-flight
   * calls finish or fail on the old client; the offline probe then finds the new one.
   */
  async reconnect(overrides?: ConnectionOverrides): Promise<void> {
    const conn = await Runtime.connect(
      this.settings.get(),
      { ...this.opts, ...this.sessionCredentials(), ...(overrides ? { connection: overrides } : {}) },
      this.embedded,
    );
    this.embedded ??= conn.sandbox;
    const old = this.live;
    this.live = { conn, client: createClient(conn.client) };
    // The embedded sandbox stays up for the life of the runtime (its streams must not vanish when
    // the user switches connections and back); only the old client goes.
    setTimeout(() => void old.client.close(), 30_000).unref();
    this.templates.invalidate();
    if (this.runner.pauseState?.reason === 'credentials') this.runner.setPause(undefined);
  }

  /** Files or folders added by hand: they go before watch-folder files. */
  addPaths(paths: readonly string[], opts: AddOptions = {}): Promise<AddOutcome[]> {
    this.requireValidTemplate(opts);
    return this.intake.addManual(paths, opts);
  }

  /** Media links added by hand (§4.4 b); results go to the links' folder from Settings. */
  addLinks(links: readonly string[], opts: AddOptions & { resultsDir?: string } = {}): Promise<AddOutcome[]> {
    this.requireValidTemplate(opts);
    return this.intake.addLinks(links, { ...opts, resultsDir: opts.resultsDir ?? linkResultsDir(this.settings.get()) });
  }

  /** The template and parameters a manual add will use, checked against the catalogue known now. */
  private requireValidTemplate(opts: AddOptions): void {
    const s = this.settings.get();
    const templateId = opts.templateId ?? s.defaults.templateId;
    // The catalogue known now: adding files never waits for the configuration service.
    const withRecipe = recipeParams(
      opts.params ?? s.defaults.params,
      opts.recipe === undefined ? s.defaults.recipe : opts.recipe,
      opts.glossary ?? s.defaults.glossary,
    );
    const problems = templateProblems(templateId, withRecipe.params, this.templates.current);
    const all = [...withRecipe.problems, ...problems.map((p) => p.message)];
    if (all.length > 0) throw new Error(all.join(' '));
  }

  /** The templates the account may use, merged with the public ones (kept a while; never throws). */
  templateCatalogue(refresh = false): Promise<TemplateCatalogue> {
    return this.templates.get({ refresh });
  }

  /** "Check these settings": Sluice's check, then the service's preview of the patched template. */
  async checkTemplate(templateId: string, params: Params): Promise<TemplateCheckResult> {
    return checkTemplateSettings(
      { previewTemplate: (id, patches) => this.client.previewTemplate(id, patches) },
      await this.templates.get(),
      templateId,
      params,
    );
  }

  job(id: string): JobRecord | undefined {
    return this.store.get(id);
  }

  /** The jobs in the journal: every unfinished one and those the Queue still shows (not the archive). */
  jobs(): JobRecord[] {
    return this.store.all();
  }

  /** Every job, the archived ones read one by one from disk: for rare whole-history actions. */
  *everyJob(): Generator<JobRecord> {
    yield* this.store.all();
    const hot = (id: string): boolean => this.store.isHot(id);
    const archived: JobRecord[] = [];
    this.store.archived?.each((j) => {
      if (!hot(j.id)) archived.push(j);
    });
    yield* archived;
  }

  /** The job that ran (or runs) a stream, archived or not. */
  jobOfStream(streamId: string): JobRecord | undefined {
    const hot = this.store.all().find((j) => j.streamId === streamId);
    if (hot) return hot;
    const found = this.store.archived?.find(streamKey(streamId), (j) => j.streamId === streamId)[0]?.record;
    return found ? this.store.get(found.id) : undefined;
  }

  cancel(id: string): JobRecord | undefined {
    return this.runner.apply(id, { type: 'cancelRequested' });
  }

  retry(id: string): JobRecord | undefined {
    return this.runner.apply(id, { type: 'retryRequested' });
  }

  /**
   * Stops a stream by id: through its job when one of ours still runs it (the reducer decides the
   * abort and the cancel), otherwise at the service (a stream started elsewhere).
   */
  async cancelStream(streamId: string): Promise<{ alreadyFinished: boolean }> {
    const local = this.store.all().find((j) => j.streamId === streamId && canCancel(j));
    if (local) {
      this.cancel(local.id);
      return { alreadyFinished: false };
    }
    const r = await this.client.cancelStream(streamId);
    return { alreadyFinished: r.alreadyFinished };
  }

  /**
   * Whether the service answers with the current credentials, or with `apiKey` (a key typed in
   * Settings and not saved yet: tried on a client of its own, then dropped). Throws the refusal.
   */
  async testConnection(apiKey?: string): Promise<void> {
    if (apiKey === undefined || this.simulatedByChoice()) return this.client.testConnection();
    const conn = await Runtime.connect(
      this.settings.get(),
      { ...this.opts, credentials: { kind: 'apiKey', apiKey } },
      this.embedded,
    );
    const client = createClient(conn.client);
    try {
      await client.testConnection();
    } finally {
      await client.close();
    }
  }

  /** Uses `apiKey` until this process ends (undefined: stop using it), and connects with it. */
  async useSessionKey(apiKey: string | undefined): Promise<void> {
    this.sessionKey = apiKey;
    try {
      await this.reconnect();
    } catch (e) {
      // Forgetting the session key with no other key left: stop using it anyway, and wait for one.
      if (apiKey !== undefined || !(e instanceof ConnectionError)) throw e;
      const old = this.live;
      this.live = withoutCredentials(this.settings.get());
      setTimeout(() => void old.client.close(), 30_000).unref();
      this.runner.setPause({ reason: 'credentials', message: this.live.missing ?? e.message });
    }
  }

  get hasSessionKey(): boolean {
    return this.sessionKey !== undefined;
  }

  /** The session key applies to connections signing in with an API key. */
  private sessionCredentials(): { credentials?: Credentials } {
    const c = this.settings.get().connection;
    const auth = c.mode === 'sandbox' ? 'apiKey' : c.auth;
    return this.sessionKey !== undefined && auth === 'apiKey'
      ? { credentials: { kind: 'apiKey', apiKey: this.sessionKey } }
      : {};
  }

  /** The embedded sandbox brings its own key: a typed key has nothing to be tested against there. */
  private simulatedByChoice(): boolean {
    return this.opts.connection?.sandbox === true || this.settings.get().connection.mode === 'sandbox';
  }

  /** The account's usage report, as the service computes it. */
  usageReport(opts: Parameters<SluiceClient['usageReport']>[0]): ReturnType<SluiceClient['usageReport']> {
    return this.client.usageReport(opts);
  }

  /** The account's streams, page by page (including those started elsewhere). */
  streams(opts: Parameters<SluiceClient['iterateStreams']>[0]): ReturnType<SluiceClient['iterateStreams']> {
    return this.client.iterateStreams(opts);
  }

  /** What the service says of a stream's gateway and processors right now. */
  streamComponents(streamId: string): ReturnType<SluiceClient['streamComponents']> {
    return this.client.streamComponents(streamId);
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
      if (reason) skipped.push({ jobId: j.id, fileName: path.basename(j.source.path), reason });
      else if (this.retry(j.id)?.state === 'queued') count++;
    }
    return { count, skipped };
  }

  /** Writes the results again from the kept export, without processing again. */
  rewrite(id: string): JobRecord | undefined {
    return this.runner.apply(id, { type: 'rewriteRequested' });
  }

  /** The job, when `action` applies to it; otherwise an error saying why not. */
  eligible(id: string, action: JobAction): JobRecord {
    const job = this.store.get(id);
    if (!job) throw new Error('There is no such job.');
    const why = refusal(job, action);
    if (why) throw new Error(why);
    return job;
  }

  /**
   * Fetches the export again from the service (while it still holds the stream) and writes the
   * results anew: for a completed job whose result files were lost or edited by hand. `formats`
   * replaces the job's formats first, as in writeAgain.
   */
  async reexport(id: string, formats?: OutputSettings['formats']): Promise<JobRecord> {
    const job = this.eligible(id, 'reexport');
    if (!job.streamId) throw new Error('This job has no stream at the service.');
    return this.recordRewrite(id, await this.rewriter.fromService({ ...job, streamId: job.streamId }, formats));
  }

  /** Jobs whose transcript holds every word of `query` (case and accents ignored); undefined: no words. */
  searchTranscripts(query: string): Promise<TranscriptHits | undefined> {
    return this.searchIndex.search(query);
  }

  /** Exports a stream started elsewhere (no local job) into the state dir; returns the file. */
  exportExternal(streamId: string): Promise<string> {
    return this.rewriter.external(streamId);
  }

  /**
   * Writes every result format again from the kept export, without processing or exporting again
   * ("export all again"); `formats` replaces the job's formats first. Only Sluice's own files are
   * overwritten, as always.
   */
  async writeAgain(id: string, formats?: OutputSettings['formats']): Promise<JobRecord> {
    return this.recordRewrite(id, await this.rewriter.fromKept(this.eligible(id, 'rewrite'), formats));
  }

  private recordRewrite(id: string, done: { results: JobRecord['results']; output?: OutputSettings }): JobRecord {
    const event: JobEvent = {
      type: 'resultsRewritten',
      results: done.results,
      ...(done.output ? { output: done.output } : {}),
    };
    const job = this.runner.apply(id, event);
    if (!job) throw new Error('There is no such job.');
    return job;
  }

  /** Writes a job's results and records them as Sluice's own (so a later write may replace them). */
  private async writeOwned(job: JobRecord, exportPath: string): Promise<JobRecord['results']> {
    // Corrections made in the review view apply to every write: first delivery, rewrite, re-export.
    const corrected = await this.transcripts.correctedSource(job, exportPath);
    const results = await writeResults(job, exportPath, this.ownership, new Date(), corrected);
    this.ownership.record(results);
    const earlier = job.replaces ? this.store.get(job.replaces) : undefined;
    if (earlier && earlier.results.length > 0) {
      const kept = await removeSuperseded(earlier.results, results);
      this.runner.apply(earlier.id, { type: 'resultsSuperseded', results: kept });
    }
    return results;
  }

  /** Moves a queued job; the scheduler decides the new keys, the reducer records them. */
  move(id: string, direction: MoveDirection): void {
    for (const r of move(this.runner.activeJobs(), id, direction)) {
      this.runner.apply(r.id, { type: 'reordered', priority: r.priority, seq: r.seq });
    }
    this.runner.schedulePump();
  }

  /** Hides a finished job from the queue; it stays in the history and is still known (never re-taken). */
  dismiss(id: string): boolean {
    return this.runner.apply(id, { type: 'dismissRequested' })?.dismissed === true;
  }

  pause(message = 'Paused by you.'): void {
    this.stopping = false;
    this.runner.setPause({ reason: 'user', message });
  }

  /** Pauses, letting the files in flight finish (the pause never interrupts them). */
  stopAfterCurrent(): void {
    this.pause('Stopping after the files in progress; nothing new starts until you resume.');
    this.stopping = true;
  }

  /** Still waiting for the files in flight after "stop after current". */
  get stoppingAfterCurrent(): boolean {
    if (this.stopping && (!this.runner.pauseState || this.inFlight().length === 0)) this.stopping = false;
    return this.stopping;
  }

  resume(): void {
    this.stopping = false;
    this.runner.setPause(undefined);
  }

  get isOffline(): boolean {
    return this.runner.isOffline;
  }

  /** Jobs not yet finished. */
  activeJobs(): JobRecord[] {
    return this.runner.activeJobs();
  }

  /** Jobs past the queue: uploading, processing at the service, or exporting. */
  inFlight(): JobRecord[] {
    return this.runner.activeJobs().filter((j) => j.state !== 'queued');
  }

  /** Bytes sent of the upload running now for a job (in memory only). */
  progressOf(id: string): { sent: number; total: number; startedAt: number } | undefined {
    return this.runner.progress.get(id);
  }

  get pauseState(): PauseState | undefined {
    return this.runner.pauseState;
  }

  /** Validates and saves the settings as a whole, then applies them (limits, watch folders). */
  async updateSettings(change: (s: Settings) => Settings): Promise<Settings> {
    const next = this.settings.update(change);
    this.runner.setLimits({
      uploadConcurrency: this.opts.concurrency ?? next.queue.uploadConcurrency,
      maxStreamsInFlight: next.queue.maxStreamsInFlight,
    });
    if (this.folders.isWatching) await this.folders.apply();
    void this.guard.check();
    return next;
  }

  /**
   * Resolves when every job in `ids` is finished, or rejects when the queue stops for a reason
   * only a person can fix (credentials, usage limit): a batch must not wait forever for that.
   */
  whenSettled(ids: readonly string[]): Promise<JobRecord[]> {
    const pending = new Set(ids.filter((id) => !isTerminal(this.store.get(id)?.state ?? 'completed')));
    const result = (): JobRecord[] => ids.map((id) => this.store.get(id)).filter((j): j is JobRecord => !!j);
    if (pending.size === 0) return Promise.resolve(result());
    // Credentials, the spending cap, or an account limit with no end in sight: a person must act.
    const needsPerson = (p: { reason: string; until?: number }): boolean =>
      p.until === undefined && p.reason !== 'user' && p.reason !== 'offline' && p.reason !== 'storage';
    // A pause that came before this call (while the files were still being added) counts too.
    const already = this.runner.pauseState;
    if (already && needsPerson(already)) return Promise.reject(new Error(already.message));
    return new Promise((resolve, reject) => {
      const off = this.on((e) => {
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

  async close(): Promise<void> {
    this.guard.stop();
    await this.transcripts.settled();
    await this.folders.close();
    await this.runner.stop();
    // Search files being written for the last jobs finish before the state folder is let go.
    while (this.indexing.size > 0) await Promise.all([...this.indexing]);
    this.store.close();
    await this.client.close();
    await this.embedded?.close();
    this.releaseLock();
  }
}

/**
 * Ownership of result files across the journal and the archive: the journal's jobs are indexed in
 * memory as before; a path none of them wrote is looked up in the archive's index.
 */
function archivedOwnership(
  hot: ResultOwnership,
  store: JobStore<JobRecord>,
): Ownership & Pick<ResultOwnership, 'record'> {
  return {
    record: (results) => hot.record(results),
    isOurs(filePath, current) {
      if (hot.isOurs(filePath, current)) return true;
      const archived = store.archived?.find(resultKey(filePath), (j) => j.results.some((r) => r.path === filePath));
      return (archived ?? []).some(
        ({ record }) => !store.isHot(record.id) && new ResultOwnership(() => [record]).isOurs(filePath, current),
      );
    },
  };
}

/** The connection of a runtime opened without credentials: nothing is sent until a reconnect. */
function withoutCredentials(settings: Settings): Live {
  const target = settings.connection.mode === 'custom' ? 'custom service URLs' : 'production service';
  const missing = `No API key is stored for the ${target}. Enter one in Settings; the queue starts once it is there.`;
  return {
    // Never used to send anything: the client below refuses every call.
    conn: {
      client: { credentials: { kind: 'apiKey', apiKey: '' } },
      simulated: false,
      describe: `${target} (no API key)`,
    },
    client: noCredentialsClient(missing),
    missing,
  };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
