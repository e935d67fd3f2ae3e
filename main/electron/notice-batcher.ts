// Which desktop notifications to show: one per batch of completions and one per burst of failures,
// not one per file. Pure (the clock is the caller's), so it is tested without Electron.
import type { JobView } from '../../preload/contract.js';

export interface Notice {
  kind: 'completed' | 'failed';
  title: string;
  body: string;
  /** The job a click opens (the only one, or the first of the batch). */
  jobId: string;
}

export class NoticeBatcher {
  private readonly last = new Map<string, string>();
  private pending: { completed: JobView[]; failed: JobView[] } = { completed: [], failed: [] };
  private lastChangeAt = 0;

  /** `quietMs`: a batch is reported once nothing finished for this long. */
  constructor(private readonly quietMs = 3000) {}

  observe(job: JobView, now: number): void {
    const before = this.last.get(job.id);
    this.last.set(job.id, job.state);
    // First sight (a snapshot, a new job) is not news; only a change of state is.
    if (before === undefined || before === job.state) return;
    if (job.state === 'completed') this.pending.completed.push(job);
    else if (job.state === 'failed') this.pending.failed.push(job);
    else return;
    this.lastChangeAt = now;
  }

  /** Notices due now (call it on a timer); empty while a batch is still growing. */
  take(now: number): Notice[] {
    if (now - this.lastChangeAt < this.quietMs) return [];
    const out: Notice[] = [];
    const { completed, failed } = this.pending;
    const first = (l: JobView[]) => l[0]?.id ?? '';
    if (completed.length === 1) {
      out.push({
        kind: 'completed',
        title: 'Finished',
        body: `${completed[0]?.fileName}: results saved beside it.`,
        jobId: first(completed),
      });
    } else if (completed.length > 1) {
      out.push({
        kind: 'completed',
        title: `${completed.length} files finished`,
        body: 'Their results are saved beside them.',
        jobId: first(completed),
      });
    }
    if (failed.length === 1) {
      out.push({
        kind: 'failed',
        title: 'A file failed',
        body: `${failed[0]?.fileName}: ${failed[0]?.error?.message ?? 'see the queue'}`,
        jobId: first(failed),
      });
    } else if (failed.length > 1) {
      const names = failed
        .slice(0, 3)
        .map((j) => j.fileName)
        .join(', ');
      out.push({
        kind: 'failed',
        title: `${failed.length} files failed`,
        body: `${names}${failed.length > 3 ? ', …' : ''}`,
        jobId: first(failed),
      });
    }
    this.pending = { completed: [], failed: [] };
    return out;
  }

  forget(id: string): void {
    this.last.delete(id);
  }
}
