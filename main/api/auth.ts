// Credentials (§2, §15.5): an API key sent as issued, or client id + secret exchanged for a bearer
// token that is cached, shared by concurrent requests and refreshed before it expires. Secrets live
// in private fields only, so neither JSON.stringify nor util.inspect of a client shows them.
import { inputError } from './error-mapping.js';
import type { AuthProvider, HttpCore } from './http.js';
import { TOKEN, TOKEN_PATH } from '../service/policy.js';
import { buildQuery } from './query.js';
import { parseToken } from './responses.js';

export type Credentials =
  { kind: 'apiKey'; apiKey: string } | { kind: 'clientCredentials'; clientId: string; clientSecret: string };

export class ApiKeyAuth implements AuthProvider {
  readonly #header: string;

  constructor(apiKey: string) {
    if (!apiKey.trim()) throw inputError('configure client', 'The API key is empty.');
    // A3: the key is sent exactly as issued (it is already base64 of id:secret), not re-encoded.
    this.#header = `Basic ${apiKey}`;
  }

  authorization(): Promise<string> {
    return Promise.resolve(this.#header);
  }

  refused(): boolean {
    return false;
  }

  toJSON(): Record<string, unknown> {
    return { kind: 'apiKey' };
  }
}

interface CachedToken {
  header: string;
  refreshAt: number;
}

export class TokenAuth implements AuthProvider {
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #core: HttpCore;
  #cached: CachedToken | undefined;
  #inFlight: Promise<CachedToken> | undefined;
  #fetches = 0;

  constructor(clientId: string, clientSecret: string, core: HttpCore) {
    if (!clientId.trim() || !clientSecret.trim()) {
      throw inputError('configure client', 'The client id and client secret must both be set.');
    }
    this.#clientId = clientId;
    this.#clientSecret = clientSecret;
    this.#core = core;
  }

  /** How many tokens were requested so far (tests and diagnostics). */
  get tokenFetches(): number {
    return this.#fetches;
  }

  async authorization(): Promise<string> {
    const now = this.#core.deps.now();
    if (this.#cached && now < this.#cached.refreshAt) return this.#cached.header;
    // Concurrent callers share one fetch. It is not tied to any caller's signal: one caller giving
    // up must not fail the others (the core races each caller's own signal against it).
    this.#inFlight ??= this.#fetch().finally(() => {
      this.#inFlight = undefined;
    });
    return (await this.#inFlight).header;
  }

  refused(header: string): boolean {
    // Only the first of several concurrent 401s on the same token drops it; all of them replay once.
    if (this.#cached?.header === header) this.#cached = undefined;
    return true;
  }

  async #fetch(): Promise<CachedToken> {
    this.#fetches++;
    const started = this.#core.deps.now();
    const res = await this.#core.call({
      service: 'auth',
      operation: 'get access token',
      method: 'POST',
      path: TOKEN_PATH,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: buildQuery([
        ['grant_type', 'client_credentials'],
        ['client_id', this.#clientId],
        ['client_secret', this.#clientSecret],
      ]),
      timeoutMs: this.#core.timeouts.token,
      retry: 'idempotent',
      auth: false,
      classHintByStatus: { 400: 'credentials', 401: 'credentials' },
    });
    const token = parseToken(res.body, this.#core.where('auth', TOKEN_PATH));
    const lifetimeS = token.expires_in > 0 ? token.expires_in : TOKEN.defaultExpiresInS;
    const cached = {
      header: `Bearer ${token.access_token}`,
      refreshAt: started + lifetimeS * 1000 * TOKEN.refreshAtFraction,
    };
    this.#cached = cached;
    return cached;
  }

  toJSON(): Record<string, unknown> {
    return { kind: 'clientCredentials' };
  }
}
