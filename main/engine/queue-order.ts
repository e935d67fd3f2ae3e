// The order the Queue screen shows, decided once: files in flight first, then the waiting ones in
// the order they will start (the scheduler's order), then finished ones, newest first. Main sorts
// its snapshot by it and every JobView carries it as `position`, so the renderer sorts by a number
// instead of re-deriving the rule.
import { isTerminal, type JobRecord } from './job.js';
import { compareJobs } from './scheduler.js';

type Ordered = Pick<JobRecord, 'state' | 'priority' | 'seq' | 'completedAt' | 'updatedAt'>;

/** 0 in flight, 1 waiting, 2 finished. */
export function queueRank(job: Pick<JobRecord, 'state'>): 0 | 1 | 2 {
  if (isTerminal(job.state)) return 2;
  return job.state === 'queued' ? 1 : 0;
}

const finishedAt = (job: Ordered): number => job.completedAt ?? job.updatedAt;

// Ordering keys stay far below these spans: priority is 0 or 1 (moves copy a neighbour's), seq is
// an arrival count, and times are milliseconds since 1970 (below 1e13 until the year 2286).
const RANK_SPAN = 1e13;
const PRIORITY_SPAN = 1e12;

/** A number whose ascending order is the queue order (what `JobView.position` carries). */
export function queuePosition(job: Ordered): number {
  const rank = queueRank(job);
  if (rank === 2) return 2 * RANK_SPAN + (RANK_SPAN - finishedAt(job));
  return rank * RANK_SPAN + job.priority * PRIORITY_SPAN + job.seq;
}

/** The queue order over whole records (ties broken as the scheduler breaks them). */
export function compareQueueOrder(a: JobRecord, b: JobRecord): number {
  const ra = queueRank(a);
  const rb = queueRank(b);
  if (ra !== rb) return ra - rb;
  return ra === 2 ? finishedAt(b) - finishedAt(a) : compareJobs(a, b);
}
