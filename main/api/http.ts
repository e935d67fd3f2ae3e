// The request core: one undici Agent, per-operation timeouts, auth header, error mapping (§8) and
// the retry loop (§8.4). Services describe a call; this file carries it out.
import { Agent, request, type Dispatcher } from './undici-parts.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ServiceError, type ErrorClass } from '../service/errors.js';
import {
  abortedError,
  errorCode,
  errorFromNetwork,
  errorFromResponse,
  timeoutError,
  type ErrorContext,
} from './error-mapping.js';
import { API_PREFIX, TIMEOUTS_MS, type ServiceName } from '../service/policy.js';
import { buildQuery, type QueryPairs } from './query.js';
import { parseRetryAfter, retryDelay, type RetryDeps, type RetryMode } from './retry.js';

export type ServiceUrls = Record<ServiceName, string>;
export type Timeouts = { -readonly [K in keyof typeof TIMEOUTS_MS]: number };

/** Supplies the Authorization header; implemented in auth.ts. */
export interface AuthProvider {
  authorization(signal?: AbortSignal): Promise<string>;
  /** A 401 answered `header`; true when a fresh credential may help (one replay follows). */
  refused(header: string): boolean;
}

/** A body the core can (re)create: a stream body is built per attempt. `touch` marks progress. */
export type BodySource = string | Uint8Array | ((touch: () => void) => AsyncIterable<Uint8Array>);

export interface CallSpec {
  service: ServiceName;
  operation: string;
  method: Dispatcher.HttpMethod;
  /** Path below the service's API prefix, already percent-encoded where needed. */
  path: string;
  query?: QueryPairs;
  headers?: Record<string, string>;
  body?: BodySource;
  /** Total time for one attempt, or, with `idle`, the longest stretch without progress. */
  timeoutMs: number;
  idle?: boolean;
  retry: RetryMode;
  /** False for the token endpoint itself. */
  auth?: boolean;
  signal?: AbortSignal;
  /** Class forced on a given failing status (the token endpoint's 400/401 mean bad credentials). */
  classHintByStatus?: Record<number, ErrorClass>;
  /** Called before each replay (attempt numbers start at 1 for the first replay). */
  onRetry?: (attempt: number, error: ServiceError, delayMs: number) => void;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** How many replays it took (0: first attempt). */
  replays: number;
}

function serviceLabel(service: ServiceName): string {
  return service === 'auth' ? 'auth service' : (API_PREFIX[service].split('/')[1] ?? service);
}

export class HttpCore {
  readonly #urls: ServiceUrls;
  readonly #deps: RetryDeps;
  readonly #agent: Agent;
  #auth: AuthProvider | undefined;

  readonly #userAgent: string | undefined;
  readonly timeouts: Readonly<Timeouts>;

  constructor(urls: ServiceUrls, deps: RetryDeps, userAgent?: string, timeouts: Partial<Timeouts> = {}) {
    this.#urls = urls;
    this.#deps = deps;
    this.timeouts = Object.freeze({ ...TIMEOUTS_MS, ...timeouts });
    this.#agent = new Agent({ connectTimeout: this.timeouts.connect, connections: 16 });
    this.#userAgent = userAgent;
  }

  setAuth(auth: AuthProvider): void {
    this.#auth = auth;
  }

  get deps(): RetryDeps {
    return this.#deps;
  }

  /** Origin and path of a call, without the query: what error messages show. */
  where(service: ServiceName, path: string): string {
    return `${this.#urls[service]}${API_PREFIX[service]}${path}`;
  }

  async call(spec: CallSpec): Promise<RawResponse> {
    const ctx: ErrorContext = {
      service: serviceLabel(spec.service),
      where: this.where(spec.service, spec.path),
      operation: spec.operation,
    };
    let refreshed = false;
    for (let attempt = 0; ;) {
      if (spec.signal?.aborted) throw abortedError(ctx, spec.signal.reason);
      // A failed token fetch is final here: the token call already ran its own replays.
      const header =
        spec.auth !== false && this.#auth
          ? await this.#withAbort(this.#auth.authorization(spec.signal), spec.signal, ctx)
          : undefined;
      try {
        const res = await this.#attempt(spec, ctx, header);
        return { ...res, replays: attempt };
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        // §2.2/§15.5: one refresh on a 401; a second 401 stays a credentials error.
        if (e.statusCode === 401 && header && !refreshed && spec.auth !== false && this.#auth?.refused(header)) {
          refreshed = true;
          continue;
        }
        const delay = retryDelay(e, spec.retry, attempt, this.#deps.random);
        if (delay === undefined) throw e;
        attempt++;
        spec.onRetry?.(attempt, e, delay);
        try {
          await this.#deps.sleep(delay, spec.signal);
        } catch (abortReason) {
          throw abortedError(ctx, abortReason);
        }
      }
    }
  }

  async #withAbort<T>(p: Promise<T>, signal: AbortSignal | undefined, ctx: ErrorContext): Promise<T> {
    if (!signal) return p;
    if (signal.aborted) throw abortedError(ctx, signal.reason);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(abortedError(ctx, signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([p, aborted]);
    } finally {
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  async #attempt(
    spec: CallSpec,
    ctx: ErrorContext,
    authorization: string | undefined,
  ): Promise<Omit<RawResponse, 'replays'>> {
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort(new Error('timeout'));
    }, spec.timeoutMs);
    // Only an idle timeout is pushed back by progress; a total timeout is not.
    const touch = (): void => void (spec.idle ? timer.refresh() : undefined);
    const onCallerAbort = (): void => ac.abort(spec.signal?.reason);
    spec.signal?.addEventListener('abort', onCallerAbort, { once: true });

    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    if (authorization) headers.authorization = authorization;
    if (this.#userAgent) headers['user-agent'] = this.#userAgent;
    // undici writes an async iterable chunk by chunk, awaiting drain (its types omit the case):
    // pulling only when the socket drained is what keeps a 4 GB upload's memory flat.
    const body = (typeof spec.body === 'function' ? spec.body(touch) : spec.body) as
      string | Uint8Array | Readable | undefined;
    const qs = spec.query && spec.query.length > 0 ? `?${buildQuery(spec.query)}` : '';
    try {
      const res = await request(`${ctx.where}${qs}`, {
        method: spec.method,
        headers,
        body,
        signal: ac.signal,
        dispatcher: this.#agent,
        // undici's own timers back ours up (its 300 s default would cut a long export short).
        headersTimeout: spec.timeoutMs,
        bodyTimeout: spec.timeoutMs,
      });
      touch();
      const buf = Buffer.from(await res.body.arrayBuffer());
      if (res.statusCode >= 200 && res.statusCode < 300)
        return { status: res.statusCode, headers: res.headers, body: buf };
      const retryAfterMs = parseRetryAfter(res.headers['retry-after'], this.#deps.now());
      throw errorFromResponse(
        res.statusCode,
        buf.toString('utf8'),
        ctx,
        retryAfterMs,
        spec.classHintByStatus?.[res.statusCode],
      );
    } catch (e) {
      if (e instanceof ServiceError) throw e;
      if (spec.signal?.aborted) throw abortedError(ctx, spec.signal.reason);
      if (timedOut) throw timeoutError(spec.timeoutMs, ctx, spec.idle === true);
      const code = errorCode(e);
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
        throw timeoutError(spec.timeoutMs, ctx, spec.idle === true, code);
      }
      throw errorFromNetwork(e, ctx);
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
