// Sluice without Electron: settings, the job journal, the client (or the embedded sandbox), the
// queue runner and the watch folders wired together. The CLI, the web bridge and the desktop app
// all drive this one object.
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Credentials } from './api/auth.js';
import { createClient, type SluiceClient } from './api/client.js';
import { findTemplate } from './service/templates.js';
import type { Sandbox, SandboxOptions } from './sandbox/index.js';
import { resolveConnection, type ConnectionOverrides, type ResolvedConnection } from './adapters/queue/connection.js';
import { keepExport, keptExportPath } from './adapters/queue/delivery.js';
import { FolderService } from './adapters/watch/folder-service.js';
import { Intake, type AddOptions, type AddOutcome } from './adapters/queue/intake.js';
import { JobStore, type FsyncMode } from './adapters/store/job-store.js';
import type { SecretStore } from './adapters/store/keychain.js';
import { QueueRunner, type PauseState } from './adapters/queue/queue-runner.js';
import { ResultOwnership, writeResults } from './adapters/results/write-results.js';
import { SettingsStore } from './adapters/store/settings-store.js';
import { SpendingGuard } from './adapters/queue/spending-guard.js';
import { acquireStateLock } from './adapters/store/state-lock.js';
import type { EngineEvent } from './engine/events.js';
import { isTerminal, type JobRecord } from './engine/job.js';
import { validateParams } from './engine/params.js';
import { DEFAULT_CONTEXT, type EngineContext } from './engine/reducer.js';
import { move } from './engine/scheduler.js';
import { DEFAULT_OUTPUT, type OutputSettings, type Settings, type WatchFolder } from './engine/settings.js';

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
  /** Folders watched for this run only, besides the saved ones (`sluice watch <folder>`). */
  extraFolders?: WatchFolder[];
}

interface Live {
  conn: ResolvedConnection;
  client: SluiceClient;
}

export class Runtime {
  private readonly emitter = new EventEmitter();
  readonly runner: QueueRunner;
  private readonly intake: Intake;
  readonly folders: FolderService;
  private readonly guard: SpendingGuard;
  private readonly ownership: ResultOwnership;
  private readonly exportsDir: string;
  /** The in-process sandbox, once started; reused by every reconnect to the sandbox. */
  private embedded: Sandbox | undefined;

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
    this.ownership = new ResultOwnership(() => store.all());
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
    this.folders = new FolderService({
      intake: this.intake,
      settings: () => this.settings.get(),
      emit,
      save: (job) => this.save(job),
      setFolderPaused: (id, paused) => this.runner.setFolderPaused(id, paused),
      extra: () => opts.extraFolders ?? [],
      ...(opts.watchEvents === undefined ? {} : { events: opts.watchEvents }),
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
    mkdirSync(opts.stateDir, { recursive: true });
    const release = acquireStateLock(opts.stateDir);
    try {
      const settings = new SettingsStore(opts.stateDir);
      const conn = await Runtime.connect(settings.get(), opts);
      const store = JobStore.open<JobRecord>(opts.stateDir, { fsync: opts.fsync ?? 'batch' });
      return new Runtime(opts.stateDir, settings, store, { conn, client: createClient(conn.client) }, opts, release);
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

  get sandbox(): ResolvedConnection['sandbox'] {
    return this.live.conn.sandbox;
  }

  /** Subscribes to engine events; returns the unsubscribe function. */
  on(listener: (e: EngineEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  /** Starts the queue (replaying the journal) and, with `watch`, the watch folders. */
  async start(opts: { watch?: boolean } = {}): Promise<void> {
    this.runner.start();
    this.guard.start();
    if (opts.watch) await this.folders.apply();
  }

  /**
   * Uses new connection settings or credentials (Settings screen) without a restart. In-flight
   * calls finish or fail on the old client; the offline probe then finds the new one.
   */
  async reconnect(overrides?: ConnectionOverrides): Promise<void> {
    const conn = await Runtime.connect(
      this.settings.get(),
      { ...this.opts, ...(overrides ? { connection: overrides } : {}) },
      this.embedded,
    );
    this.embedded ??= conn.sandbox;
    const old = this.live;
    this.live = { conn, client: createClient(conn.client) };
    // The embedded sandbox stays up for the life of the runtime (its streams must not vanish when
    // the user switches connections and back); only the old client goes.
    setTimeout(() => void old.client.close(), 30_000).unref();
    if (this.runner.pauseState?.reason === 'credentials') this.runner.setPause(undefined);
  }

  /** Files or folders added by hand: they go before watch-folder files. */
  addPaths(paths: readonly string[], opts: AddOptions = {}): Promise<AddOutcome[]> {
    const s = this.settings.get();
    const templateId = opts.templateId ?? s.defaults.templateId;
    const template = findTemplate(templateId);
    if (!template) throw new Error(`Unknown template ${templateId}.`);
    const problems = validateParams(template, opts.params ?? s.defaults.params);
    if (problems.length > 0) throw new Error(`Template parameters: ${problems.join(' ')}`);
    return this.intake.addManual(paths, opts);
  }

  job(id: string): JobRecord | undefined {
    return this.store.get(id);
  }

  jobs(): JobRecord[] {
    return this.store.all();
  }

  cancel(id: string): JobRecord | undefined {
    return this.runner.apply(id, { type: 'cancelRequested' });
  }

  retry(id: string): JobRecord | undefined {
    return this.runner.apply(id, { type: 'retryRequested' });
  }

  retryAllFailed(): number {
    let n = 0;
    for (const j of this.store.all()) if (j.state === 'failed' && this.retry(j.id)?.state === 'queued') n++;
    return n;
  }

  /** Writes the results again from the kept export, without processing again. */
  rewrite(id: string): JobRecord | undefined {
    return this.runner.apply(id, { type: 'rewriteRequested' });
  }

  /**
   * Fetches the export again from the service (while it still holds the stream) and writes the
   * results anew: for a completed job whose result files were lost or edited by hand.
   */
  async reexport(id: string): Promise<JobRecord> {
    const job = this.store.get(id);
    if (!job || job.state !== 'completed' || !job.streamId) {
      throw new Error('Only a completed job with a stream at the service can be exported again.');
    }
    const outcome = await this.client.exportJson(job.streamId);
    if (outcome.outcome === 'no-data') throw new Error('The service returned no data for this stream.');
    await keepExport(this.exportsDir, id, outcome.bytes);
    return this.writeAgain(id);
  }

  /** The export kept in the state dir for a job (written when it was exported; kept afterwards). */
  private keptExport(id: string): string {
    return keptExportPath(this.exportsDir, id);
  }

  /**
   * Writes every result format again from the kept export, without processing or exporting again
   * ("export all again"); `formats` replaces the job's formats first. Only Sluice's own files are
   * overwritten, as always.
   */
  async writeAgain(id: string, formats?: OutputSettings['formats']): Promise<JobRecord> {
    const job = this.store.get(id);
    if (!job || job.state !== 'completed') throw new Error('Only a completed job can have its results written again.');
    const kept = this.keptExport(id);
    if (!existsSync(kept)) {
      throw new Error('No export of this job is kept on this computer; export it again from the service instead.');
    }
    const output = formats ? { ...(job.output ?? DEFAULT_OUTPUT), formats } : job.output;
    const updated: JobRecord = { ...job, ...(output ? { output } : {}) };
    const results = await this.writeOwned(updated, kept);
    const { resultWarning: _done, stagedResultPath: _kept, ...rest } = updated;
    const next: JobRecord = { ...rest, results, updatedAt: Date.now() };
    this.save(next);
    return next;
  }

  /** Writes a job's results and records them as Sluice's own (so a later write may replace them). */
  private async writeOwned(job: JobRecord, exportPath: string): Promise<JobRecord['results']> {
    const results = await writeResults(job, exportPath, this.ownership);
    this.ownership.record(results);
    return results;
  }

  /** Moves a queued job up or down in the queue. */
  move(id: string, direction: 'up' | 'down'): void {
    for (const j of move(this.runner.activeJobs(), id, direction, Date.now())) this.save(j);
    this.runner.schedulePump();
  }

  /** Hides a finished job from the queue; it stays in the history and is still known (never re-taken). */
  dismiss(id: string): boolean {
    const j = this.store.get(id);
    if (!j || !isTerminal(j.state)) return false;
    this.save({ ...j, dismissed: true, updatedAt: Date.now() });
    return true;
  }

  private save(job: JobRecord): void {
    this.store.put(job);
    this.emitter.emit('event', { type: 'job:updated', job } satisfies EngineEvent);
  }

  pause(message = 'Paused by you.'): void {
    this.runner.setPause({ reason: 'user', message });
  }

  resume(): void {
    this.runner.setPause(undefined);
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
    return new Promise((resolve, reject) => {
      const off = this.on((e) => {
        if (e.type === 'job:updated' && isTerminal(e.job.state)) {
          pending.delete(e.job.id);
          if (pending.size === 0) {
            off();
            resolve(result());
          }
        } else if (
          e.type === 'queue:paused' &&
          e.until === undefined &&
          e.reason !== 'user' &&
          e.reason !== 'offline' &&
          e.reason !== 'storage'
        ) {
          // Credentials, the spending cap, or an account limit with no end in sight: a person must act.
          off();
          reject(new Error(e.message));
        }
      });
    });
  }

  async close(): Promise<void> {
    this.guard.stop();
    await this.folders.close();
    await this.runner.stop();
    this.store.close();
    await this.client.close();
    await this.embedded?.close();
    this.releaseLock();
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
