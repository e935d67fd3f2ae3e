// Sluice without Electron: settings, the job journal, the client (or the embedded sandbox), the
// queue runner and the watch folders wired together. The CLI, the web bridge and the desktop app
// all drive this one object.
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Credentials } from './api/auth.js';
import { createClient, type SluiceClient } from './api/client.js';
import { findTemplate } from './api/templates.js';
import type { SandboxOptions, Sandbox } from './sandbox/index.js';
import { resolveConnection, type ConnectionOverrides } from './adapters/connection.js';
import { JobStore, type FsyncMode } from './adapters/job-store.js';
import type { SecretStore } from './adapters/keychain.js';
import { QueueRunner, type PauseState } from './adapters/queue-runner.js';
import { ResultOwnership, writeResults } from './adapters/results.js';
import { SettingsStore } from './adapters/settings-store.js';
import { acquireStateLock } from './adapters/state-lock.js';
import type { EngineEvent } from './engine/events.js';
import { isTerminal, type JobRecord } from './engine/job.js';
import { validateParams } from './engine/params.js';
import { DEFAULT_CONTEXT, type EngineContext } from './engine/reducer.js';
import type { Settings } from './engine/settings.js';
import { Intake, type AddOptions, type AddOutcome } from './adapters/intake.js';

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
}

export class Runtime {
  private readonly emitter = new EventEmitter();
  readonly runner: QueueRunner;
  readonly intake: Intake;
  private readonly ownership: ResultOwnership;

  private constructor(
    readonly stateDir: string,
    readonly settings: SettingsStore,
    readonly store: JobStore<JobRecord>,
    readonly client: SluiceClient,
    readonly simulated: boolean,
    readonly connectionLabel: string,
    readonly sandbox: Sandbox | undefined,
    opts: RuntimeOptions,
    private readonly releaseLock: () => void,
  ) {
    this.emitter.setMaxListeners(100);
    const s = settings.get();
    this.ownership = new ResultOwnership(store.all());
    this.runner = new QueueRunner({
      store,
      service: {
        upload: (o) => client.upload(o),
        findStream: (id) => client.findStream(id),
        listReady: () => collect(client.iterateStreams({ states: 'READY', size: 100 })),
        cancelStream: (id) => client.cancelStream(id),
        streamComponents: (id) => client.streamComponents(id),
        exportJson: (id) => client.exportJson(id),
        testConnection: () => client.testConnection(),
      },
      exportsDir: path.join(stateDir, 'exports'),
      limits: {
        uploadConcurrency: opts.concurrency ?? s.queue.uploadConcurrency,
        maxStreamsInFlight: s.queue.maxStreamsInFlight,
      },
      emit: (e) => this.emitter.emit('event', e),
      writeResults: async (job, exportPath) => {
        const results = await writeResults(job, exportPath, this.ownership);
        this.ownership.record(results);
        return results;
      },
      ctx: {
        ...DEFAULT_CONTEXT,
        poll: { ...DEFAULT_CONTEXT.poll, initialMs: s.queue.pollMinMs, maxMs: s.queue.pollMaxMs },
        ...opts.ctx,
      },
    });
    this.intake = new Intake(store, this.runner, () => this.settings.get());
  }

  static async open(opts: RuntimeOptions): Promise<Runtime> {
    mkdirSync(opts.stateDir, { recursive: true });
    const release = acquireStateLock(opts.stateDir);
    try {
      return await Runtime.openLocked(opts, release);
    } catch (e) {
      release();
      throw e;
    }
  }

  private static async openLocked(opts: RuntimeOptions, release: () => void): Promise<Runtime> {
    const settings = new SettingsStore(opts.stateDir);
    const conn = await resolveConnection({
      settings: settings.get().connection,
      stateDir: opts.stateDir,
      ...(opts.connection ? { overrides: opts.connection } : {}),
      ...(opts.secrets ? { secrets: opts.secrets } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      ...(opts.sandboxOptions ? { sandboxOptions: opts.sandboxOptions } : {}),
      ...(opts.env ? { env: opts.env } : {}),
    });
    const store = JobStore.open<JobRecord>(opts.stateDir, { fsync: opts.fsync ?? 'batch' });
    const client = createClient(conn.client);
    return new Runtime(
      opts.stateDir,
      settings,
      store,
      client,
      conn.simulated,
      conn.describe,
      conn.sandbox,
      opts,
      release,
    );
  }

  /** Subscribes to engine events; returns the unsubscribe function. */
  on(listener: (e: EngineEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  start(): void {
    this.runner.start();
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

  pause(message = 'Paused by you.'): void {
    this.runner.setPause({ reason: 'user', message });
  }

  resume(): void {
    this.runner.setPause(undefined);
  }

  get pauseState(): PauseState | undefined {
    return this.runner.pauseState;
  }

  updateSettings(change: (s: Settings) => Settings): Settings {
    const next = this.settings.update(change);
    this.runner.setLimits({
      uploadConcurrency: next.queue.uploadConcurrency,
      maxStreamsInFlight: next.queue.maxStreamsInFlight,
    });
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
        } else if (e.type === 'queue:paused' && (e.reason === 'credentials' || e.reason === 'usage-limit')) {
          off();
          reject(new Error(e.message));
        }
      });
    });
  }

  async close(): Promise<void> {
    await this.intake.close();
    await this.runner.stop();
    this.store.close();
    await this.client.close();
    await this.sandbox?.close();
    this.releaseLock();
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
