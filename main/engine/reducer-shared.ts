// Helpers shared by the reducer's phases: the engine context, and the few moves every phase makes
// (stay unchanged, fail, back off, apply a stream's state).
import { RETENTION } from '../service/policy.js';
import { isRateLimit, isUsageLimit } from './rate-limit.js';
import {
  DEFAULT_BACKOFF,
  DEFAULT_POLL,
  DEFAULT_STUCK,
  nextPollInterval,
  retryDelay,
  type BackoffPolicy,
  type PollPolicy,
  type Random,
  type StuckPolicy,
} from './backoff.js';
import type { ComponentsSnapshot, Effect, Failure, JobError, JobRecord, StreamSnapshot, Transition } from './job.js';

export interface EngineContext {
  random: Random;
  backoff: BackoffPolicy;
  poll: PollPolicy;
  stuck: StuckPolicy;
  /** Latest moment after finalisation at which an export is still attempted (§9.4). */
  safeExportMs: number;
  retentionMs: number;
  /**
   * Consecutive 5xx/429-like answers after which a job fails. Failures without an answer
   * (network, timeout) never count: being offline must never fail a job.
   */
  maxHttpTransientFailures: number;
}

export const DEFAULT_CONTEXT: EngineContext = {
  random: Math.random,
  backoff: DEFAULT_BACKOFF,
  poll: DEFAULT_POLL,
  stuck: DEFAULT_STUCK,
  safeExportMs: RETENTION.safeExportMs,
  retentionMs: RETENTION.defaultMs,
  maxHttpTransientFailures: 10,
};

export const unchanged = (job: JobRecord): Transition => ({ job, effects: [] });

export function to(job: JobRecord, patch: Partial<JobRecord>, now: number, effects: Effect[] = []): Transition {
  return { job: { ...job, ...patch, updatedAt: now }, effects };
}

/** Removes optional keys instead of storing `undefined` (keeps journal lines small and diffs clean). */
export function without<K extends keyof JobRecord>(job: JobRecord, ...keys: K[]): JobRecord {
  const copy = { ...job };
  for (const k of keys) delete copy[k];
  return copy;
}

export function jobErrorOf(f: Failure): JobError {
  const e: JobError = { class: f.class, message: f.message };
  if (f.internalErrorName !== undefined) e.internalErrorName = f.internalErrorName;
  if (f.statusCode !== undefined) e.statusCode = f.statusCode;
  return e;
}

export function fail(job: JobRecord, error: JobError, now: number, effects: Effect[] = []): Transition {
  return to(without(job, 'nextAttemptAt'), { state: 'failed', error }, now, effects);
}

/** No answer at all: the request may or may not have reached the service. */
export const noAnswer = (f: Failure): boolean => f.kind === 'network' || f.kind === 'timeout';

export { isRateLimit, isUsageLimit };

/**
 * A transient failure that has used up its retries. Only answered failures count (see context),
 * and never a rate limit: being asked to slow down is no verdict on the file.
 */
export function exhausted(job: JobRecord, f: Failure, ctx: EngineContext): boolean {
  return !noAnswer(f) && !isRateLimit(f) && job.failures + 1 >= ctx.maxHttpTransientFailures;
}

export function retryAt(job: JobRecord, f: Failure, now: number, ctx: EngineContext): number {
  return now + retryDelay(job.failures + 1, f.retryAfterMs, ctx.backoff, ctx.random);
}

export function parseTime(ts: string | null | undefined): number | undefined {
  if (!ts) return undefined;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? undefined : t;
}

const ERROR_TEXT = /^\[InternalErrorName\.([A-Z0-9_]+)\]\s*(.*)$/s;

/** §5.4: the failing processor's description carries the real cause; the stream's usually does not. */
export function processingError(
  stream: StreamSnapshot | JobRecord['stream'],
  c: ComponentsSnapshot | undefined,
): JobError {
  const closeSignal = /External close signal received/i;
  const errored = (c?.processors ?? []).filter((p) => p.state === 'ERROR');
  const culprit = errored.find((p) => !closeSignal.test(p.stateDescription ?? '')) ?? errored[0];
  const description = culprit?.stateDescription ?? stream?.stateDescription ?? null;
  const err: JobError = { class: 'processing', message: 'Processing failed' };
  if (culprit) err.processorId = culprit.processorId;
  if (description) {
    err.stateDescription = description;
    const m = ERROR_TEXT.exec(description);
    if (m?.[1]) err.internalErrorName = m[1];
    const detail = m?.[2] ?? description;
    err.message = culprit
      ? `Processing failed in ${culprit.processorId}: ${detail}${m?.[1] ? ` [${m[1]}]` : ''}`
      : `Processing failed: ${detail}`;
  }
  return err;
}

export function summarize(c: ComponentsSnapshot): NonNullable<JobRecord['stream']>['components'] {
  return {
    ...(c.gateway ? { gateway: c.gateway.state } : {}),
    processors: c.processors.map((p) => ({
      processorId: p.processorId,
      state: p.state,
      stateDescription: p.stateDescription,
    })),
  };
}

/**
 * Acts on the service's view of our stream. Used after the upload's 200, on every poll, and when
 * re-attaching after a crash, so all three agree on what each stream state means.
 */
export function applyStream(
  job: JobRecord,
  s: StreamSnapshot,
  components: ComponentsSnapshot | undefined,
  now: number,
  ctx: EngineContext,
): Transition {
  const streamRec: NonNullable<JobRecord['stream']> = {
    state: s.state,
    stateDescription: s.stateDescription,
    ...(components
      ? { components: summarize(components) }
      : job.stream?.components
        ? { components: job.stream.components }
        : {}),
  };
  const base = { ...without(job, 'nextAttemptAt'), stream: streamRec, failures: 0 };
  const streamId = s.streamId;
  switch (s.state) {
    case 'READY': {
      const interval = nextPollInterval(
        job.pollIntervalMs,
        ctx.poll,
        now - (job.uploadedAt ?? now),
        job.mediaDurationMs,
      );
      const stuck = job.stuck || (job.stuckAt !== undefined && now >= job.stuckAt);
      return to(base, { state: 'processing', pollIntervalMs: interval, stuck }, now, [
        { type: 'pollLater', streamId, at: now + interval },
      ]);
    }
    case 'COMPLETED': {
      const finalizedAt = parseTime(s.finalizedTimestamp) ?? job.finalizedAt ?? now;
      if (now - finalizedAt > ctx.safeExportMs) {
        return to(base, { state: 'expired', finalizedAt, error: tooLate() }, now);
      }
      return to(base, { state: 'exporting', finalizedAt, stuck: false }, now, [{ type: 'exportNow', streamId }]);
    }
    case 'FAILED': {
      const finalizedAt = parseTime(s.finalizedTimestamp) ?? job.finalizedAt ?? now;
      if (job.canceledByUser) return to(base, { state: 'canceled', finalizedAt }, now);
      if (components) return fail({ ...base, finalizedAt }, processingError(s, components), now);
      // Stay in processing until the components say which processor failed and why.
      return to(base, { state: 'processing', finalizedAt }, now, [{ type: 'readComponents', streamId }]);
    }
    case 'EXPIRED':
      return to(base, { state: 'expired', error: expiredError() }, now);
  }
}

/**
 * The service answered 404 for a stream Sluice started. Past the retention period that is the
 * service deleting it (expired); before, the cause is unknown and the message must not blame the
 * retention.
 */
export function streamGone(
  job: JobRecord,
  streamId: string,
  f: Failure,
  now: number,
  ctx: EngineContext,
): Pick<JobRecord, 'state' | 'error'> {
  const pastRetention = job.finalizedAt !== undefined && now - job.finalizedAt >= ctx.retentionMs;
  if (pastRetention) return { state: 'expired', error: expiredError() };
  return {
    state: 'failed',
    error: {
      ...jobErrorOf(f),
      message: `The service no longer knows stream ${streamId} (${f.message}); process the file again to get its results.`,
    },
  };
}

export const expiredError = (): JobError => ({
  class: 'not-found',
  message: 'The service deleted the results (retention period over); process the file again to get them.',
});

const tooLate = (): JobError => ({
  class: 'state',
  message: 'The results were not exported within the safe retention window; process the file again to get them.',
});
export { tooLate as tooLateError };
