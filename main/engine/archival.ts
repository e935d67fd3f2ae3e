// When a job leaves the Queue for good: the journal then moves it to the archive (History reads
// it there; an action on it brings it back). Finished and dismissed, or finished a day ago: the
// Queue shows what finished recently, and memory holds no more than that, however long the history.
import { isTerminal, type JobRecord } from './job.js';

export const QUEUE_KEEPS_FINISHED_MS = 24 * 60 * 60 * 1000;

export function isArchivable(job: JobRecord, now: number): boolean {
  if (!isTerminal(job.state)) return false;
  return job.dismissed === true || now - (job.completedAt ?? job.updatedAt) >= QUEUE_KEEPS_FINISHED_MS;
}
