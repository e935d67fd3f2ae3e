// Where the service is and who we are: settings + command-line overrides + the keychain → the
// client's options. Whether the run uses the embedded sandbox is decided here; the sandbox itself is
// started by the runtime's connection service (runtime/connection.ts), which hands back its URL.
import type { Credentials } from '../../api/auth.js';
import type { ClientOptions } from '../../api/client.js';
import type { ServiceUrls } from '../../api/http.js';
import type { Connection } from '../../engine/settings.js';
import type { SecretStore } from '../store/secrets/keychain.js';

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

/** The run uses the embedded sandbox: asked for (`--sandbox`), or the settings' mode with no address given. */
export function usesSandbox(settings: Connection, overrides: ConnectionOverrides = {}): boolean {
  const explicitUrl = overrides.baseUrl !== undefined || (overrides.urls && Object.keys(overrides.urls).length > 0);
  return overrides.sandbox === true || (!explicitUrl && settings.mode === 'sandbox');
}

/** The client's options for the embedded sandbox listening at `url`. */
export function sandboxConnection(url: string, apiKey: string): ResolvedConnection {
  return {
    client: { baseUrl: url, credentials: { kind: 'apiKey', apiKey } },
    simulated: true,
    describe: `embedded sandbox at ${url} (results are simulated)`,
  };
}

/** The client's options for the real (or a custom) service: its address and the credentials found. */
export async function serviceConnection(opts: {
  settings: Connection;
  overrides?: ConnectionOverrides;
  env?: NodeJS.ProcessEnv;
  secrets?: SecretStore;
  credentials?: Credentials;
}): Promise<ResolvedConnection> {
  const env = opts.env ?? process.env;
  const o = opts.overrides ?? {};
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
