// The runner's unfinished jobs by id, with what the scheduler needs kept as they change: the slots
// they hold, and the queued ones in queue order. The scheduler then reads the queue from its head
// instead of walking every job each time it plans (engine/scheduler.ts `counted`).
import type { JobRecord } from '../../engine/job.js';
import { compareJobs, holdsStream, takesUploadSlot, type SlotsUsed } from '../../engine/scheduler.js';

export class ActiveJobs {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly counts: SlotsUsed = { uploading: 0, inFlight: 0 };
  /**
   * The queued jobs sorted by `compareJobs` (a total order: ties fall to the id). Jobs found by a
   * folder arrive in order and are appended; a job leaving the queue, or moved, is found by binary
   * search. Records are never changed in place, so an old record still holds its old place.
   */
  private readonly queued: JobRecord[] = [];

  get(id: string): JobRecord | undefined {
    return this.jobs.get(id);
  }

  keys(): IterableIterator<string> {
    return this.jobs.keys();
  }

  values(): IterableIterator<JobRecord> {
    return this.jobs.values();
  }

  /**
   * The unfinished jobs read back at start, in one pass and one sort: inserted one by one, a
   * journal whose jobs were moved out of order would pay a memory move per job.
   */
  load(jobs: Iterable<JobRecord>): void {
    for (const job of jobs) this.put(job);
    this.queued.length = 0;
    for (const job of this.jobs.values()) if (job.state === 'queued') this.queued.push(job);
    this.queued.sort(compareJobs);
  }

  /** Adds the job or replaces its earlier record. */
  set(job: JobRecord): void {
    this.put(job);
    if (job.state === 'queued') this.queued.splice(this.placeOf(job), 0, job);
  }

  delete(id: string): void {
    const was = this.jobs.get(id);
    if (!was) return;
    this.forget(was);
    this.jobs.delete(id);
  }

  /** The slots the jobs hold now. */
  get used(): SlotsUsed {
    return { ...this.counts };
  }

  /** The queued jobs in queue order (read it before the next change). */
  queuedInOrder(): readonly JobRecord[] {
    return this.queued;
  }

  /** The job by its id and in the counts, its earlier record forgotten; the queue is the caller's. */
  private put(job: JobRecord): void {
    const was = this.jobs.get(job.id);
    if (was) this.forget(was);
    this.jobs.set(job.id, job);
    this.count(job, 1);
  }

  private forget(job: JobRecord): void {
    this.count(job, -1);
    if (job.state !== 'queued') return;
    let i = this.placeOf(job);
    if (this.queued[i] !== job) i = this.queued.findIndex((q) => q.id === job.id);
    if (i >= 0) this.queued.splice(i, 1);
  }

  /** Where `job` stands in the queue: the first place whose job does not come before it. */
  private placeOf(job: JobRecord): number {
    const q = this.queued;
    const last = q[q.length - 1];
    if (last === undefined || compareJobs(last, job) < 0) return q.length;
    let lo = 0;
    let hi = q.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareJobs(q[mid]!, job) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private count(job: JobRecord, by: 1 | -1): void {
    if (takesUploadSlot(job)) this.counts.uploading += by;
    if (holdsStream(job)) this.counts.inFlight += by;
  }
}
