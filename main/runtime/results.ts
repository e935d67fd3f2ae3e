// Writing a job's results, every time: the first delivery, "write again" from the kept export,
// History's re-export, and a rewrite after a transcript correction. It owns which files are
// Sluice's own (only those are ever replaced) and the rewriter, which says what to write and
// returns; the corrected transcript comes in through the function given at construction, so
// writing runs one way: caller → here → (rewriter, then writer).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ExportOutcome } from '../api/export.js';
import { Rewriter, type OutputChange, type RewritePlan } from '../adapters/results/rewriter.js';
import type { Ownership } from '../adapters/results/result-writer.js';
import { removeSuperseded } from '../adapters/results/supersede.js';
import { ResultOwnership, writeResults } from '../adapters/results/write-results.js';
import { ReviewGuard, type ReviewPort } from './review-guard.js';
import { archivedWritersOf } from '../adapters/store/journal/jobs.js';
import type { JobStore } from '../adapters/store/journal/job-store.js';
import { namesMedia } from '../engine/captions/render.js';
import { refusal, type JobAction } from '../engine/eligibility.js';
import type { JobEvent, JobRecord, ResultFile } from '../engine/job.js';
import type { OutputSettings } from '../engine/settings.js';

export interface ResultsDeps {
  stateDir: string;
  store: JobStore<JobRecord>;
  exportJson: (streamId: string) => Promise<ExportOutcome>;
  /** Records an event of a job (the queue runner's reducer); undefined: no such job. */
  apply: (id: string, event: JobEvent) => JobRecord | undefined;
  /** The transcript to write from: the export with the corrections made in the review view. */
  correctedSource: (job: JobRecord, exportPath: string) => Promise<Parameters<typeof writeResults>[4]>;
  /** An earlier run's review work: carried onto a job's transcript, or counted (review-guard.ts). */
  review?: ReviewPort;
}

export class Results {
  private readonly ownership: Ownership & Pick<ResultOwnership, 'record' | 'writerOf'>;
  private readonly rewriter: Rewriter;
  /** Rewrites for a moved file under way, and the jobs moved again meanwhile (followMove). */
  private readonly following = new Map<string, Promise<void>>();
  private readonly followAgain = new Set<string>();
  readonly exportsDir: string;

  constructor(private readonly d: ResultsDeps) {
    this.exportsDir = path.join(d.stateDir, 'exports');
    this.ownership = archivedOwnership(new ResultOwnership(() => d.store.all()), d.store);
    this.rewriter = new Rewriter({
      exportsDir: this.exportsDir,
      externalDir: path.join(d.stateDir, 'external'),
      exportJson: d.exportJson,
    });
  }

  /** Writes a job's results and records them as Sluice's own (so a later write may replace them). */
  async writeOwned(job: JobRecord, exportPath: string): Promise<JobRecord['results']> {
    const guard = new ReviewGuard(job, this.d.store, this.ownership, this.d.review);
    const carried = await guard.carry(exportPath);
    if (carried) this.d.apply(job.id, { type: 'reviewNoted', review: carried });
    // Corrections made in the review view apply to every write: first delivery, rewrite, re-export.
    const corrected = await this.d.correctedSource(job, exportPath);
    const results = await writeResults(job, exportPath, guard, new Date(), corrected);
    const beside = guard.beside();
    if (beside) this.d.apply(job.id, { type: 'reviewNoted', review: beside });
    this.ownership.record(results, job.id);
    const earlier = job.replaces ? this.d.store.get(job.replaces) : undefined;
    // Results kept because they hold review work this run lacks are not superseded either.
    if (earlier && earlier.results.length > 0 && !guard.kept(earlier.id)) {
      const kept = await removeSuperseded(earlier.results, results);
      this.d.apply(earlier.id, { type: 'resultsSuperseded', results: kept });
    }
    return results;
  }

  /**
   * Writes every result format again from the kept export, without processing or exporting again
   * ("export all again"); `formats` replaces the job's formats first, `change` where the editor
   * formats start or the caption layout. Only Sluice's own files are overwritten, as always.
   */
  async writeAgain(id: string, formats?: OutputSettings['formats'], change: OutputChange = {}): Promise<JobRecord> {
    return this.recordRewrite(
      id,
      await this.written(this.rewriter.fromKept(this.eligible(id, 'rewrite'), formats, change)),
    );
  }

  /**
   * Fetches the export again from the service (while it still holds the stream) and writes the
   * results anew: for a completed job whose result files were lost or edited by hand. `formats`
   * replaces the job's formats first and `change` the rest of its output, as in writeAgain.
   */
  async reexport(
    id: string,
    formats?: OutputSettings['formats'],
    change: OutputChange = {},
  ): Promise<{ job: JobRecord; keptBecause?: RewritePlan['keptBecause'] }> {
    const job = this.eligible(id, 'reexport');
    if (!job.streamId) throw new Error('This job has no stream at the service.');
    const plan = await this.rewriter.fromService({ ...job, streamId: job.streamId }, formats, change);
    const done = await this.written(plan);
    return { job: this.recordRewrite(id, done), ...(plan.keptBecause ? { keptBecause: plan.keptBecause } : {}) };
  }

  /**
   * The editor chose to have Sluice's results replace the files they changed by hand (a corrected
   * `C0001.srt` the review wrote to `C0001.MP4.srt` because the editor had edited `C0001.srt`):
   * those files become Sluice's own at their current stamp, every format is written again from the
   * kept export with the corrections, and the fallback copies, now superseded, are removed.
   */
  async overwriteHeld(id: string): Promise<JobRecord> {
    const job = this.eligible(id, 'rewrite');
    const held: ResultFile[] = [];
    for (const r of job.results) {
      if (!r.collided || !r.heldBy) continue;
      const st = await stat(r.heldBy).catch(() => null);
      if (st?.isFile())
        held.push({ format: r.format, path: r.heldBy, writtenBySluice: true, size: st.size, mtimeMs: st.mtimeMs });
    }
    if (held.length === 0) return job;
    this.ownership.record(held, id);
    const done = await this.written(this.rewriter.fromKept(job));
    // A fallback copy changed since Sluice wrote it stays on disk (removeSuperseded's rule), unlisted.
    await removeSuperseded(job.results, done.results);
    return this.recordRewrite(id, done);
  }

  /**
   * The finished file was renamed or moved: the results it took along (or left in the output
   * folder) still link the media by its old path (FCPXML `src`, xmeml `pathurl`) and name it by its
   * old name. They are written again from the kept export with the corrections, as after a
   * correction, so every file that names the media points at it as it is now. The files moved with
   * it are still Sluice's own as written (a rename keeps size and time), so they are replaced in
   * place. One write per job at a time; a move meanwhile is written once the first is done.
   */
  followMove(id: string): void {
    if (this.following.has(id)) {
      this.followAgain.add(id);
      return;
    }
    const run = (async () => {
      do {
        this.followAgain.delete(id);
        const now = this.d.store.get(id);
        // Only files that name the media change; SRT, VTT, TXT and the JSON stay as they moved.
        if (!now || refusal(now, 'rewrite') || !now.results.some((r) => namesMedia(r.format))) break;
        this.ownership.record(now.results);
        // No kept export (cleared by hand) or a folder that refuses writes: the renamed files stay as they are.
        await this.writeAgain(id).catch(() => undefined);
      } while (this.followAgain.has(id));
    })().finally(() => this.following.delete(id));
    this.following.set(id, run);
  }

  /** Resolves once no result follows a move any more (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.following.size > 0) await Promise.all([...this.following.values()]);
  }

  /** Exports a stream started elsewhere (no local job) into the state dir; returns the file. */
  exportExternal(streamId: string): Promise<string> {
    return this.rewriter.external(streamId);
  }

  /** Writes what the rewriter planned: the results, and the output the job now has. */
  private async written(plan: RewritePlan): Promise<{ results: JobRecord['results']; output?: OutputSettings }> {
    const results = await this.writeOwned(plan.job, plan.exportPath);
    return { results, ...(plan.output ? { output: plan.output } : {}) };
  }

  /** The job, when `action` applies to it; otherwise an error saying why not. */
  private eligible(id: string, action: JobAction): JobRecord {
    const job = this.d.store.get(id);
    if (!job) throw new Error('There is no such job.');
    const why = refusal(job, action);
    if (why) throw new Error(why);
    return job;
  }

  private recordRewrite(id: string, done: { results: JobRecord['results']; output?: OutputSettings }): JobRecord {
    const event: JobEvent = {
      type: 'resultsRewritten',
      results: done.results,
      ...(done.output ? { output: done.output } : {}),
    };
    const job = this.d.apply(id, event);
    if (!job) throw new Error('There is no such job.');
    return job;
  }
}

/**
 * Ownership of result files across the journal and the archive: the journal's jobs are indexed in
 * memory as before; a path none of them wrote is looked up in the archive's index.
 */
function archivedOwnership(
  hot: ResultOwnership,
  store: JobStore<JobRecord>,
): Ownership & Pick<ResultOwnership, 'record' | 'writerOf'> {
  return {
    record: (results, jobId) => hot.record(results, jobId),
    writerOf: (filePath) => hot.writerOf(filePath) ?? archivedWritersOf(store, filePath).at(-1)?.id,
    isOurs(filePath, current) {
      if (hot.isOurs(filePath, current)) return true;
      return archivedWritersOf(store, filePath).some((record) =>
        new ResultOwnership(() => [record]).isOurs(filePath, current),
      );
    },
  };
}
