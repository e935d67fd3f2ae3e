// The last leg of a job: the export (kept in the state dir as `<jobId>.json`, so results can be
// written again without processing again), then the results beside the source. Runs in its own
// p-queue; outcomes go back to the reducer as events.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import PQueue from 'p-queue';
import { toServiceError } from '../../service/errors.js';
import type { ExportOutcome } from '../../api/export.js';
import { failureOf, type JobEvent, type JobRecord, type ResultFile } from '../../engine/job.js';
import { writeFileAtomic } from '../results/result-writer.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-files.js';

/** Where a job's export is kept: `<exportsDir>/<jobId>.json`. */
export function keptExportPath(exportsDir: string, jobId: string): string {
  return path.join(exportsDir, `${jobId}.json`);
}

/** Keeps (or replaces) a job's export; returns where it is kept. */
export async function keepExport(exportsDir: string, jobId: string, bytes: Uint8Array): Promise<string> {
  const kept = keptExportPath(exportsDir, jobId);
  // A whole transcript: private like everything in the state folder (see private-files.ts).
  await writeFileAtomic(kept, bytes, { writer: jobId.slice(0, 8), mode: PRIVATE_FILE_MODE });
  return kept;
}

export interface DeliveryOptions {
  exportJson: (streamId: string) => Promise<ExportOutcome>;
  writeResults: (job: JobRecord, exportPath: string) => Promise<readonly ResultFile[]>;
  job: (id: string) => JobRecord | undefined;
  apply: (id: string, ev: JobEvent) => void;
  noteFailure: (err: unknown) => void;
  /** The export could not be kept in the state folder (full disk): the job is left as it was. */
  storageFailed: (id: string, err: unknown) => void;
  exportsDir: string;
  concurrency?: number;
  /** Whether the job's watch folder is away now (a share offline): its results wait for it. */
  folderAway?: (job: JobRecord) => Promise<boolean>;
}

export class Delivery {
  private readonly queue: PQueue;
  /** Jobs whose export or result writing is running now. */
  private readonly busy = new Set<string>();
  /** Results that wait for their watch folder to come back: job id → its kept export. */
  private readonly parked = new Map<string, string>();

  constructor(private readonly o: DeliveryOptions) {
    this.queue = new PQueue({ concurrency: o.concurrency ?? 2 });
    mkdirSync(o.exportsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  isBusy(id: string): boolean {
    return this.busy.has(id);
  }

  exportNow(id: string, streamId: string): void {
    void this.queue.add(() => this.guard(id, () => this.export(id, streamId)));
  }

  writeNow(id: string, exportPath: string): void {
    void this.queue.add(() => this.guard(id, () => this.write(id, exportPath)));
  }

  private async guard(id: string, f: () => Promise<void>): Promise<void> {
    this.busy.add(id);
    try {
      await f();
    } finally {
      this.busy.delete(id);
    }
  }

  private async export(id: string, streamId: string): Promise<void> {
    try {
      const outcome = await this.o.exportJson(streamId);
      if (outcome.outcome === 'no-data') {
        this.o.apply(id, { type: 'exportSucceeded', stagedPath: null });
        return;
      }
      let kept: string;
      try {
        kept = await keepExport(this.o.exportsDir, id, outcome.bytes);
      } catch (err) {
        // Our own disk, not the service or the file: the job stays exporting and is resumed (and
        // exported again) once the state folder takes writes.
        this.o.storageFailed(id, err);
        return;
      }
      this.o.apply(id, { type: 'exportSucceeded', stagedPath: kept });
    } catch (err) {
      this.o.noteFailure(err);
      this.o.apply(id, { type: 'exportFailed', error: failureOf(toServiceError(err)) });
    }
  }

  private async write(id: string, exportPath: string, again = false): Promise<void> {
    const job = this.o.job(id);
    if (!job) return;
    try {
      const results = await this.o.writeResults(job, exportPath);
      this.o.apply(id, { type: 'resultsWritten', results });
    } catch (err) {
      // Nothing is written where the folder was: the job keeps its export and waits (folder-root.ts).
      if (await (this.o.folderAway?.(job) ?? Promise.resolve(false)).catch(() => false)) {
        this.parked.set(id, exportPath);
        return;
      }
      // Its folder missing a moment ago but there now (a share back as the write failed): once more.
      const code = (err as { code?: unknown } | undefined)?.code;
      if (!again && this.o.folderAway && (code === 'ENOENT' || code === 'ENOTDIR'))
        return this.write(id, exportPath, true);
      this.o.apply(id, { type: 'resultsWriteFailed', message: err instanceof Error ? err.message : String(err) });
    }
  }

  /** A watch folder came back: the results that waited for it are written now. */
  writeParked(folderId: string): void {
    for (const [id, exportPath] of [...this.parked]) {
      const job = this.o.job(id);
      if (job && (job.origin.kind !== 'watch' || job.origin.folderId !== folderId)) continue;
      this.parked.delete(id);
      if (job) this.writeNow(id, exportPath);
    }
  }

  async stop(): Promise<void> {
    this.queue.pause();
    this.queue.clear();
    await this.queue.onIdle();
  }
}
