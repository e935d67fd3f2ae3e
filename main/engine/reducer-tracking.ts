// Tracking and delivery: polling the stream, reading why it failed, exporting, and writing the
// results beside the source (§15.3, §15.4).
import type { JobEvent, JobRecord, Transition } from './job.js';
import {
  applyStream,
  exhausted,
  fail,
  jobErrorOf,
  processingError,
  retryAt,
  streamGone,
  summarize,
  to,
  tooLateError,
  unchanged,
  without,
  type EngineContext,
} from './reducer-shared.js';

type Ev<T extends JobEvent['type']> = Extract<JobEvent, { type: T }>;

export function onStreamPolled(job: JobRecord, ev: Ev<'streamPolled'>, now: number, ctx: EngineContext): Transition {
  // 'exporting' accepts a poll too: a 409 on export asks for the stream to be re-read.
  if ((job.state !== 'processing' && job.state !== 'exporting') || ev.stream.streamId !== job.streamId) {
    return unchanged(job);
  }
  if (job.state === 'exporting' && job.stagedResultPath) return unchanged(job);
  return applyStream(job, ev.stream, ev.components, now, ctx);
}

export function onPollFailed(job: JobRecord, ev: Ev<'pollFailed'>, now: number, ctx: EngineContext): Transition {
  if (job.state !== 'processing' || !job.streamId) return unchanged(job);
  const f = ev.error;
  const streamId = job.streamId;
  switch (f.class) {
    case 'credentials':
      // No pollLater: nothing can be read until credentials change; 'resume' restarts polling.
      return to(job, { error: jobErrorOf(f) }, now, [
        { type: 'pauseQueue', reason: 'credentials', message: f.message },
      ]);
    case 'not-found':
      return to(without(job, 'nextAttemptAt'), streamGone(job, streamId, f, now, ctx), now);
    case 'request':
      return fail(job, jobErrorOf(f), now);
    case 'transient':
    case 'state':
    case 'aborted': {
      if (f.class === 'transient' && exhausted(job, f, ctx)) return fail(job, jobErrorOf(f), now);
      const at = retryAt(job, f, now, ctx);
      return to(job, { failures: job.failures + 1, error: jobErrorOf(f) }, now, [{ type: 'pollLater', streamId, at }]);
    }
  }
}

const awaitingComponents = (job: JobRecord): boolean => job.state === 'processing' && job.stream?.state === 'FAILED';

export function onComponentsRead(job: JobRecord, ev: Ev<'componentsRead'>, now: number): Transition {
  if (!awaitingComponents(job)) return unchanged(job);
  const stream = { ...job.stream!, components: summarize(ev.components) };
  return fail({ ...job, stream }, processingError(job.stream, ev.components), now);
}

export function onComponentsReadFailed(job: JobRecord, ev: Ev<'componentsReadFailed'>, now: number): Transition {
  if (!awaitingComponents(job)) return unchanged(job);
  // The stream failed either way; the details are a nicety not worth holding the job for.
  const err = processingError(job.stream, undefined);
  return fail(job, { ...err, message: `${err.message} (details unavailable: ${ev.error.message})` }, now);
}

const exportingNow = (job: JobRecord): boolean => job.state === 'exporting' && !job.stagedResultPath;

export function onExportSucceeded(job: JobRecord, ev: Ev<'exportSucceeded'>, now: number): Transition {
  if (!exportingNow(job)) return unchanged(job);
  const base = {
    ...without(job, 'nextAttemptAt', 'error'),
    failures: 0,
    attempts: { ...job.attempts, export: job.attempts.export + 1 },
  };
  if (ev.stagedPath === null) {
    return to(
      base,
      {
        state: 'completed',
        completedAt: now,
        resultWarning: 'The service returned no data for this stream (nothing to save).',
      },
      now,
    );
  }
  return to(base, { stagedResultPath: ev.stagedPath }, now, [{ type: 'writeResults', stagedPath: ev.stagedPath }]);
}

export function onExportFailed(job: JobRecord, ev: Ev<'exportFailed'>, now: number, ctx: EngineContext): Transition {
  if (!exportingNow(job) || !job.streamId) return unchanged(job);
  const f = ev.error;
  const streamId = job.streamId;
  const attempts = { ...job.attempts, export: job.attempts.export + 1 };
  const deadline = (job.finalizedAt ?? now) + ctx.safeExportMs;
  switch (f.class) {
    case 'credentials':
      return to(job, { attempts, error: jobErrorOf(f) }, now, [
        { type: 'pauseQueue', reason: 'credentials', message: f.message },
      ]);
    case 'not-found':
      // §15.4: an export 404 after the retention window means the stream expired; before it, the
      // service lost it for another reason, and the job says so.
      return to(without(job, 'nextAttemptAt'), { attempts, ...streamGone(job, streamId, f, now, ctx) }, now);
    case 'state':
      // 409: the stream is not what we believed (FAILED, or not finished): re-read it and act on that.
      return to(job, { attempts, error: jobErrorOf(f) }, now, [{ type: 'pollLater', streamId, at: now }]);
    case 'request':
      return fail({ ...job, attempts }, jobErrorOf(f), now);
    case 'transient':
    case 'aborted': {
      if (f.class === 'transient' && exhausted(job, f, ctx)) return fail({ ...job, attempts }, jobErrorOf(f), now);
      const at = retryAt(job, f, now, ctx);
      if (at > deadline)
        return to(without(job, 'nextAttemptAt'), { state: 'expired', attempts, error: tooLateError() }, now);
      return to(job, { attempts, failures: job.failures + 1, nextAttemptAt: at, error: jobErrorOf(f) }, now, [
        { type: 'scheduleRetry', at },
      ]);
    }
  }
}

/** Results are being written from the kept export: the first time, or again after a failed write. */
const writingResults = (job: JobRecord): boolean =>
  job.stagedResultPath !== undefined &&
  (job.state === 'exporting' || (job.state === 'completed' && job.resultWarning !== undefined));

export function onResultsWritten(job: JobRecord, ev: Ev<'resultsWritten'>, now: number): Transition {
  if (!writingResults(job)) return unchanged(job);
  // The record no longer points at the kept export once the results are beside the source; the
  // file itself stays in the state dir, so the results can be written again later.
  const done = without(job, 'stagedResultPath', 'resultWarning', 'error', 'nextAttemptAt');
  return to(done, { state: 'completed', results: ev.results, completedAt: job.completedAt ?? now, failures: 0 }, now);
}

export function onResultsWriteFailed(job: JobRecord, ev: Ev<'resultsWriteFailed'>, now: number): Transition {
  if (!writingResults(job)) return unchanged(job);
  // Processing succeeded; only the delivery did not. The job completes and keeps the export in the
  // state dir so "write results again" needs no new upload.
  const resultWarning = `Results could not be saved: ${ev.message} A copy is kept at ${job.stagedResultPath}; they can be written again.`;
  return to(
    without(job, 'nextAttemptAt'),
    { state: 'completed', completedAt: job.completedAt ?? now, resultWarning },
    now,
  );
}
