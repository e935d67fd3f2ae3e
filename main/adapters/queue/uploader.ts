// One upload: checks that the source is still the file that was detected, streams it with the
// stream id the job already persisted, and reports the outcome to the reducer as an event.
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { UploadOptions } from '../../api/gateway.js';
import type { StreamDto } from '../../service/types.js';
import { findTemplate } from '../../service/templates.js';
import { failureOf, type Failure, type JobEvent, type JobRecord } from '../../engine/job.js';
import { isLinkJob, linkFileName } from '../../engine/media-link.js';
import { acceptedParams } from '../../engine/params.js';
import { addUploadReport, type UploadLine } from '../../engine/estimate.js';
import { toServiceError } from '../../service/errors.js';
import { riffOverrunOf } from '../../media/container-layout.js';
import { ineligible } from '../../../common/media-files.js';

export interface UploadPort {
  upload(opts: UploadOptions): Promise<StreamDto>;
}

/** How often a running upload's progress is said again when the socket takes nothing new. */
export const PROGRESS_REFRESH_MS = 1000;

const localFailure = (message: string): Failure => ({ class: 'request', message, kind: 'input' });

/** One upload in flight: bytes handed to the network so far, and the samples its speed is read from. */
export interface UploadProgress extends UploadLine {
  total: number;
}

export class Uploader {
  private readonly controllers = new Map<string, AbortController>();

  constructor(
    private readonly port: UploadPort,
    private readonly apply: (jobId: string, ev: JobEvent) => void,
    private readonly progress: Map<string, UploadProgress>,
    private readonly onProgress: () => void,
    private readonly noteFailure: (err: unknown) => void = () => undefined,
    /** Whether the job's watch folder is away now (a share offline): its source waits for it. */
    private readonly folderAway: (job: JobRecord) => Promise<boolean> = async () => false,
  ) {}

  async upload(job: JobRecord, streamId: string): Promise<void> {
    const src = job.source;
    const ac = new AbortController();
    this.controllers.set(job.id, ac);
    const link = isLinkJob(job);
    // A link is fetched by the service: there is no file here to check.
    let problem = link ? undefined : await checkSource(src.path, src.size, src.mtimeMs);
    // A watched file still being copied is not at fault: it waits for its copy (reducer-source.ts).
    const waits = job.origin.kind === 'watch';
    const gone = (): boolean => waits && problem === GONE(src.path);
    const away = gone() && (await this.folderAway(job).catch(() => false));
    // Missing a moment ago, its folder there now (a share back as it was checked): looked at once more.
    if (gone() && !away) problem = await checkSource(src.path, src.size, src.mtimeMs);
    if (problem) {
      this.controllers.delete(job.id);
      if (away) this.apply(job.id, { type: 'sourceAway' });
      else if (waits && problem === CHANGED(src.path))
        this.apply(job.id, { type: 'sourceChanged', uploadStarted: false });
      else this.apply(job.id, { type: 'uploadFailed', error: localFailure(problem) });
      return;
    }
    const watch =
      waits && !link
        ? watchSource(src.path, src.size, src.mtimeMs, ac.signal, () => {
            if (!ac.signal.aborted) this.apply(job.id, { type: 'sourceChanged', uploadStarted: true });
          })
        : undefined;
    const template = findTemplate(job.templateId);
    this.progress.set(job.id, { sent: 0, total: src.size, startedAt: Date.now(), samples: [] });
    // Said again every second while it runs: on a slow line the socket takes bytes seconds apart,
    // and what the line carried meanwhile (engine/estimate.ts) moves with the clock, not with them.
    const refresh = setInterval(() => this.onProgress(), PROGRESS_REFRESH_MS);
    refresh.unref();
    try {
      const stream = await this.port.upload({
        ...(link ? { mediaUrl: src.path } : { filePath: src.path }),
        templateId: job.templateId,
        streamId,
        name: link ? linkFileName(src.path) : path.basename(src.path),
        persist: true,
        params: template ? acceptedParams(template, job.params) : job.params,
        signal: ac.signal,
        onProgress: (sent, total) => {
          const p = this.progress.get(job.id);
          if (p) {
            p.total = total;
            addUploadReport(p, Date.now(), sent);
            this.onProgress();
          }
        },
      });
      this.apply(job.id, { type: 'uploadSucceeded', stream });
    } catch (err) {
      this.noteFailure(err);
      const se = toServiceError(err);
      // The folder went while the upload began (or ran): the job waits for it instead of failing.
      // An input error is the file not opened (nothing sent); otherwise the stream is settled first.
      if (waits && !link && (await this.folderAway(job).catch(() => false))) {
        this.apply(job.id, se.kind === 'input' ? { type: 'sourceAway' } : { type: 'uploadInterrupted' });
      } else this.apply(job.id, { type: 'uploadFailed', error: failureOf(se) });
    } finally {
      clearInterval(refresh);
      watch?.stop();
      this.controllers.delete(job.id);
      this.progress.delete(job.id);
    }
  }

  isActive(jobId: string): boolean {
    return this.controllers.has(jobId);
  }

  abort(jobId: string): void {
    this.controllers.get(jobId)?.abort();
  }

  abortAll(): void {
    for (const c of this.controllers.values()) c.abort();
  }
}

/** A clear reason when the file is gone, changed, empty or unreadable since it was detected. */
export async function checkSource(file: string, size: number, mtimeMs: number): Promise<string | undefined> {
  const s = await stat(file).catch((e: NodeJS.ErrnoException) => e);
  if (s instanceof Error) {
    return s.code === 'ENOENT' || s.code === 'ENOTDIR'
      ? GONE(file)
      : `${path.basename(file)} cannot be read (${s.code ?? s.message}).`;
  }
  if (!s.isFile()) return `${path.basename(file)} is not a regular file.`;
  if (ineligible({ size: s.size })) return `${path.basename(file)} is empty (0 bytes); nothing was uploaded.`;
  if (s.size !== size || Math.floor(s.mtimeMs) !== Math.floor(mtimeMs)) return CHANGED(file);
  // A watched WAV reaches here without the hand-added file's check: nothing is sent of one that
  // holds far more than its header declares.
  const overrun = await overrunOf(file, s.size);
  if (overrun) return `${path.basename(file)} is longer than its header says (${overrun}); nothing was uploaded.`;
  return undefined;
}

async function overrunOf(file: string, size: number): Promise<string | undefined> {
  const fh = await open(file, 'r').catch(() => undefined);
  if (!fh) return undefined;
  try {
    return await riffOverrunOf(fh, size);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

const GONE = (file: string): string => `${path.basename(file)} was deleted or moved after it was detected.`;

const CHANGED = (file: string): string =>
  `${path.basename(file)} changed after it was detected (is it still being written?); it is taken again once complete.`;

/** How often the source of a running upload is looked at: a stalled copy that goes on is seen within it. */
const SOURCE_WATCH_MS = 500;

/** Calls `onChange` once if the file's size or time moves while its upload runs. */
function watchSource(
  file: string,
  size: number,
  mtimeMs: number,
  signal: AbortSignal,
  onChange: () => void,
): { stop(): void } {
  let stopped = false;
  const timer = setInterval(() => {
    void stat(file).then(
      (s) => {
        if (stopped || signal.aborted) return;
        if (s.size !== size || Math.floor(s.mtimeMs) !== Math.floor(mtimeMs)) {
          stopped = true;
          clearInterval(timer);
          onChange();
        }
      },
      () => undefined,
    );
  }, SOURCE_WATCH_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
