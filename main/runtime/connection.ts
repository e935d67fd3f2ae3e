// The connection to the service (or the embedded sandbox): the live client every part reads at call
// time, reconnects with new settings or credentials, the key typed for this run only, and the
// service's read-only questions (usage, streams, components, template previews).
import path from 'node:path';
import type { Credentials } from '../api/auth.js';
import { createClient, type SluiceClient } from '../api/client.js';
import { SANDBOX } from '../service/policy.js';
import { sandboxBehaviourFromEnv, startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/index.js';
import {
  ConnectionError,
  sandboxConnection,
  serviceConnection,
  usesSandbox,
  type ConnectionOverrides,
  type ResolvedConnection as ClientConnection,
} from '../adapters/queue/connection.js';
import { noCredentialsClient } from '../adapters/queue/no-credentials.js';
import type { SecretStore } from '../adapters/store/secrets/keychain.js';
import type { SettingsStore } from '../adapters/store/state/settings-store.js';
import type { Connection as ConnectionSettings, Settings } from '../engine/settings.js';
import type { RuntimeOptions } from './options.js';
import { PricedCurrencyList, type PricedCurrencies } from './priced-currencies.js';

/** The embedded sandbox's usage, kept in the state folder across restarts (sandbox/usage-ledger.ts). */
export const SANDBOX_USAGE_FILE = 'sandbox-usage.json';

/** The client's options, and the embedded sandbox when that is what the run talks to. */
export interface ResolvedConnection extends ClientConnection {
  sandbox?: Sandbox;
}

/**
 * Where the service is and who we are (adapters/queue/connection.ts), starting the embedded
 * sandbox in-process when the run uses it: the adapters below never start it themselves.
 */
export async function resolveConnection(opts: {
  settings: ConnectionSettings;
  /** The state folder: where the embedded sandbox keeps its usage. */
  stateDir: string;
  overrides?: ConnectionOverrides;
  env?: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  credentials?: Credentials;
  sandboxOptions?: SandboxOptions;
  /** The embedded sandbox already running in this process: reused, so its streams survive a switch. */
  running?: Sandbox;
}): Promise<ResolvedConnection> {
  if (!usesSandbox(opts.settings, opts.overrides)) return serviceConnection(opts);
  const apiKey = opts.sandboxOptions?.apiKey ?? SANDBOX.apiKey;
  // No dataDir: the sandbox measures each upload in a temp file and deletes it (disk stays flat).
  // SLUICE_SANDBOX_* (processing time, faults...) apply here too; options given in code win.
  // Its usage is kept in the state folder, so Usage counts what earlier runs processed too.
  const usageFile = path.join(opts.stateDir, SANDBOX_USAGE_FILE);
  const sandbox =
    opts.running ??
    (await startSandbox({
      ...sandboxBehaviourFromEnv(opts.env ?? process.env),
      usageFile,
      ...opts.sandboxOptions,
      apiKey,
    }));
  return { ...sandboxConnection(sandbox.url, apiKey), sandbox };
}

interface Live {
  conn: ResolvedConnection;
  client: SluiceClient;
  /** Opened without credentials: why (the credentials pause says so). */
  missing?: string;
}

/** What the connection tells the rest of the runtime when the client changes. */
export interface ConnectionListener {
  /** A new client is in use (the template catalogue read through the old one is stale). */
  connected(): void;
  /** No credentials are left: the queue waits for them, saying `message`. */
  credentialsMissing(message: string): void;
}

export class Connection {
  /** The in-process sandbox, once started; reused by every reconnect to the sandbox. */
  private embedded: Sandbox | undefined;
  /** An API key given for this run only (Settings' "until Sluice quits"): memory, never disk or logs. */
  private sessionKey: string | undefined;
  private listener: ConnectionListener = { connected: () => undefined, credentialsMissing: () => undefined };
  /** The currencies the connected service prices in, asked of that connection (a new one asks anew). */
  private priced: { live: Live; list: PricedCurrencyList } | undefined;

  private constructor(
    private live: Live,
    private readonly settings: SettingsStore,
    private readonly opts: RuntimeOptions,
  ) {
    this.embedded = live.conn.sandbox;
  }

  /**
   * Connects as the settings say; with `missingCredentials: 'pause'`, a missing key opens a
   * connection that sends nothing (see `missing`) instead of throwing.
   */
  static async open(settings: SettingsStore, opts: RuntimeOptions): Promise<Connection> {
    const live = await connect(settings.get(), opts).then(
      (conn): Live => ({ conn, client: createClient(conn.client) }),
      (e: unknown) => {
        if (opts.missingCredentials !== 'pause' || !(e instanceof ConnectionError)) throw e;
        return withoutCredentials(settings.get());
      },
    );
    return new Connection(live, settings, opts);
  }

  /** Given once by the runtime, after the parts that react to a new client exist. */
  follow(listener: ConnectionListener): void {
    this.listener = listener;
  }

  get client(): SluiceClient {
    return this.live.client;
  }

  get simulated(): boolean {
    return this.live.conn.simulated;
  }

  get label(): string {
    return this.live.conn.describe;
  }

  /** Why the runtime runs without credentials (opened with `missingCredentials: 'pause'`), if it does. */
  get missing(): string | undefined {
    return this.live.missing;
  }

  /** True while the runtime runs without credentials. */
  get credentialsMissing(): boolean {
    return this.live.missing !== undefined;
  }

  get sandbox(): ResolvedConnection['sandbox'] {
    return this.live.conn.sandbox;
  }

  /**
   * Uses new connection settings or credentials (Settings screen) without a restart. In-flight
   * calls finish or fail on the old client; the offline probe then finds the new one.
   */
  async reconnect(overrides?: ConnectionOverrides): Promise<void> {
    const conn = await connect(
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
    this.listener.connected();
  }

  /**
   * Whether the service answers with the current credentials and address, or with what Settings
   * shows and has not saved yet: `apiKey` typed, `connection` chosen (both tried on a client of
   * their own, then dropped). Says what was tried and, when it did not answer, why (`failure`).
   */
  async testConnection(
    apiKey?: string,
    connection?: ConnectionSettings,
  ): Promise<{ label: string; simulated: boolean; failure?: unknown }> {
    const saved = this.settings.get();
    const target = connection ?? saved.connection;
    const same = JSON.stringify(target) === JSON.stringify(saved.connection);
    // The run's own address (`serve --base-url`, `--sandbox`) goes with the saved connection it
    // overrides; an address chosen on screen is tried as chosen.
    const { connection: runOverrides, ...runOpts } = this.opts;
    const overrides = same ? runOverrides : undefined;
    // The embedded sandbox brings its own key: a typed key has nothing to be tested against there.
    const sandbox = overrides?.sandbox === true || (!hasAddress(overrides) && target.mode === 'sandbox');
    if (same && (apiKey === undefined || sandbox)) {
      const tried = { label: this.label, simulated: this.simulated };
      return this.client.testConnection().then(
        () => tried,
        (failure: unknown) => ({ ...tried, failure }),
      );
    }
    const conn = await connect(
      { ...saved, connection: target },
      {
        ...runOpts,
        ...(overrides ? { connection: overrides } : {}),
        ...(apiKey !== undefined && !sandbox
          ? { credentials: { kind: 'apiKey', apiKey } as const }
          : this.sessionCredentials()),
      },
      this.embedded,
    );
    const client = createClient(conn.client);
    const tried = { label: conn.describe, simulated: conn.simulated };
    try {
      await client.testConnection();
      return tried;
    } catch (failure) {
      return { ...tried, failure };
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
      this.listener.credentialsMissing(this.live.missing ?? e.message);
    }
  }

  get hasSessionKey(): boolean {
    return this.sessionKey !== undefined;
  }

  /** The account's usage report, as the service computes it. */
  usageReport(opts: Parameters<SluiceClient['usageReport']>[0]): ReturnType<SluiceClient['usageReport']> {
    return this.client.usageReport(opts);
  }

  /** The currencies the service prices usage in, from its own answers (priced-currencies.ts). */
  pricedCurrencies(): Promise<PricedCurrencies> {
    const live = this.live;
    if (this.priced?.live !== live) {
      const report = (currency: string) => {
        const end = Date.now();
        return live.client.usageReport({ start: new Date(end - 3600_000), end: new Date(end), currency });
      };
      this.priced = { live, list: new PricedCurrencyList({ report, now: Date.now }) };
    }
    return this.priced.list.list();
  }

  /** What the service counted for one stream, processor by processor (§7.3). */
  streamUsage(
    streamId: string,
    opts?: Parameters<SluiceClient['streamUsage']>[1],
  ): ReturnType<SluiceClient['streamUsage']> {
    return this.client.streamUsage(streamId, opts);
  }

  /** The account's streams, page by page (including those started elsewhere). */
  streams(opts: Parameters<SluiceClient['iterateStreams']>[0]): ReturnType<SluiceClient['iterateStreams']> {
    return this.client.iterateStreams(opts);
  }

  /** What the service says of a stream's gateway and processors right now. */
  streamComponents(streamId: string): ReturnType<SluiceClient['streamComponents']> {
    return this.client.streamComponents(streamId);
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.embedded?.close();
  }

  /** The session key applies to connections signing in with an API key. */
  private sessionCredentials(): { credentials?: Credentials } {
    const c = this.settings.get().connection;
    const auth = c.mode === 'sandbox' ? 'apiKey' : c.auth;
    return this.sessionKey !== undefined && auth === 'apiKey'
      ? { credentials: { kind: 'apiKey', apiKey: this.sessionKey } }
      : {};
  }
}

/** The run names an address of its own (`--base-url`, `--gateway-url` …), which wins over the settings'. */
function hasAddress(o: ConnectionOverrides | undefined): boolean {
  return o?.baseUrl !== undefined || Object.keys(o?.urls ?? {}).length > 0;
}

function connect(settings: Settings, opts: RuntimeOptions, running?: Sandbox): Promise<ResolvedConnection> {
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
