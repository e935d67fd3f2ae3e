// A job's states and the two groups every screen and command asks about: finished (nothing more
// will happen to it) and in progress (past the queue, not finished). Main's engine decides with
// them; the contract, the renderer's filters and the CLI's counts read the same lists.

/**
 * A job's own lifecycle. There is no 'waiting' state: a job backing off is `queued` (or
 * `exporting`) with `nextAttemptAt` in the future, and a paused queue is queue-level state,
 * so the same job can never be both "waiting" and something else.
 */
export const JOB_STATES = [
  'queued',
  'uploading',
  'processing',
  'exporting',
  'completed',
  'failed',
  'canceled',
  'expired',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Finished: nothing more happens to the job unless someone retries or re-runs it. */
export const TERMINAL_STATES: ReadonlySet<JobState> = new Set(['completed', 'failed', 'canceled', 'expired']);
export const isTerminal = (s: JobState): boolean => TERMINAL_STATES.has(s);

/** Past the queue and not finished: uploading, processing at the service, or exporting ("In progress"). */
export const ACTIVE_STATES = ['uploading', 'processing', 'exporting'] as const satisfies readonly JobState[];
