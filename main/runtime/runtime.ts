// Sluice without Electron: settings, the job journal, the connection, the queue runner and the
// watch folders wired together. The CLI, the web bridge and the desktop app all drive this one
// object through the services it builds (connection, queue, results, history); this file only
// wires them, starts them and closes them.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { IgnoredFilesFile } from '../adapters/store/state/ignored-files.js';
import { FolderService } from '../adapters/watch/folder/folder-service.js';
import { Intake } from '../adapters/queue/intake.js';
import { JobStore } from '../adapters/store/journal/job-store.js';
import { JOB_ARCHIVE } from '../adapters/store/archive/job-archive-spec.js';
import { completedJobIds } from '../adapters/store/journal/jobs.js';
import { QueueRunner } from '../adapters/queue/queue-runner.js';
import { TranscriptEditor } from '../adapters/results/transcript-editor.js';
import { CorrectionsStore } from '../adapters/store/review/transcript-corrections.js';
import { TranscriptIndex } from '../adapters/store/search/transcript-index.js';
import { ensurePrivateStateDir } from '../adapters/store/private-files.js';
import { SettingsStore } from '../adapters/store/state/settings-store.js';
import { SpendingGuard } from '../adapters/queue/spending-guard.js';
import { startupStorageError } from '../adapters/queue/storage-guard.js';
import { acquireStateLock } from '../adapters/store/state/state-lock.js';
import { TemplateCatalogueCache } from '../adapters/queue/template-catalogue-cache.js';
import type { EngineEvent } from '../engine/events.js';
import type { JobRecord } from '../engine/job.js';
import { DEFAULT_CONTEXT } from '../engine/reducer.js';
import type { Settings, WatchFolder } from '../engine/settings.js';
import { Connection } from './connection.js';
import { boundHeapGrowth } from './heap-growth.js';
import { ExternalStreams, History } from './history.js';
import type { RuntimeOptions } from './options.js';
import { QueueCommands } from './queue-commands.js';
import { Results } from './results.js';
import { SearchFollower } from './search-follower.js';
import type { Services } from './services.js';
import { Selects } from './selects.js';
import { SharedFolders } from '../adapters/claims/shared-folders.js';
import { FolderPresence } from '../adapters/watch/folder/folder-presence.js';
import { sweepLeftoverTemps } from '../adapters/results/temp-leftovers.js';

export type { RuntimeOptions } from './options.js';
export type { Services } from './services.js';

export class Runtime implements Services {
  private readonly emitter = new EventEmitter();
  private readonly runner: QueueRunner;
  /** Folders watched for this run only, besides the saved ones (`sluice watch <folder>`). */
  private extraFolders: readonly WatchFolder[] = [];
  private readonly guard: SpendingGuard;
  private readonly searchIndex: TranscriptIndex;
  private readonly searchFollower: SearchFollower;
  readonly queue: QueueCommands;
  readonly results: Results;
  readonly history: History;
  readonly folders: FolderService;
  /** Team mode: claims on shared watch folders (adapters/claims). */
  readonly claims: SharedFolders;
  /** Watch folders that are away (a share offline), and their return. */
  private readonly presence: FolderPresence;
  /** Corrections of transcripts, saved as they are made; the results follow them. */
  readonly transcripts: TranscriptEditor;
  /** The account's templates (§13), read through the current client. */
  readonly templates: TemplateCatalogueCache;
  /** Lists of selects (string-outs): the CLI's too, each change under the list's lock. */
  readonly selects: Selects;

  private constructor(
    readonly stateDir: string,
    readonly settings: SettingsStore,
    readonly store: JobStore<JobRecord>,
    readonly connection: Connection,
    private readonly opts: RuntimeOptions,
    private readonly releaseLock: () => void,
  ) {
    this.emitter.setMaxListeners(100);
    const s = settings.get();
    const emit = (e: EngineEvent): void => void this.emitter.emit('event', e);
    const client = () => connection.client;
    // Results and the transcript editor each need the other (a correction rewrites the results;
    // every write reads the corrections): both are given a function, neither reaches back here.
    const transcripts: TranscriptEditor = new TranscriptEditor({
      exportsDir: path.join(stateDir, 'exports'),
      store: new CorrectionsStore(path.join(stateDir, 'corrections')),
      rewrite: async (id) => void (await results.writeAgain(id)),
      changed: (jobId, revision, problem) =>
        emit({ type: 'transcript:changed', jobId, revision, ...(problem ? { problem } : {}) }),
    });
    // The service port reads the client at call time, so a reconnect swaps it under the runner.
    const runner: QueueRunner = new QueueRunner({
      store,
      service: {
        upload: (o) => client().upload(o),
        findStream: (id) => client().findStream(id),
        listReady: () => collect(client().iterateStreams({ states: 'READY', size: 100 })),
        cancelStream: (id) => client().cancelStream(id),
        streamComponents: (id) => client().streamComponents(id),
        streamUsage: (id) => client().streamUsage(id),
        exportJson: (id) => client().exportJson(id),
        testConnection: () => client().testConnection(),
      },
      exportsDir: path.join(stateDir, 'exports'),
      limits: {
        uploadConcurrency: opts.concurrency ?? s.queue.uploadConcurrency,
        maxStreamsInFlight: s.queue.maxStreamsInFlight,
      },
      emit,
      writeResults: (job, exportPath) => results.writeOwned(job, exportPath),
      folderAway: (job) => this.presence.jobAway(job),
      onSettled: (job) => {
        void this.claims.settled(job);
        void this.folders.settled(job);
        if (job.state === 'completed') void this.guard.check();
      },
      onMoved: (job) => {
        results.followMove(job.id);
        void this.claims.moved(job);
      },
      ctx: {
        ...DEFAULT_CONTEXT,
        poll: { ...DEFAULT_CONTEXT.poll, initialMs: s.queue.pollMinMs, maxMs: s.queue.pollMaxMs },
        ...opts.ctx,
      },
    });
    const results = new Results({
      stateDir,
      store,
      exportJson: (id) => client().exportJson(id),
      apply: (id, event) => runner.apply(id, event),
      correctedSource: (job, exportPath) => transcripts.correctedSource(job, exportPath),
      review: {
        carry: (job, from, exportPath) => transcripts.carry(job, from, exportPath),
        work: (job) => transcripts.reviewWork(job),
      },
    });
    this.runner = runner;
    this.transcripts = transcripts;
    this.results = results;
    // The app owns the journal: jobs are read from it, not from the file it writes.
    this.selects = new Selects(stateDir, { job: (id) => store.get(id) });
    const folderOf = (id: string): WatchFolder | undefined =>
      [...settings.current().watchFolders, ...this.extraFolders].find((f) => f.id === id);
    this.claims = new SharedFolders({
      apply: (id, event) => runner.apply(id, event),
      jobs: () => runner.activeJobs(),
      folder: folderOf,
      retake: (folder, file) => intake.addDetected(folder, file),
      changed: () => emit({ type: 'claims:changed' }),
      ...(opts.claimRefreshMs === undefined ? {} : { refreshMs: opts.claimRefreshMs }),
      ...(opts.computerName ? { host: opts.computerName } : {}),
      ...(opts.claimClock ? { now: opts.claimClock } : {}),
      writer: createHash('sha256').update(path.resolve(stateDir)).digest('hex').slice(0, 12),
    });
    // A watch folder whose root is missing is offline: its work waits, nothing is written there.
    this.presence = new FolderPresence({
      folder: folderOf,
      changed: (folder, away) => {
        runner.setFolderAway(folder.id, away);
        void this.claims.folderAway(folder, away);
        if (!away) void sweepLeftoverTemps();
      },
      ...(opts.folderPollMs === undefined ? {} : { pollMs: opts.folderPollMs }),
    });
    this.on((e) => {
      if (e.type !== 'folder:status') return;
      const folder = folderOf(e.folderId);
      if (!folder) return;
      if (e.status === 'unavailable') this.presence.gone(folder);
      else if (e.status === 'watching' && !e.message) {
        // Watched (again): the folder is back, and what a failed clean-up left in it may go now.
        void this.presence.check();
        void this.claims.folderUp(folder);
        void sweepLeftoverTemps();
      }
    });
    const intake = new Intake(store, runner, () => settings.current(), this.claims);
    this.templates = new TemplateCatalogueCache(() => client().iterateTemplates());
    this.queue = new QueueCommands({
      store,
      runner,
      intake,
      settings,
      templates: this.templates,
      client,
      claims: this.claims,
      on: (listener) => this.on(listener),
      ...(opts.heldPause ? { heldPause: opts.heldPause } : {}),
    });
    this.folders = new FolderService({
      intake,
      settings: () => settings.current(),
      emit,
      record: (id, event) => runner.apply(id, event),
      setFolderPaused: (id, paused) => runner.setFolderPaused(id, paused),
      extra: () => this.extraFolders,
      ignored: new IgnoredFilesFile(stateDir),
      ...(opts.watchClock ? { now: opts.watchClock } : {}),
      ...(opts.watchEvents === undefined ? {} : { events: opts.watchEvents }),
      ...(opts.folderPollMs === undefined ? {} : { existPollMs: opts.folderPollMs }),
    });
    // The queue resumes when the state folder takes writes again (or the user resumes it):
    // files it could not record meanwhile are taken now, not at the next rescan.
    this.on((e) => e.type === 'queue:resumed' && this.folders.retakeUnrecorded());
    this.searchIndex = new TranscriptIndex({
      dir: path.join(stateDir, 'search'),
      // Archived jobs too: their transcripts stay searchable after they leave the Queue.
      jobIds: () => completedJobIds(store),
      source: async (id) => {
        const job = store.get(id);
        return job ? transcripts.searchSource(job) : undefined;
      },
    });
    this.history = new History({
      store,
      external: new ExternalStreams((o) => connection.streams(o)),
      searchTranscripts: (query) => this.searchIndex.search(query),
    });
    // The index follows completed jobs and corrections from the events, by itself.
    this.searchFollower = new SearchFollower(this.searchIndex, this);
    this.guard = new SpendingGuard({
      settings: () => settings.get(),
      usageReport: (start, end) => client().usageReport({ start, end, granularity: 'DAYS' }),
      pause: (message) => runner.setPause({ reason: 'spending-cap', message }),
      unpause: () => runner.setPause(undefined),
      isPausedByGuard: () => runner.pauseState?.reason === 'spending-cap',
    });
    connection.follow({
      connected: () => {
        this.templates.invalidate();
        if (runner.pauseState?.reason === 'credentials') runner.setPause(undefined);
      },
      credentialsMissing: (message) => runner.setPause({ reason: 'credentials', message }),
    });
  }

  static async open(opts: RuntimeOptions): Promise<Runtime> {
    try {
      return await Runtime.openIn(opts);
    } catch (e) {
      throw startupStorageError(opts.stateDir, e);
    }
  }

  private static async openIn(opts: RuntimeOptions): Promise<Runtime> {
    boundHeapGrowth();
    ensurePrivateStateDir(opts.stateDir);
    const release = acquireStateLock(opts.stateDir);
    try {
      const settings = new SettingsStore(opts.stateDir);
      const connection = await Connection.open(settings, opts);
      const store = JobStore.open<JobRecord>(opts.stateDir, { fsync: opts.fsync ?? 'batch', archive: JOB_ARCHIVE });
      const rt = new Runtime(opts.stateDir, settings, store, connection, opts, release);
      // The editor's own pause wins over the missing key's: it is what they chose, and it says so at start.
      if (!rt.queue.restoreHeldPause() && connection.missing)
        rt.runner.setPause({ reason: 'credentials', message: connection.missing });
      return rt;
    } catch (e) {
      release();
      throw e;
    }
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
    // Shared folders' jobs whose claim another computer took while this one was away end first.
    await this.claims.resume();
    this.runner.start();
    this.guard.start();
    void this.templates.get();
    this.searchIndex.warm();
    if (opts.watch) await this.folders.apply();
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

  async close(): Promise<void> {
    this.guard.stop();
    await this.transcripts.settled();
    await this.folders.close();
    this.presence.stop();
    await this.claims.stop();
    // Results being written again for a renamed file finish while the journal still takes them.
    await this.results.settled();
    await this.runner.stop();
    // Search files being written for the last jobs finish before the state folder is let go.
    await this.searchFollower.settled();
    await this.searchIndex.close();
    this.store.close();
    await this.connection.close();
    this.releaseLock();
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
