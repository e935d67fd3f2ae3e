// A source that changes after it was taken: a copy that stalled past the settle time and then went
// on, in a format whose container cannot tell a cut copy from a whole one. Not a failure: the job
// waits for the finished file and takes it once.
//
// Note: one file, one bill. An upload already under way is aborted and its stream canceled (it is
// still READY: the service has not been sent the whole file), through the same verify-and-cancel
// loop as any upload whose outcome is unknown (reducer-upload.ts, settleUnconfirmed): the finished
// file goes up under a new stream id only once the service says the old stream ended. A source that
// changes after its upload was confirmed is new content, and the intake makes it a new job.
import type { FileIdentity } from './file-identity.js';
import type { Effect, JobEvent, JobRecord, Transition } from './job.js';
import { to, unchanged, without } from './reducer-shared.js';

type Ev<T extends JobEvent['type']> = Extract<JobEvent, { type: T }>;

/** Whether a change to the source is this job's to absorb: taken, but not yet sent whole. */
export function absorbsSourceChange(job: JobRecord): boolean {
  return (job.state === 'queued' || job.state === 'uploading') && !job.uploadConfirmed;
}

export function onSourceChanged(job: JobRecord, ev: Ev<'sourceChanged'>, now: number): Transition {
  if (!absorbsSourceChange(job)) return unchanged(job);
  return hold(job, ev.uploadStarted, now, { awaitingCopy: true });
}

/**
 * The source's watch folder is not there (a share that went away): an upload that had not begun
 * goes back to the queue, its stream id kept; the runner starts nothing of that folder until it
 * returns (reliability-2026-12, defect 1).
 */
export function onSourceAway(job: JobRecord, now: number): Transition {
  if (job.state !== 'uploading' || job.verifyStream) return unchanged(job);
  return to(without(job, 'nextAttemptAt'), { state: 'queued', uploadedBytes: 0 }, now);
}

export function onSourceSettled(job: JobRecord, ev: Ev<'sourceSettled'>, now: number): Transition {
  if (!absorbsSourceChange(job)) return unchanged(job);
  const source: FileIdentity = ev.source;
  const fresh = { ...without(job, 'awaitingCopy', 'error'), source, totalBytes: source.size, uploadedBytes: 0 };
  // An upload of the old bytes still running: stop it first, as for a change.
  if (job.state === 'uploading' && !job.verifyStream) return hold(fresh, true, now, {});
  if (job.state === 'queued') return to(fresh, {}, now, [{ type: 'scheduleRetry', at: now }]);
  return to(fresh, {}, now);
}

/** Stops what runs on the old bytes: nothing, or the upload and its stream. */
function hold(job: JobRecord, uploadStarted: boolean, now: number, patch: Partial<JobRecord>): Transition {
  const streamId = job.streamId;
  if (job.state === 'uploading' && !job.verifyStream && uploadStarted && streamId) {
    const effects: Effect[] = [
      { type: 'abortUpload', streamId },
      { type: 'cancelStream', streamId },
    ];
    return to(without(job, 'nextAttemptAt'), { ...patch, verifyStream: true }, now, effects);
  }
  if (job.state === 'uploading' && !job.verifyStream) {
    // Nothing was sent: back to the queue, the stream id (never created) kept for the next try.
    return to(without(job, 'nextAttemptAt'), { ...patch, state: 'queued', uploadedBytes: 0 }, now);
  }
  return to(job, patch, now);
}
