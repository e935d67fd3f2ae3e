// Upload phase: dispatch, progress, the 200, upload failures, and re-attaching to a stream whose
// upload outcome is unknown (§15.2).
import { stuckDeadline } from './backoff.js';
import type { Effect, Failure, JobEvent, JobRecord, StreamSnapshot, Transition } from './job.js';
import {
  applyStream,
  exhausted,
  fail,
  isRateLimit,
  isUsageLimit,
  jobErrorOf,
  retryAt,
  to,
  unchanged,
  without,
  type EngineContext,
} from './reducer-shared.js';
import { onConflict } from './shared-folder.js';

type Ev<T extends JobEvent['type']> = Extract<JobEvent, { type: T }>;

export function onDispatched(job: JobRecord, ev: Ev<'dispatched'>, now: number): Transition {
  if (job.state !== 'queued') return unchanged(job);
  const base = { ...without(job, 'nextAttemptAt', 'error'), startedAt: job.startedAt ?? now };
  if (job.verifyStream && job.streamId) {
    return to(base, { state: 'uploading' }, now, [{ type: 'checkStream', streamId: job.streamId }]);
  }
  // Reuse a stream id the service never created (404 on check, or a refused creation): a new id
  // would leave nothing behind either way, and keeping it makes retries idempotent.
  const streamId = job.streamId ?? ev.freshStreamId;
  return to(
    base,
    {
      state: 'uploading',
      streamId,
      verifyStream: false,
      uploadedBytes: 0,
      attempts: { ...job.attempts, upload: job.attempts.upload + 1 },
    },
    now,
    [{ type: 'startUpload', streamId }],
  );
}

const uploadingNow = (job: JobRecord): boolean => job.state === 'uploading' && !job.verifyStream;

export function onUploadProgress(job: JobRecord, ev: Ev<'uploadProgress'>, now: number): Transition {
  if (!uploadingNow(job)) return unchanged(job);
  const totalBytes = ev.totalBytes ?? job.totalBytes;
  const uploadedBytes = Math.max(0, Math.min(ev.uploadedBytes, totalBytes));
  if (uploadedBytes === job.uploadedBytes && totalBytes === job.totalBytes) return unchanged(job);
  return to(job, { uploadedBytes, totalBytes }, now);
}

function confirmed(job: JobRecord, s: StreamSnapshot, now: number, ctx: EngineContext): Transition {
  const uploadedAt = job.uploadedAt ?? now;
  const accepted: JobRecord = {
    ...without(job, 'error', 'pollIntervalMs'),
    uploadConfirmed: true,
    verifyStream: false,
    uploadedAt,
    uploadedBytes: job.totalBytes,
    stuckAt: stuckDeadline(uploadedAt, job.mediaDurationMs, ctx.stuck),
  };
  return applyStream(accepted, s, undefined, now, ctx);
}

export function onUploadSucceeded(
  job: JobRecord,
  ev: Ev<'uploadSucceeded'>,
  now: number,
  ctx: EngineContext,
): Transition {
  if (!uploadingNow(job) || ev.stream.streamId !== job.streamId) return unchanged(job);
  return confirmed(job, ev.stream, now, ctx);
}

/**
 * Only a creation the service itself refused (an ErrorResponse it sent, 4xx or 503) proves the
 * stream does not exist. Anything else (no answer, a proxy's 502, a 500 mid-body) may have left a
 * partial stream behind, so the id is checked before the next move. A rate limit's 429 is a
 * refusal too, whoever sent it (a gateway's has no ErrorResponse): it is answered instead of the
 * request, never after it was carried out. Checking the id after one cost a request per retry, and
 * a service refusing every second request then refused every upload (lookup, upload, lookup, ...).
 */
function creationRefused(f: Failure): boolean {
  if (f.kind === 'http' && isRateLimit(f)) return true;
  if (f.kind !== 'http' || f.internalErrorName === undefined) return false;
  const s = f.statusCode ?? 0;
  return (s >= 400 && s < 500) || s === 503;
}

/** Back to the queue with a retry time; the scheduler will not pick it before `at`. */
function requeue(
  job: JobRecord,
  f: Failure,
  at: number,
  now: number,
  verify: boolean,
  extra: Effect[] = [],
): Transition {
  return to(
    job,
    { state: 'queued', nextAttemptAt: at, failures: job.failures + 1, error: jobErrorOf(f), verifyStream: verify },
    now,
    [...extra, { type: 'scheduleRetry', at }],
  );
}

/** Credentials and the account limit stop the whole queue; the job waits, it is not at fault. */
function pauseFor(job: JobRecord, f: Failure, now: number, ctx: EngineContext, verify: boolean): Transition | null {
  if (f.class === 'credentials') {
    return to(without(job, 'nextAttemptAt'), { state: 'queued', error: jobErrorOf(f), verifyStream: verify }, now, [
      { type: 'pauseQueue', reason: 'credentials', message: f.message },
    ]);
  }
  if (f.class === 'transient' && isUsageLimit(f)) {
    const at = retryAt(job, f, now, ctx);
    return requeue(job, f, at, now, verify, [
      { type: 'pauseQueue', reason: 'usage-limit', message: f.message, until: at },
    ]);
  }
  return null;
}

export function onUploadFailed(job: JobRecord, ev: Ev<'uploadFailed'>, now: number, ctx: EngineContext): Transition {
  if (!uploadingNow(job)) return unchanged(job);
  const f = ev.error;
  const verify = !creationRefused(f);
  const paused = pauseFor(job, f, now, ctx, verify);
  if (paused) return paused;
  switch (f.class) {
    case 'transient':
      if (exhausted(job, f, ctx)) return fail(job, jobErrorOf(f), now);
      return requeue(job, f, retryAt(job, f, now, ctx), now, verify);
    case 'state':
      // 409 on upload: the id is taken, perhaps by our own earlier attempt. Look before acting.
      // A shared file's id may be taken by another computer: the stream then decides (onConflict).
      return to(
        job,
        { verifyStream: true, error: jobErrorOf(f), ...(job.shared ? { sharedConflict: true } : {}) },
        now,
        [{ type: 'checkStream', streamId: job.streamId ?? '' }],
      );
    case 'aborted':
      // Not a user cancel (that path leaves 'uploading' first): shutdown or a stall; outcome unknown.
      return to(without(job, 'nextAttemptAt'), { state: 'queued', verifyStream: true }, now);
    case 'request':
    case 'not-found':
    case 'credentials':
      return fail(job, jobErrorOf(f), now);
  }
}

export function onReattachResult(
  job: JobRecord,
  ev: Ev<'reattachResult'>,
  now: number,
  ctx: EngineContext,
): Transition {
  if (job.state !== 'uploading' || !job.verifyStream || !job.streamId) return unchanged(job);
  const streamId = job.streamId;
  if (!ev.found) {
    // Never created, and the source is still being copied: the same id waits for the finished file.
    if (job.awaitingCopy) return to(job, { state: 'queued', verifyStream: false, uploadedBytes: 0 }, now);
    // Never created: upload again under the same id. A lookup that answered is no upload that
    // did: the count of refused uploads goes on, so a rate limit's backoff keeps growing.
    return to(
      job,
      {
        verifyStream: false,
        failures: job.error?.statusCode === 429 ? job.failures : 0,
        uploadedBytes: 0,
        attempts: { ...job.attempts, upload: job.attempts.upload + 1 },
      },
      now,
      [{ type: 'startUpload', streamId }],
    );
  }
  if (ev.stream.streamId !== streamId) return unchanged(job);
  if (job.sharedConflict) return settleConflict(job, ev.stream, now, ctx);
  if (job.uploadConfirmed) return confirmed(job, ev.stream, now, ctx);
  return settleUnconfirmed(job, ev.stream, ev.ingressBytes, now, ctx);
}

/**
 * Note: one file, one bill. A stream whose upload was cut short without a recorded 200 (crash,
 * reset, abort) may still be receiving the rest of the file: through a buffering proxy, or from
 * socket buffers the kernel flushes after the process died. Uploading again while it can still
 * complete would process and bill the file twice. So:
 * - it is adopted when the service proves it has the whole file: every byte counted (usage
 *   ingress = file size) and not FAILED, or COMPLETED (unless the count says it got less);
 * - while it is READY it is canceled, and the cancel is repeated with backoff (re-reading the
 *   stream before each attempt) until the service says the stream finished; only then, if it
 *   FAILED or EXPIRED, is the file uploaded again under a new id (this one stays taken).
 * The job stays `uploading` (or `queued` between attempts) with `verifyStream`, so it holds its
 * upload slot and a restart picks up the same loop from the journal.
 */
function settleUnconfirmed(
  job: JobRecord,
  s: StreamSnapshot,
  ingressBytes: number | undefined,
  now: number,
  ctx: EngineContext,
): Transition {
  const streamId = s.streamId;
  const wholeFile = ingressBytes !== undefined && ingressBytes === job.totalBytes && job.totalBytes > 0;
  const short = ingressBytes !== undefined && ingressBytes < job.totalBytes;
  if (wholeFile && s.state !== 'FAILED') return confirmed(job, s, now, ctx);
  if (s.state === 'COMPLETED' && !short) return confirmed(job, s, now, ctx);
  if (s.state === 'READY') {
    return to(job, { state: 'uploading', verifyStream: true }, now, [{ type: 'cancelStream', streamId }]);
  }
  return abandon(job, streamId, now);
}

/**
 * A shared file's upload was refused as a reused id: another computer (or our own earlier run) has
 * that stream. Running → wait and look again, never cancel it (it is someone's live work);
 * completed → take its results; ended without → the next attempt's id, the same on every computer.
 */
function settleConflict(job: JobRecord, s: StreamSnapshot, now: number, ctx: EngineContext): Transition {
  const cleared = without(job, 'sharedConflict');
  switch (onConflict(s.state)) {
    case 'adopt':
      return confirmed(cleared, s, now, ctx);
    case 'back-off': {
      const f: Failure = { class: 'state', message: 'Another computer is processing this file; waiting for it.' };
      return requeue(job, f, retryAt(job, f, now, ctx), now, true);
    }
    case 'next-attempt':
      return nextSharedAttempt(without(cleared, 'streamId', 'stream', 'nextAttemptAt'), now);
  }
}

function nextSharedAttempt(job: JobRecord, now: number): Transition {
  return to(
    job,
    {
      state: 'queued',
      verifyStream: false,
      failures: 0,
      uploadedBytes: 0,
      ...(job.shared ? { shared: { ...job.shared, attempt: job.shared.attempt + 1 } } : {}),
    },
    now,
    [{ type: 'scheduleRetry', at: now }],
  );
}

/** The stream finished without the whole file: upload again under a new id (this one stays taken). */
function abandon(job: JobRecord, streamId: string, now: number): Transition {
  const next = without(job, 'streamId', 'stream', 'nextAttemptAt');
  return to(
    next,
    {
      state: 'queued',
      verifyStream: false,
      failures: 0,
      uploadedBytes: 0,
      previousStreamIds: [...job.previousStreamIds, streamId],
      // A shared file's next id is its next attempt's (the queue derives it from `shared`).
      ...(job.shared ? { shared: { ...job.shared, attempt: job.shared.attempt + 1 } } : {}),
    },
    now,
    [{ type: 'scheduleRetry', at: now }],
  );
}

/**
 * Pause stops the transfer now rather than after it: the request is aborted and the stream it was
 * filling canceled while READY. The job waits on that cancel as after an unconfirmed upload
 * (verifyStream): a stream that failed or is gone is abandoned and the file queued again under a
 * new id (abandon); one that completed meanwhile is taken as done (never billed twice).
 */
export function onUploadInterrupted(job: JobRecord, now: number): Transition {
  if (!uploadingNow(job) || !job.streamId) return unchanged(job);
  const streamId = job.streamId;
  return to(without(job, 'nextAttemptAt'), { verifyStream: true, uploadedBytes: 0 }, now, [
    { type: 'abortUpload', streamId },
    { type: 'cancelStream', streamId },
  ]);
}

/** Waiting for the service to confirm the cancel of a stream that may still hold the file. */
const cancelingUnconfirmed = (job: JobRecord): boolean =>
  job.state === 'uploading' && job.verifyStream && !job.uploadConfirmed && job.streamId !== undefined;

export function onCancelAnswered(
  job: JobRecord,
  ev: Ev<'cancelAnswered'>,
  now: number,
  ctx: EngineContext,
): Transition {
  if (!cancelingUnconfirmed(job) || ev.stream.streamId !== job.streamId) return unchanged(job);
  if (ev.stream.state === 'READY') {
    // Accepted but not finished yet: look again later, cancel again if it still runs.
    const f: Failure = { class: 'state', message: 'The canceled stream has not finished yet.' };
    return requeue(job, f, retryAt(job, f, now, ctx), now, true);
  }
  return settleUnconfirmed(job, ev.stream, undefined, now, ctx);
}

export function onCancelFailed(job: JobRecord, ev: Ev<'cancelFailed'>, now: number, ctx: EngineContext): Transition {
  if (!cancelingUnconfirmed(job)) return unchanged(job);
  const f = ev.error;
  const streamId = job.streamId ?? '';
  const paused = pauseFor(job, f, now, ctx, true);
  if (paused) return paused;
  switch (f.class) {
    case 'state':
      // 409: it finished meanwhile (completed, or failed): read it and act on what it became.
      return to(job, { error: jobErrorOf(f) }, now, [{ type: 'checkStream', streamId }]);
    case 'not-found':
      // The service has no such stream any more: nothing left that could be billed.
      return abandon(job, streamId, now);
    default:
      // Refused or unanswered: the stream may still complete. Never give up, never upload meanwhile.
      return requeue(job, f, retryAt(job, f, now, ctx), now, true);
  }
}

export function onReattachFailed(
  job: JobRecord,
  ev: Ev<'reattachFailed'>,
  now: number,
  ctx: EngineContext,
): Transition {
  if (job.state !== 'uploading' || !job.verifyStream) return unchanged(job);
  const f = ev.error;
  const paused = pauseFor(job, f, now, ctx, true);
  if (paused) return paused;
  if (f.class === 'transient' || f.class === 'aborted' || f.class === 'state') {
    if (f.class === 'transient' && exhausted(job, f, ctx)) return fail(job, jobErrorOf(f), now);
    return requeue(job, f, retryAt(job, f, now, ctx), now, true);
  }
  return fail(job, jobErrorOf(f), now);
}
