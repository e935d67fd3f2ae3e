// Credentials of contract §2: forms A1–A6, precedence C2 (Authorization > X-Client-* > query;
// the first form present decides), C3 error bodies, and the tokens of the token endpoint (§2.2).
import { randomBytes } from 'node:crypto';
import { SandboxHttpError } from './http-error.js';

export interface Credentials {
  apiKey: string;
  clientId: string;
  clientSecret: string;
}

const unauthenticated = (message: string): SandboxHttpError =>
  new SandboxHttpError(401, 'GENERAL_AUTHENTICATION_ERROR', message, { title: 'Authentication required' });

const b64url = (s: string): string => Buffer.from(s).toString('base64url');

export class TokenStore {
  private readonly tokens = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly expiresInS: number,
  ) {}

  /** A JWT-shaped opaque token; only its presence in this store gives access. */
  issue(clientId: string): { token: string; expiresInS: number } {
    const iat = Math.floor(this.now() / 1000);
    const payload = { sub: clientId, iat, exp: iat + this.expiresInS, iss: 'sluice-sandbox' };
    const token = `${b64url('{"alg":"none","typ":"JWT"}')}.${b64url(JSON.stringify(payload))}.${randomBytes(16).toString('base64url')}`;
    this.tokens.set(token, this.now() + this.expiresInS * 1000);
    return { token, expiresInS: this.expiresInS };
  }

  valid(token: string): boolean {
    const exp = this.tokens.get(token);
    if (exp === undefined) return false;
    if (exp <= this.now()) {
      this.tokens.delete(token);
      return false;
    }
    return true;
  }
}

export interface AuthInput {
  authorization: string | undefined;
  clientIdHeader: string | undefined;
  clientSecretHeader: string | undefined;
  query: URLSearchParams;
}

/** Throws a 401 SandboxHttpError unless the request carries valid credentials. */
export function authenticate(input: AuthInput, creds: Credentials, tokens: TokenStore): void {
  const basicPair = Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64');
  if (input.authorization !== undefined) {
    const m = /^(\S+)\s+(.+)$/.exec(input.authorization.trim());
    const scheme = m?.[1]?.toLowerCase();
    const value = m?.[2]?.trim() ?? '';
    if (scheme === 'bearer') {
      if (tokens.valid(value)) return;
      throw unauthenticated('Invalid or expired access token');
    }
    if (scheme === 'basic') {
      if (value === creds.apiKey || value === basicPair) return;
      throw unauthenticated('Invalid API key');
    }
    throw unauthenticated('Unsupported authorization scheme');
  }
  if (input.clientIdHeader !== undefined || input.clientSecretHeader !== undefined) {
    if (input.clientIdHeader === creds.clientId && input.clientSecretHeader === creds.clientSecret) return;
    throw unauthenticated('Invalid client credentials');
  }
  const accessToken = input.query.get('access_token');
  if (accessToken !== null) {
    if (accessToken === creds.apiKey || tokens.valid(accessToken)) return;
    throw unauthenticated('Invalid access token');
  }
  const qId = input.query.get('client_id');
  const qSecret = input.query.get('client_secret');
  if (qId !== null || qSecret !== null) {
    if (qId === creds.clientId && qSecret === creds.clientSecret) return;
    throw unauthenticated('Invalid client credentials');
  }
  throw unauthenticated('Full authentication is required to access this resource');
}

export type TokenResult =
  { ok: true; body: Record<string, unknown> } | { ok: false; body: { error: string; error_description: string } };

/** §2.2: form fields, or client_secret_basic as OAuth servers also accept. */
export function exchangeToken(
  form: URLSearchParams,
  authorization: string | undefined,
  creds: Credentials,
  tokens: TokenStore,
): TokenResult {
  let id = form.get('client_id');
  let secret = form.get('client_secret');
  const basic = /^basic\s+(.+)$/i.exec(authorization ?? '');
  if (basic?.[1] && id === null) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i > 0) {
      id = decodeURIComponent(decoded.slice(0, i));
      secret = decodeURIComponent(decoded.slice(i + 1));
    }
  }
  const grant = form.get('grant_type');
  if (grant === null) return fail('invalid_request', 'Missing form parameter: grant_type');
  if (grant !== 'client_credentials') return fail('unsupported_grant_type', 'Unsupported grant_type');
  if (id !== creds.clientId || secret !== creds.clientSecret) {
    return fail('invalid_client', 'Invalid client or Invalid client credentials');
  }
  const { token, expiresInS } = tokens.issue(id);
  return {
    ok: true,
    body: {
      access_token: token,
      expires_in: expiresInS,
      refresh_expires_in: 0,
      token_type: 'Bearer',
      'not-before-policy': 0,
      scope: 'profile email',
    },
  };
}

function fail(error: string, error_description: string): TokenResult {
  return { ok: false, body: { error, error_description } };
}
