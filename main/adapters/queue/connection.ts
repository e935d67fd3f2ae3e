// Where the service is and who we are: settings + command-line overrides + the keychain → the
// client's options. With no connection configured, the embedded sandbox is started in-process.
import path from 'node:path';
import type { Credentials } from '../../api/auth.js';
import type { ClientOptions } from '../../api/client.js';
import type { ServiceUrls } from '../../api/http.js';
import { SANDBOX } from '../../service/policy.js';
import type { Connection } from '../../engine/settings.js';
import { sandboxBehaviourFromEnv, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.js';
import type { SecretStore } from '../store/keychain.js';

/** The embedded sandbox's usage, kept in the state folder across restarts (sandbox/usage-ledger.ts). */
export const SANDBOX_USAGE_FILE = 'sandbox-usage.json';

export interface ConnectionOverrides {
  /** Force the embedded sandbox. */
  sandbox?: boolean;
  baseUrl?: string;
  urls?: Partial<ServiceUrls>;
}

export interface ResolvedConnection {
  client: ClientOptions;
  /** Results are simulated (the embedded sandbox or a sandbox URL). */
  simulated: boolean;
  sandbox?: Sandbox;
  describe: string;
}

export class ConnectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionError';
  }
}

/** Credentials from the environment first (CI, servers), then the OS keychain. */
export async function findCredentials(
  env: NodeJS.ProcessEnv,
  secrets: SecretStore | undefined,
  auth: 'apiKey' | 'clientCredentials',
): Promise<Credentials | undefined> {
  if (env.SLUICE_API_KEY) return { kind: 'apiKey', apiKey: env.SLUICE_API_KEY };
  if (env.SLUICE_CLIENT_ID && env.SLUICE_CLIENT_SECRET) {
    return { kind: 'clientCredentials', clientId: env.SLUICE_CLIENT_ID, clientSecret: env.SLUICE_CLIENT_SECRET };
  }
  if (!secrets) return undefined;
  if (auth === 'clientCredentials') {
    const [id, secret] = await Promise.all([secrets.get('client-id'), secrets.get('client-secret')]);
    return id && secret ? { kind: 'clientCredentials', clientId: id, clientSecret: secret } : undefined;
  }
  const key = await secrets.get('api-key');
  return key ? { kind: 'apiKey', apiKey: key } : undefined;
}

export async function resolveConnection(opts: {
  settings: Connection;
  overrides?: ConnectionOverrides;
  stateDir: string;
  env?: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  credentials?: Credentials;
  sandboxOptions?: SandboxOptions;
  /** The embedded sandbox already running in this process: reused, so its streams survive a switch. */
  running?: Sandbox;
}): Promise<ResolvedConnection> {
  const env = opts.env ?? process.env;
  const o = opts.overrides ?? {};
  const explicitUrl = o.baseUrl !== undefined || (o.urls && Object.keys(o.urls).length > 0);
  const useSandbox = o.sandbox || (!explicitUrl && opts.settings.mode === 'sandbox');
  if (useSandbox) {
    const apiKey = opts.sandboxOptions?.apiKey ?? SANDBOX.apiKey;
    // No dataDir: the sandbox measures each upload in a temp file and deletes it (disk stays flat).
    // SLUICE_SANDBOX_* (processing time, faults...) apply here too; options given in code win.
    // Its usage is kept in the state folder, so Usage counts what earlier runs processed too.
    const usageFile = path.join(opts.stateDir, SANDBOX_USAGE_FILE);
    const sandbox =
      opts.running ??
      (await startSandbox({ ...sandboxBehaviourFromEnv(env), usageFile, ...opts.sandboxOptions, apiKey }));
    return {
      client: { baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey } },
      simulated: true,
      sandbox,
      describe: `embedded sandbox at ${sandbox.url} (results are simulated)`,
    };
  }
  const auth = opts.settings.mode === 'sandbox' ? 'apiKey' : opts.settings.auth;
  const credentials = opts.credentials ?? (await findCredentials(env, opts.secrets, auth));
  if (!credentials) {
    throw new ConnectionError(
      'No API key found. Set SLUICE_API_KEY, store a key in Settings (kept in the system keychain), or use --sandbox to try Sluice with simulated results.',
    );
  }
  const fromSettings =
    opts.settings.mode === 'custom' ? { baseUrl: opts.settings.baseUrl, urls: opts.settings.urls } : {};
  const baseUrl = o.baseUrl ?? fromSettings.baseUrl;
  const urls = { ...fromSettings.urls, ...o.urls };
  return {
    client: { credentials, ...(baseUrl ? { baseUrl } : {}), urls },
    simulated: false,
    describe: baseUrl ?? (opts.settings.mode === 'production' ? 'production service' : 'custom service URLs'),
  };
}
