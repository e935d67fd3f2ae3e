// Which queued jobs start now. Pure ordering over the job list; the runtime calls it whenever a
// slot frees up, a job is added, a retry comes due or a pause ends.
import { canMove } from './eligibility.js';
import type { JobRecord } from './job.js';

export interface SchedulerLimits {
  /** Simultaneous uploads (default 2). */
  uploadConcurrency: number;
  /** Streams the account holds READY at once: uploading + processing (the service has a ceiling). */
  maxStreamsInFlight: number;
}

export const DEFAULT_LIMITS: SchedulerLimits = { uploadConcurrency: 2, maxStreamsInFlight: 50 };

export interface SchedulerInput {
  jobs: Iterable<JobRecord>;
  now: number;
  limits?: SchedulerLimits;
  /** Global pause: true, or paused until a time (usage limit with Retry-After). */
  paused?: boolean | { until: number };
  pausedFolders?: ReadonlySet<string>;
  /**
   * What the caller keeps as jobs change (adapters/queue/active-jobs.ts): the slots in use and the
   * queued jobs in queue order. The plan then reads the queue from its head only as far as the
   * jobs it starts, where without them it walks every job: a large intake calls this for each
   * batch of files added, and a queue of 100,000 made that most of a folder's first look. With
   * them, `jobs` is not read.
   */
  counted?: { used: SlotsUsed; queuedInOrder: Iterable<JobRecord> };
}

export interface SlotsUsed {
  /** Jobs uploading. */
  uploading: number;
  /** Jobs holding a stream at the service: uploading or processing. */
  inFlight: number;
}

/** A job takes an upload slot while uploading. */
export const takesUploadSlot = (job: JobRecord): boolean => job.state === 'uploading';

/** A job holds one of the account's streams from its upload until it is processed. */
export const holdsStream = (job: JobRecord): boolean => job.state === 'uploading' || job.state === 'processing';

/** Manual jobs first, then arrival order; an explicit move changes priority/seq, never this rule. */
export function compareJobs(a: JobRecord, b: JobRecord): number {
  return a.priority - b.priority || a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function isPaused(paused: SchedulerInput['paused'], now: number): boolean {
  if (paused === undefined || paused === false) return false;
  if (paused === true) return true;
  return now < paused.until;
}

function isEligible(job: JobRecord, now: number, pausedFolders?: ReadonlySet<string>): boolean {
  // A job waiting for its copy to finish may still cancel a stream of the old bytes, not upload.
  if (job.state !== 'queued' || (job.awaitingCopy && !job.verifyStream)) return false;
  if (job.nextAttemptAt !== undefined && job.nextAttemptAt > now) return false;
  if (job.origin.kind === 'watch' && pausedFolders?.has(job.origin.folderId)) return false;
  return true;
}

export interface DispatchPlan {
  /** The jobs to dispatch now, in order. */
  start: JobRecord[];
  /** Eligible jobs wait because every stream slot is taken: a finished stream frees one. */
  waitingForStream: boolean;
}

/**
 * What to dispatch now (nothing when paused or no slot is free), in one pass over the jobs. It runs
 * on every queue change, so it keeps only the few jobs it may start: with 100,000 jobs queued a
 * list of every eligible one per call was most of what a large intake allocated.
 */
export function planDispatch(input: SchedulerInput): DispatchPlan {
  const limits = input.limits ?? DEFAULT_LIMITS;
  if (isPaused(input.paused, input.now)) return { start: [], waitingForStream: false };
  if (input.counted) return planFromHead(input.counted.used, input.counted.queuedInOrder, input, limits);
  let uploading = 0;
  let inFlight = 0;
  let anyEligible = false;
  // The slots are known only after the pass: keep the best `most` candidates, trim at the end.
  const most = Math.max(0, Math.min(limits.uploadConcurrency, limits.maxStreamsInFlight));
  const best: JobRecord[] = [];
  for (const job of input.jobs) {
    if (takesUploadSlot(job)) uploading++;
    if (holdsStream(job)) inFlight++;
    if (isEligible(job, input.now, input.pausedFolders)) {
      anyEligible = true;
      keepFirst(best, job, most);
    }
  }
  const free = freeSlots(limits, { uploading, inFlight });
  return {
    start: free <= 0 ? [] : best.slice(0, free),
    waitingForStream: inFlight >= limits.maxStreamsInFlight && anyEligible,
  };
}

function freeSlots(limits: SchedulerLimits, used: SlotsUsed): number {
  return Math.min(limits.uploadConcurrency - used.uploading, limits.maxStreamsInFlight - used.inFlight);
}

/** The same plan from the slots in use and the queued jobs in queue order. */
function planFromHead(
  used: SlotsUsed,
  queuedInOrder: Iterable<JobRecord>,
  input: SchedulerInput,
  limits: SchedulerLimits,
): DispatchPlan {
  const free = freeSlots(limits, used);
  const start: JobRecord[] = [];
  let anyEligible = false;
  for (const job of queuedInOrder) {
    if (!isEligible(job, input.now, input.pausedFolders)) continue;
    anyEligible = true;
    if (start.length >= free) break;
    start.push(job);
  }
  return { start, waitingForStream: used.inFlight >= limits.maxStreamsInFlight && anyEligible };
}

/** Keeps `best` the first `k` jobs seen so far in queue order, without sorting them all. */
function keepFirst(best: JobRecord[], job: JobRecord, k: number): void {
  if (k <= 0) return;
  if (best.length < k) best.push(job);
  else if (compareJobs(job, best[k - 1]!) < 0) best[k - 1] = job;
  else return;
  for (let i = best.length - 1; i > 0 && compareJobs(best[i]!, best[i - 1]!) < 0; i--) {
    [best[i - 1], best[i]] = [best[i]!, best[i - 1]!];
  }
}

export type MoveDirection = 'up' | 'down' | 'top' | 'bottom';

/** The new ordering keys of the jobs a move changes. */
export interface Reorder {
  id: string;
  priority: number;
  seq: number;
}

/**
 * Explicit move among queued jobs. Up and down swap ordering keys with the neighbour in queue
 * order, so a watch job can be moved above a manual one; top and bottom take keys just before the
 * first or after the last. Returns only the keys that change; the reducer records them.
 */
export function move(jobs: Iterable<JobRecord>, id: string, direction: MoveDirection): Reorder[] {
  const queued = [...jobs].filter(canMove).sort(compareJobs);
  const i = queued.findIndex((j) => j.id === id);
  const a = queued[i];
  if (i < 0 || !a) return [];
  if (direction === 'top' || direction === 'bottom') {
    const edge = direction === 'top' ? queued[0] : queued[queued.length - 1];
    if (!edge || edge === a) return [];
    return [{ id: a.id, priority: edge.priority, seq: edge.seq + (direction === 'top' ? -1 : 1) }];
  }
  const b = queued[direction === 'up' ? i - 1 : i + 1];
  if (!b) return [];
  if (a.priority === b.priority && a.seq === b.seq) {
    // Equal keys (ties broken by id): open a gap instead of swapping equal values.
    return [{ id: a.id, priority: a.priority, seq: a.seq + (direction === 'up' ? -1 : 1) }];
  }
  return [
    { id: a.id, priority: b.priority, seq: b.seq },
    { id: b.id, priority: a.priority, seq: a.seq },
  ];
}
