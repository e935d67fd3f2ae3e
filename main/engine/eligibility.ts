// Whether a user action applies to a job, decided here once: the reducer refuses what is not
// eligible, the views show only eligible buttons, and the handlers answer CONFLICT with `refusal`.
import type { StreamState } from '../service/types.js';
import { isTerminal, type JobRecord } from './job.js';

export type JobAction = 'retry' | 'cancel' | 'move' | 'rewrite' | 'reexport' | 'dismiss' | 'rerun' | 'review';

/** Only a job that ended without its results can be queued again. */
export const canRetry = (job: Pick<JobRecord, 'state'>): boolean =>
  job.state === 'failed' || job.state === 'canceled' || job.state === 'expired';

/** Anything not yet finished can be stopped. */
export const canCancel = (job: Pick<JobRecord, 'state'>): boolean => !isTerminal(job.state);

/** Only a job still waiting has a place in the queue to change. */
export const canMove = (job: Pick<JobRecord, 'state'>): boolean => job.state === 'queued';

/**
 * A completed job's results can be written again from the export kept in the state dir ("export
 * all again"), and whatever results it has can be rewritten in other formats.
 */
export const canRewrite = (job: Pick<JobRecord, 'state' | 'results' | 'resultWarning'>): boolean =>
  job.state === 'completed' && (job.results.length > 0 || job.resultWarning !== undefined);

/** Fetching the export again needs the stream, still held by the service. */
export const canReexport = (job: Pick<JobRecord, 'state' | 'streamId' | 'stream'>): boolean =>
  job.state === 'completed' && job.streamId !== undefined && job.stream?.state !== 'EXPIRED';

/** Only a finished job leaves the Queue screen (it stays in the history). */
export const canDismiss = (job: Pick<JobRecord, 'state'>): boolean => isTerminal(job.state);

/** A finished job's file can be processed again as a new job (another template, other parameters). */
export const canRerun = (job: Pick<JobRecord, 'state'>): boolean => isTerminal(job.state);

/** Only a completed job has a transcript to review (and its media to play beside it). */
export const canReview = (job: Pick<JobRecord, 'state'>): boolean => job.state === 'completed';

/**
 * A stream started elsewhere (another machine, the API) has no job of ours: it can be stopped
 * while it runs and its export fetched once it completed; it is never run again from here.
 */
export const canCancelExternal = (state: StreamState): boolean => state === 'READY';
export const canReexportExternal = (state: StreamState): boolean => state === 'COMPLETED';

const RULES: Record<JobAction, { allowed: (job: JobRecord) => boolean; refusal: string }> = {
  retry: { allowed: canRetry, refusal: 'Only a failed, canceled or expired job can be retried.' },
  cancel: { allowed: canCancel, refusal: 'This job has already finished.' },
  move: { allowed: canMove, refusal: 'Only a job still waiting in the queue can be moved.' },
  rewrite: { allowed: canRewrite, refusal: 'Only a completed job can have its results written again.' },
  reexport: {
    allowed: canReexport,
    refusal: 'Only a completed job with a stream at the service can be exported again.',
  },
  dismiss: { allowed: canDismiss, refusal: 'Only a finished job can be dismissed.' },
  rerun: { allowed: canRerun, refusal: 'This job is still running.' },
  review: { allowed: canReview, refusal: 'Only a completed job has a transcript to review.' },
};

/** Why `action` does not apply to `job`, or undefined when it does. */
export function refusal(job: JobRecord, action: JobAction): string | undefined {
  const rule = RULES[action];
  return rule.allowed(job) ? undefined : rule.refusal;
}
