// Which result files Sluice wrote, and which job wrote each: a file still matching the stamp
// Sluice left is Sluice's own to replace; one edited since is the user's.
import type { JobRecord, ResultFile } from '../../engine/job.js';
import type { Ownership } from './result-writer.js';

/** Files Sluice wrote, from the job history: a file still matching its stamp is Sluice's own. */
export class ResultOwnership implements Ownership {
  private owned: Map<string, { size?: number; mtimeMs?: number; jobId?: string }> | undefined;

  /** Built on first use, not at start-up (the history may hold 100,000 jobs). */
  constructor(private readonly jobs: () => Iterable<JobRecord>) {}

  private index(): Map<string, { size?: number; mtimeMs?: number; jobId?: string }> {
    if (!this.owned) {
      this.owned = new Map();
      for (const j of this.jobs()) this.add(this.owned, j.results, j.id);
    }
    return this.owned;
  }

  private add(
    map: Map<string, { size?: number; mtimeMs?: number; jobId?: string }>,
    results: readonly ResultFile[],
    jobId?: string,
  ): void {
    for (const r of results) map.set(r.path, { size: r.size, mtimeMs: r.mtimeMs, ...(jobId ? { jobId } : {}) });
  }

  /** `jobId`: the job that wrote them, so a later write knows whose results it would replace. */
  record(results: readonly ResultFile[], jobId?: string): void {
    this.add(this.index(), results, jobId);
  }

  isOurs(filePath: string, current: { size: number; mtimeMs: number }): boolean {
    const o = this.index().get(filePath);
    if (!o) return false;
    // Edited since Sluice wrote it: now the user's file.
    return (
      (o.size === undefined || o.size === current.size) &&
      (o.mtimeMs === undefined || Math.floor(o.mtimeMs) === Math.floor(current.mtimeMs))
    );
  }

  /** The job that wrote the file last, when known. */
  writerOf(filePath: string): string | undefined {
    return this.index().get(filePath)?.jobId;
  }
}
