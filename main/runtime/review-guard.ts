// Work typed is never overwritten by work not asked for. As a job's results are written:
// - a re-run the editor asked for (`replaces`) first takes the earlier run's review work onto its
//   own transcript (corrections, speaker names, markers, chapters), so its results carry it, and
//   what could not be placed is named (the re-run's confirmation said this would happen);
// - any other run that finds, where its results would go, results of another run holding review
//   work writes beside them (the fallback name, as for a file Sluice did not write), never over them.
// Either way the job says which (JobRecord.review).
import type { Ownership, FileStamp } from '../adapters/results/result-writer.js';
import type { JobStore } from '../adapters/store/journal/job-store.js';
import type { JobRecord, ReviewNote } from '../engine/job.js';
import {
  NO_REVIEW,
  reviewTotal,
  reviewWords,
  type CarriedReview,
  type ReviewCounts,
} from '../engine/transcript/review-carry.js';

/** The transcript editor's part in it: carrying a job's review work onto another, and counting it. */
export interface ReviewPort {
  carry(job: JobRecord, from: JobRecord, exportPath: string): Promise<CarriedReview | undefined>;
  work(job: JobRecord): Promise<ReviewCounts>;
}

/** What the job says of a carry, in words. */
export function carriedNote(c: CarriedReview): string {
  const done =
    reviewTotal(c.carried) > 0 ? `Review work of the earlier run carried over: ${reviewWords(c.carried)}.` : '';
  const left = c.notPlaced.length > 0 ? `Not placed (kept with the earlier run): ${c.notPlaced.join('; ')}.` : '';
  return [done, left].filter(Boolean).join(' ') || 'The earlier run had no review work to carry over.';
}

/** One write of one job's results: the ownership it writes under, and what it found on the way. */
export class ReviewGuard implements Ownership {
  /** A re-run whose earlier review work could not be carried: it replaces nothing that holds it. */
  private carryFailed = false;
  private readonly held = new Map<string, ReviewCounts | 'unreadable'>();
  private readonly work = new Map<string, Promise<ReviewCounts | 'unreadable'>>();

  constructor(
    private readonly job: JobRecord,
    private readonly store: Pick<JobStore<JobRecord>, 'get'>,
    private readonly ownership: Ownership & { writerOf(filePath: string): string | undefined },
    private readonly port?: ReviewPort,
  ) {}

  /** A re-run's first write: the earlier run's review work, carried onto this job's transcript. */
  async carry(exportPath: string): Promise<ReviewNote | undefined> {
    const { job, port } = this;
    if (!port || !job.replaces || job.review) return undefined;
    const from = this.store.get(job.replaces);
    if (!from) return undefined;
    try {
      const carried = await port.carry(job, from, exportPath);
      return carried ? { outcome: 'carried', from: from.id, note: carriedNote(carried) } : undefined;
    } catch {
      // Not carried: the earlier run's results keep it, and this run's go beside them (isOurs).
      this.carryFailed = true;
      return undefined;
    }
  }

  async isOurs(filePath: string, current: FileStamp): Promise<boolean> {
    if (!(await this.ownership.isOurs(filePath, current))) return false;
    const writer = this.ownership.writerOf(filePath);
    // The job's own files, and those of the run it replaces (asked for, and its review work carried).
    if (!this.port || !writer || writer === this.job.id) return true;
    if (writer === this.job.replaces && !this.carryFailed) return true;
    // Work that cannot be read is kept as if it were there: beside, never over.
    const counts = await this.workOf(writer);
    if (counts !== 'unreadable' && reviewTotal(counts) === 0) return true;
    this.held.set(writer, counts);
    return false;
  }

  /** Whether this write left `jobId`'s results in place because they hold review work. */
  kept(jobId: string): boolean {
    return this.held.has(jobId);
  }

  /** When results went beside another run's reviewed ones: what the job says of it. */
  beside(): ReviewNote | undefined {
    const first = [...this.held][0];
    if (!first) return undefined;
    const [from, counts] = first;
    const what = counts === 'unreadable' ? 'review work' : `review work (${reviewWords(counts)})`;
    return {
      outcome: 'beside',
      from,
      note: `Results written beside the earlier run's, not over them: those hold ${what} that this transcript does not have.`,
    };
  }

  private workOf(jobId: string): Promise<ReviewCounts | 'unreadable'> {
    let w = this.work.get(jobId);
    if (!w) {
      const record = this.store.get(jobId);
      w = record && this.port ? this.port.work(record).catch(() => 'unreadable' as const) : Promise.resolve(NO_REVIEW);
      this.work.set(jobId, w);
    }
    return w;
  }
}
