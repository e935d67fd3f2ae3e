// The current batch, for "12 of 40 done": every job added since the queue was last empty. A job
// arriving after everything before it finished starts a new batch.
import { isTerminal, type JobRecord, type JobState } from './job.js';

/** A job's state by id; undefined once it is gone from the journal (counted as finished). */
export type StateOf = (id: string) => JobState | undefined;

const finished = (state: JobState | undefined): boolean => state === undefined || isTerminal(state);

/** The batch after `job` was reported: unchanged, grown by it, or a new batch it starts. */
export function batchWith(batch: ReadonlySet<string>, job: JobRecord, stateOf: StateOf): ReadonlySet<string> {
  if (isTerminal(job.state) || batch.has(job.id)) return batch;
  const allDone = [...batch].every((id) => finished(stateOf(id)));
  return new Set([...(allDone ? [] : batch), job.id]);
}

/** How many of the batch's jobs are finished. */
export function batchDone(batch: ReadonlySet<string>, stateOf: StateOf): number {
  let done = 0;
  for (const id of batch) if (finished(stateOf(id))) done += 1;
  return done;
}

/**
 * Whether a pause ends a batch being waited for (`sluice process`): credentials, the spending cap,
 * or an account limit with no end in sight. A person must act before the queue goes on.
 */
export function needsPerson(pause: { reason: string; until?: number }): boolean {
  return (
    pause.until === undefined && pause.reason !== 'user' && pause.reason !== 'offline' && pause.reason !== 'storage'
  );
}
