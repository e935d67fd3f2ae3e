// Retry delays, polling intervals and the stuck deadline (§8.4, §15.3). Randomness is injected so
// tables can pin it.

export type Random = () => number;

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** A Retry-After larger than this is clamped: a bad header must not park a job for days. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, capMs: 5 * 60_000, maxRetryAfterMs: 60 * 60_000 };

/**
 * Full jitter (a uniform draw in [0, min(cap, base·2^n))) above a floor of a quarter of that
 * ceiling. The draw spreads the retries of many jobs that failed together, so a recovering service
 * is not hit by a synchronised wave; the floor, which doubles with each failure, means no retry
 * ever goes out back to back (draws near 0 did: 2,000 cancels in 24 s).
 * `failures` counts the consecutive failures so far (1 for the first retry).
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: Random): number {
  const n = Math.max(0, failures - 1);
  // 2^n overflows to Infinity past ~1000; min() with the cap keeps it finite.
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(n, 60));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(Math.max(ceiling / 4, r * ceiling));
}

/**
 * The server knows its own recovery time better than any guess: a Retry-After longer than the
 * backoff wins. A shorter one (`Retry-After: 0`) does not undercut it: the backoff's floor grows
 * whatever the header says, so a service answering "now" to every retry is not hammered.
 */
export function retryDelay(
  failures: number,
  retryAfterMs: number | undefined,
  policy: BackoffPolicy,
  random: Random,
): number {
  const backoff = backoffDelay(failures, policy, random);
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.max(backoff, Math.min(retryAfterMs, policy.maxRetryAfterMs));
  }
  return backoff;
}

export interface PollPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** For this long after the upload the interval stays at `initialMs`, then it grows. */
  flatMs: number;
}

export const DEFAULT_POLL: PollPolicy = { initialMs: 1000, maxMs: 30_000, factor: 1.5, flatMs: 10_000 };

/**
 * Media shorter than this is often processed before a first look at `initialMs` would come: its
 * first look comes after a fifth of `initialMs` (1 s → 200 ms), or after the clip's own length when
 * that is shorter (a stream is not done before its media could have streamed through), at least
 * `FIRST_LOOK_FLOOR_MS`. At most one request more per file, and only for clips (measured: a 1 KB
 * WAV waited 1 s of its 2.2 s end to end for that first look, then 200 ms of its 0.9 s). Longer
 * media keeps `initialMs`: its stream is not done so soon.
 */
export const SHORT_MEDIA_MS = 10_000;
export const FIRST_LOOK_FLOOR_MS = 50;

/**
 * Short media finishes in seconds; long media runs for hours. Polling at the shortest interval for
 * the first seconds, then growing it, serves both: a clip's result is noticed within a second, and
 * a stream processing for hours is read every `maxMs`. (Measured: growing from the first poll left
 * the last streams of a batch unnoticed for up to 2.3 s after they finished.)
 */
export function nextPollInterval(
  current: number | undefined,
  policy: PollPolicy,
  processingForMs = 0,
  mediaDurationMs?: number,
): number {
  if (current === undefined && mediaDurationMs !== undefined && mediaDurationMs < SHORT_MEDIA_MS) {
    const look = Math.min(Math.round(policy.initialMs / 5), Math.round(mediaDurationMs));
    return Math.min(policy.initialMs, Math.max(FIRST_LOOK_FLOOR_MS, look));
  }
  if (current === undefined || processingForMs < policy.flatMs) return policy.initialMs;
  return Math.min(policy.maxMs, Math.max(policy.initialMs, Math.round(current * policy.factor)));
}

export interface StuckPolicy {
  /** Fixed allowance on top of 2 × media duration. */
  graceMs: number;
  /** Used when the media duration is unknown (not every file's length can be read locally). */
  unknownDurationMs: number;
}

export const DEFAULT_STUCK: StuckPolicy = { graceMs: 30 * 60_000, unknownDurationMs: 4 * 60 * 60_000 };

/** §15.3: report (never cancel) a stream still READY 2 × duration + 30 min after its upload. */
export function stuckDeadline(uploadedAt: number, mediaDurationMs: number | undefined, policy: StuckPolicy): number {
  if (mediaDurationMs === undefined || !Number.isFinite(mediaDurationMs) || mediaDurationMs < 0) {
    return uploadedAt + policy.unknownDurationMs;
  }
  return uploadedAt + 2 * mediaDurationMs + policy.graceMs;
}
