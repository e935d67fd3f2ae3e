// Writing results again, for every caller: the Queue's "save results again" and `sluice rewrite`
// (from the export kept in the state dir), History's re-export (the export fetched anew from the
// service), and the re-export of a stream started elsewhere (its JSON into the state dir). Whether
// a job may be rewritten is the engine's call (eligibility.ts). The rewriter finds the export and
// says what to write (`RewritePlan`); the results service writes it (runtime/results.ts), so
// writing runs one way and nothing here calls back up.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ExportOutcome } from '../../api/export.js';
import type { JobRecord } from '../../engine/job.js';
import { DEFAULT_OUTPUT, type OutputSettings } from '../../engine/settings.js';
import { isServiceError } from '../../service/errors.js';
import { keepExport, keptExportPath } from '../queue/delivery.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../store/private-files.js';
import { writeFileAtomic } from './result-writer.js';

export interface RewriterDeps {
  exportsDir: string;
  /** Where the exports of streams started elsewhere go (no source file to save beside). */
  externalDir: string;
  exportJson: (streamId: string) => Promise<ExportOutcome>;
}

/** The service answered the export with no data (204): there is nothing to write. */
export class NoExportDataError extends Error {
  constructor() {
    super('The service returned no data for this stream.');
    this.name = 'NoExportDataError';
  }
}

/** What a rewrite changes in the job's output besides its formats. */
export interface OutputChange {
  timeline?: OutputSettings['timeline'];
  captions?: OutputSettings['captions'];
  /** More caption layouts written beside the main captions (a re-flow that does not replace them). */
  moreCaptions?: OutputSettings['moreCaptions'];
}

/** What to write again: the job with its new output, from the export at `exportPath`. */
export interface RewritePlan {
  job: JobRecord;
  exportPath: string;
  /** The job's new output, when the rewrite changes it (the reducer records it). */
  output?: OutputSettings;
  /**
   * Written from the export kept on this computer because the service could not give it again:
   * it no longer holds the stream (`gone`: the sandbox restarted, the stream expired) or it cannot
   * be reached (`unreachable`). The kept export is the same transcript, so nothing is lost.
   */
  keptBecause?: 'gone' | 'unreachable';
}

/** Why the service could not give the export, when the kept one may stand in for it. */
function keptFallback(err: unknown): RewritePlan['keptBecause'] {
  if (!isServiceError(err)) return undefined;
  if (err.errorClass === 'not-found') return 'gone';
  return err.kind === 'network' || err.kind === 'timeout' ? 'unreachable' : undefined;
}

export class Rewriter {
  constructor(private readonly d: RewriterDeps) {}

  /**
   * Every format again from the kept export; `formats` replaces the job's formats first, and
   * `change` its editor formats' timeline start (another start without processing again) or its
   * caption layout (a TV and a social version from one transcript, no new processing).
   */
  fromKept(job: JobRecord, formats?: OutputSettings['formats'], change: OutputChange = {}): RewritePlan {
    const kept = keptExportPath(this.d.exportsDir, job.id);
    if (!existsSync(kept)) {
      throw new Error('No export of this job is kept on this computer; export it again from the service instead.');
    }
    const output =
      formats || change.timeline || change.captions || change.moreCaptions
        ? {
            ...(job.output ?? DEFAULT_OUTPUT),
            ...(formats ? { formats } : {}),
            ...(change.timeline ? { timeline: change.timeline } : {}),
            ...(change.captions ? { captions: change.captions } : {}),
            ...(change.moreCaptions ? { moreCaptions: change.moreCaptions } : {}),
          }
        : job.output;
    return { job: { ...job, ...(output ? { output } : {}) }, exportPath: kept, ...(output ? { output } : {}) };
  }

  /**
   * Fetches the export again (while the service still holds the stream) and keeps it, to be
   * written. When the service no longer holds the stream or cannot be reached, the export kept on
   * this computer is written instead (as "save results again" does), and the plan says so.
   */
  async fromService(
    job: JobRecord & { streamId: string },
    formats?: OutputSettings['formats'],
    change: OutputChange = {},
  ): Promise<RewritePlan> {
    let outcome: ExportOutcome;
    try {
      outcome = await this.d.exportJson(job.streamId);
    } catch (err) {
      const why = keptFallback(err);
      if (!why) throw err;
      if (existsSync(keptExportPath(this.d.exportsDir, job.id))) {
        return { ...this.fromKept(job, formats, change), keptBecause: why };
      }
      if (why === 'gone') {
        throw new Error(
          'The service no longer holds this stream (it expired, or the sandbox was restarted) and no copy of its export is kept on this computer. Re-run the file to process it again.',
        );
      }
      throw err;
    }
    if (outcome.outcome === 'no-data') throw new NoExportDataError();
    await keepExport(this.d.exportsDir, job.id, outcome.bytes);
    return this.fromKept(job, formats, change);
  }

  /** A stream started elsewhere: its JSON, saved in the state dir. */
  async external(streamId: string): Promise<string> {
    const outcome = await this.d.exportJson(streamId);
    if (outcome.outcome === 'no-data') throw new NoExportDataError();
    // A whole transcript in the state folder: private like the kept exports (private-files.ts).
    await mkdir(this.d.externalDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const file = path.join(this.d.externalDir, `${streamId}.json`);
    await writeFileAtomic(file, outcome.bytes, { mode: PRIVATE_FILE_MODE });
    return file;
  }
}
