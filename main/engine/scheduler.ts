// Which queued jobs start now. Pure ordering over the job list; the runtime calls it whenever a
// slot frees up, a job is added, a retry comes due or a pause ends.
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
}

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
  if (job.state !== 'queued') return false;
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

/** What to dispatch now (nothing when paused or no slot is free), in one pass over the jobs. */
export function planDispatch(input: SchedulerInput): DispatchPlan {
  const limits = input.limits ?? DEFAULT_LIMITS;
  if (isPaused(input.paused, input.now)) return { start: [], waitingForStream: false };
  let uploading = 0;
  let inFlight = 0;
  const eligible: JobRecord[] = [];
  for (const job of input.jobs) {
    if (job.state === 'uploading') uploading++;
    if (job.state === 'uploading' || job.state === 'processing') inFlight++;
    if (isEligible(job, input.now, input.pausedFolders)) eligible.push(job);
  }
  const free = Math.min(limits.uploadConcurrency - uploading, limits.maxStreamsInFlight - inFlight);
  return {
    start: free <= 0 ? [] : firstInOrder(eligible, free),
    waitingForStream: inFlight >= limits.maxStreamsInFlight && eligible.length > 0,
  };
}

/** The first `k` jobs in queue order, without sorting them all: a few slots, many queued jobs. */
function firstInOrder(jobs: readonly JobRecord[], k: number): JobRecord[] {
  const best: JobRecord[] = [];
  for (const job of jobs) {
    if (best.length < k) best.push(job);
    else if (compareJobs(job, best[k - 1]!) < 0) best[k - 1] = job;
    else continue;
    for (let i = best.length - 1; i > 0 && compareJobs(best[i]!, best[i - 1]!) < 0; i--) {
      [best[i - 1], best[i]] = [best[i]!, best[i - 1]!];
    }
  }
  return best;
}

/**
 * Explicit move among queued jobs: swaps ordering keys with the neighbour in display order, so a
 * watch job can be moved above a manual one. Returns only the records that changed (to persist).
 */
export function move(jobs: Iterable<JobRecord>, id: string, direction: 'up' | 'down', now: number): JobRecord[] {
  const queued = [...jobs].filter((j) => j.state === 'queued').sort(compareJobs);
  const i = queued.findIndex((j) => j.id === id);
  const k = direction === 'up' ? i - 1 : i + 1;
  const a = queued[i];
  const b = queued[k];
  if (i < 0 || !a || !b) return [];
  if (a.priority === b.priority && a.seq === b.seq) {
    // Equal keys (ties broken by id): open a gap instead of swapping equal values.
    const bump = direction === 'up' ? -1 : 1;
    return [{ ...a, seq: a.seq + bump, updatedAt: now }];
  }
  return [
    { ...a, priority: b.priority, seq: b.seq, updatedAt: now },
    { ...b, priority: a.priority, seq: a.seq, updatedAt: now },
  ];
}
