// The job state machine: next(job, event, now) → { job, effects }. Pure: the caller persists the
// returned job BEFORE carrying out the effects (write before you act), and reports outcomes back as
// events. An event that makes no sense in the job's state returns the job unchanged with no effects.
import { isTerminal, type Effect, type JobEvent, type JobRecord, type Transition } from './job.js';
import { canCancel, canRetry } from './eligibility.js';
import {
  onCancelAnswered,
  onCancelFailed,
  onDispatched,
  onReattachFailed,
  onReattachResult,
  onUploadFailed,
  onUploadInterrupted,
  onUploadProgress,
  onUploadSucceeded,
} from './reducer-upload.js';
import {
  onComponentsRead,
  onComponentsReadFailed,
  onExportFailed,
  onExportSucceeded,
  onPollFailed,
  onResultsWriteFailed,
  onResultsWritten,
  onStreamPolled,
} from './reducer-tracking.js';
import {
  DEFAULT_CONTEXT,
  expiredError,
  to,
  tooLateError,
  unchanged,
  without,
  type EngineContext,
} from './reducer-shared.js';
import { onDismissRequested, onReordered, onResultsRewritten, onSourceMoved } from './reducer-user.js';
import { onSourceAway, onSourceChanged, onSourceSettled } from './reducer-source.js';
import type { SharedIdentity } from './shared-folder.js';

export { DEFAULT_CONTEXT, type EngineContext } from './reducer-shared.js';

export function next(job: JobRecord, event: JobEvent, now: number, ctx: EngineContext = DEFAULT_CONTEXT): Transition {
  switch (event.type) {
    case 'dispatched':
      return onDispatched(job, event, now);
    case 'uploadProgress':
      return onUploadProgress(job, event, now);
    case 'uploadSucceeded':
      return onUploadSucceeded(job, event, now, ctx);
    case 'uploadFailed':
      return onUploadFailed(job, event, now, ctx);
    case 'reattachResult':
      return onReattachResult(job, event, now, ctx);
    case 'reattachFailed':
      return onReattachFailed(job, event, now, ctx);
    case 'cancelAnswered':
      return onCancelAnswered(job, event, now, ctx);
    case 'cancelFailed':
      return onCancelFailed(job, event, now, ctx);
    case 'streamPolled':
      return onStreamPolled(job, event, now, ctx);
    case 'pollFailed':
      return onPollFailed(job, event, now, ctx);
    case 'componentsRead':
      return onComponentsRead(job, event, now);
    case 'componentsReadFailed':
      return onComponentsReadFailed(job, event, now);
    case 'exportSucceeded':
      return onExportSucceeded(job, event, now);
    case 'exportFailed':
      return onExportFailed(job, event, now, ctx);
    case 'resultsWritten':
      return onResultsWritten(job, event, now);
    case 'resultsWriteFailed':
      return onResultsWriteFailed(job, event, now);
    case 'cancelRequested':
      return onCancel(job, now);
    case 'uploadInterrupted':
      return onUploadInterrupted(job, now);
    case 'retryRequested':
      return onRetry(job, now, event.claim);
    case 'expiredDetected':
      // Once the export is staged locally, the service's copy no longer matters.
      return job.state === 'processing' || (job.state === 'exporting' && !job.stagedResultPath)
        ? to(without(job, 'nextAttemptAt'), { state: 'expired', error: expiredError() }, now)
        : unchanged(job);
    case 'networkDown':
      return onNetworkDown(job, event.retryAt, now);
    case 'reordered':
      return onReordered(job, event, now);
    case 'dismissRequested':
      return onDismissRequested(job, now);
    case 'resultsRewritten':
      return onResultsRewritten(job, event, now);
    case 'sourceMoved':
      return onSourceMoved(job, event, now);
    case 'sourceChanged':
      return onSourceChanged(job, event, now);
    case 'sourceAway':
      return onSourceAway(job, now);
    case 'sourceSettled':
      return onSourceSettled(job, event, now);
    case 'resultsSuperseded':
      return isTerminal(job.state) ? to(job, { results: event.results }, now) : unchanged(job);
    case 'reviewNoted':
      // Said as results are written: the first delivery (exporting) or a rewrite (completed).
      return job.state === 'exporting' || job.state === 'completed'
        ? to(job, { review: event.review }, now)
        : unchanged(job);
    case 'handedOver':
      return onHandedOver(job, event.host, now);
    case 'resume':
      return onResume(job, now, ctx);
  }
}

/**
 * Shared folder: another computer owns the file now (it took the stale claim over, or wrote its
 * results). This job stops without touching the stream: under a shared id it may be the other
 * computer's live work, so it is not canceled.
 */
function onHandedOver(job: JobRecord, host: string | undefined, now: number): Transition {
  if (isTerminal(job.state) || !job.shared) return unchanged(job);
  if (job.state === 'exporting' && job.stagedResultPath) return unchanged(job);
  // Our own transfer, if one runs, stops; the stream is left alone.
  const effects: Effect[] =
    job.state === 'uploading' && !job.verifyStream && job.streamId
      ? [{ type: 'abortUpload', streamId: job.streamId }]
      : [];
  return to(
    without(job, 'nextAttemptAt', 'sharedConflict'),
    {
      state: 'canceled',
      canceledByUser: false,
      error: { class: 'state', message: `Processed on ${host ?? 'another computer'}, which took the file over.` },
      // History names the computer that processed the file: the one that took it over, when known.
      ...(host ? { processedBy: host } : {}),
    },
    now,
    effects,
  );
}

function onCancel(job: JobRecord, now: number): Transition {
  if (!canCancel(job)) return unchanged(job);
  const effects: Effect[] = [];
  const id = job.streamId;
  if (id) {
    // §15.2: abort the request, then cancel. A queued job whose stream might exist (outcome
    // unknown) gets a cancel too; a 404 there is harmless.
    if (job.state === 'uploading' && !job.verifyStream) effects.push({ type: 'abortUpload', streamId: id });
    const mayRun =
      job.state === 'uploading' || job.state === 'processing' || (job.state === 'queued' && job.verifyStream);
    if (mayRun) effects.push({ type: 'cancelStream', streamId: id });
  }
  return to(without(job, 'nextAttemptAt'), { state: 'canceled', canceledByUser: true }, now, effects);
}

function onRetry(job: JobRecord, now: number, claim?: { token: string; attempt: number }): Transition {
  if (!canRetry(job)) return unchanged(job);
  const previous =
    job.streamId && !job.previousStreamIds.includes(job.streamId)
      ? [...job.previousStreamIds, job.streamId]
      : job.previousStreamIds;
  const fresh = without(
    job,
    'streamId',
    'stream',
    'error',
    'nextAttemptAt',
    'pollIntervalMs',
    'stuckAt',
    'uploadedAt',
    'finalizedAt',
    'completedAt',
    'startedAt',
    'stagedResultPath',
    'resultWarning',
    'sharedConflict',
  );
  // Template and params stay as they were: a retry repeats the original request.
  return to(
    fresh,
    {
      state: 'queued',
      previousStreamIds: previous,
      verifyStream: false,
      uploadConfirmed: false,
      uploadedBytes: 0,
      failures: 0,
      attempts: { upload: 0, export: 0 },
      stuck: false,
      canceledByUser: false,
      results: [],
      // The old id stays taken at the service: a shared file asks under its next attempt's id.
      ...(job.shared ? { shared: retriedShared(job.shared, claim) } : {}),
    },
    now,
    [{ type: 'scheduleRetry', at: now }],
  );
}

/** The next attempt's identity; with the claim taken again, its token (and a later attempt, if the claim had one). */
function retriedShared(shared: SharedIdentity, claim?: { token: string; attempt: number }): SharedIdentity {
  const attempt = Math.max(shared.attempt + 1, claim?.attempt ?? 0);
  return claim ? { ...shared, attempt, token: claim.token } : { ...shared, attempt };
}

/** Postpones the job's next network action; never changes its state (offline must not fail a job). */
function onNetworkDown(job: JobRecord, retryAt: number, now: number): Transition {
  const at = Math.max(retryAt, now);
  switch (job.state) {
    case 'queued':
      return to(job, { nextAttemptAt: Math.max(at, job.nextAttemptAt ?? 0) }, now, [{ type: 'scheduleRetry', at }]);
    case 'processing':
      return job.streamId ? { job, effects: [{ type: 'pollLater', streamId: job.streamId, at }] } : unchanged(job);
    case 'exporting':
      return job.stagedResultPath
        ? unchanged(job)
        : to(job, { nextAttemptAt: at }, now, [{ type: 'scheduleRetry', at }]);
    default:
      // uploading: the transfer reports its own failure; terminal jobs have nothing to do.
      return unchanged(job);
  }
}

/** Re-derives the next action from the record alone: after a restart, a queue resume, or a wake-up. */
function onResume(job: JobRecord, now: number, ctx: EngineContext): Transition {
  switch (job.state) {
    case 'queued':
      return unchanged(job);
    case 'uploading':
      // The transfer died with the process. Without a recorded 200 the outcome is unknown, so the
      // id is read before anything else; with no id nothing was sent.
      return to(
        without(job, 'nextAttemptAt'),
        { state: 'queued', verifyStream: job.streamId !== undefined, uploadedBytes: 0 },
        now,
      );
    case 'processing': {
      if (!job.streamId) return unchanged(job);
      const streamId = job.streamId;
      if (job.stream?.state === 'FAILED') return { job, effects: [{ type: 'readComponents', streamId }] };
      return { job, effects: [{ type: 'pollLater', streamId, at: now }] };
    }
    case 'exporting': {
      if (job.stagedResultPath) return { job, effects: [{ type: 'writeResults', stagedPath: job.stagedResultPath }] };
      if (!job.streamId) return unchanged(job);
      if (job.nextAttemptAt !== undefined && job.nextAttemptAt > now) {
        return { job, effects: [{ type: 'scheduleRetry', at: job.nextAttemptAt }] };
      }
      if (job.finalizedAt !== undefined && now - job.finalizedAt > ctx.safeExportMs) {
        return to(without(job, 'nextAttemptAt'), { state: 'expired', error: tooLateError() }, now);
      }
      return to(without(job, 'nextAttemptAt'), {}, now, [{ type: 'exportNow', streamId: job.streamId }]);
    }
    default:
      return unchanged(job);
  }
}
