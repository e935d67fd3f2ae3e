// Which failures the client replays by itself and how long it waits (§8.4, C21). The engine sees
// only what is left after this: the error's class decides what happens to the job.
import type { ServiceError } from '../service/errors.js';
import { retryDelay as backoffRetryDelay, type BackoffPolicy } from '../engine/backoff.js';
import { RETRY } from '../service/policy.js';

/**
 * - `idempotent`: reads (find, list, components, export, usage, token, template preview);
 * - `network`: replay only when no answer arrived (cancel: idempotent in effect, but a 5xx
 *   answer is the service's own verdict and goes to the engine);
 * - `never`: uploads; the engine decides (§15.2).
 */
export type RetryMode = 'idempotent' | 'network' | 'never';

export interface RetryDeps {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1), injected so tests can pin the jitter. */
  random: () => number;
  now: () => number;
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The client's replays wait as the engine's retries do (full jitter, Retry-After wins), only
 * shorter: a call must not hang for minutes, the engine takes over after `RETRY.maxAttempts`.
 */
export const CLIENT_BACKOFF: BackoffPolicy = {
  baseMs: RETRY.baseDelayMs,
  capMs: RETRY.maxDelayMs,
  maxRetryAfterMs: RETRY.retryAfterCapMs,
};

/** The wait before the next attempt, or undefined when this failure is not replayed in `mode`. */
export function retryDelay(
  e: ServiceError,
  mode: RetryMode,
  attempt: number,
  random: () => number,
): number | undefined {
  if (mode === 'never' || attempt + 1 >= RETRY.maxAttempts) return undefined;
  if (!isReplayable(e, mode)) return undefined;
  // `attempt` counts from 0; the engine's policy counts failures from 1.
  return backoffRetryDelay(attempt + 1, e.retryAfterMs, CLIENT_BACKOFF, random);
}

function isReplayable(e: ServiceError, mode: RetryMode): boolean {
  switch (e.kind) {
    case 'timeout':
      return true;
    case 'network':
      return e.code !== undefined && RETRY.retryableNetworkCodes.includes(e.code);
    case 'http':
      return mode === 'idempotent' && e.statusCode !== undefined && RETRY.retryableStatus.includes(e.statusCode);
    default:
      return false;
  }
}

/** A sleep that an abort cuts short (rejecting with the signal's reason). */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const defaultRetryDeps: RetryDeps = { sleep: abortableSleep, random: Math.random, now: Date.now };
