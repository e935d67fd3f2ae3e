// Corrections as they are made: each change is saved to the job's corrections layer before it is
// answered (no Save button), and the results beside the source are then rewritten from the
// corrected transcript, through the one rewriter every rewrite goes through. The service's export
// kept in the state folder is never changed; "revert" is a change back to it.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { normalizeExport, parseExport } from '../../engine/captions/normalize.js';
import { normalizeOptionsOf } from '../../engine/captions/render.js';
import {
  emptyLayer,
  isCorrected,
  record,
  redo,
  replay,
  undo,
  type Correction,
  type CorrectionsLayer,
} from '../../engine/transcript/corrections.js';
import { correctedExport } from '../../engine/transcript/corrected-export.js';
import { seedOutline } from '../../engine/recipes/outline-edit.js';
import { sentFormats } from '../../engine/recipes/answers.js';
import { applyEdit, type TranscriptEdit } from '../../engine/transcript/transcript-edit.js';
import {
  carryReview,
  NO_REVIEW,
  reviewOf,
  type CarriedReview,
  type ReviewCounts,
} from '../../engine/transcript/review-carry.js';
import { normalizedOf, transcriptOf, type Transcript } from '../../engine/transcript/transcript.js';
import type { JobRecord } from '../../engine/job.js';
import type { ExportResult } from '../../service/types.js';
import { keptExportPath } from '../queue/delivery.js';
import type { CorrectionsStore } from '../store/review/transcript-corrections.js';
import type { IndexSource } from '../store/search/transcript-index.js';
import type { CorrectedSource } from './write-results.js';

/** The job's transcript as the editor sees it now. */
export interface OpenTranscript {
  jobId: string;
  base: Transcript;
  current: Transcript;
  layer: CorrectionsLayer;
  corrected: boolean;
}

/** The edit names a revision that is no longer the current one. */
export class StaleRevisionError extends Error {
  constructor(readonly current: number) {
    super(`The transcript changed since (now at revision ${current}); reload it and make the change again.`);
    this.name = 'StaleRevisionError';
  }
}

/** No export of this job is kept, so there is no transcript to show. */
export class NoTranscriptError extends Error {
  constructor() {
    super('No transcript of this job is kept on this computer; export it again from the service first.');
    this.name = 'NoTranscriptError';
  }
}

export interface Loaded {
  hash: string;
  result: ExportResult;
  timeUnit: 'ms' | 's';
  base: Transcript;
  layer: CorrectionsLayer;
  current: Transcript;
}

export interface TranscriptEditorDeps {
  exportsDir: string;
  store: CorrectionsStore;
  /** Writes the job's results again (they pick the corrections up through `correctedSource`). */
  rewrite: (jobId: string) => Promise<void>;
  /** After each rewrite: what changed, and why the results could not be written when they could not. */
  changed: (jobId: string, revision: number, problem?: string) => void;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
/** Transcripts kept in memory between changes (a 2-hour transcript is a few MB). */
const CACHE_SIZE = 8;

export class TranscriptEditor {
  private readonly cache = new Map<string, Loaded>();
  /** One change at a time per job: each is read, applied and saved before the next. */
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly writing = new Map<string, { running: boolean; again: boolean }>();

  constructor(private readonly d: TranscriptEditorDeps) {}

  open(job: JobRecord): Promise<OpenTranscript> {
    return this.serial(job.id, async () => this.view(job.id, await this.load(job)));
  }

  edit(job: JobRecord, revision: number, edit: TranscriptEdit): Promise<OpenTranscript> {
    return this.change(job, revision, (l, cur) => {
      applyEdit(cur, edit, { strict: true }); // refuses an edit that does not fit before anything is recorded
      return record(l, edit);
    });
  }

  undo(job: JobRecord): Promise<OpenTranscript> {
    return this.change(job, undefined, (l) => undo(l));
  }

  redo(job: JobRecord): Promise<OpenTranscript> {
    return this.change(job, undefined, (l) => redo(l));
  }

  revert(job: JobRecord): Promise<OpenTranscript> {
    const revert: Correction = { kind: 'revert' };
    return this.change(job, undefined, (l, cur, base) => (isCorrected(base, cur) ? record(l, revert) : l));
  }

  /**
   * What the results are written from: the corrected export and its words, or undefined when the
   * transcript is as the service sent it (the JSON is then saved exactly as received). Corrections
   * made on another export (fetched again from the service since) are not applied to this one.
   */
  async correctedSource(job: JobRecord, exportPath: string): Promise<CorrectedSource | undefined> {
    const layer = await this.d.store.load(job.id);
    if (!layer || layer.applied === 0) return undefined;
    const text = await readFile(exportPath, 'utf8');
    const hash = sha256(text);
    if (hash !== layer.base) return undefined;
    const loaded = this.build(job, text, hash, layer);
    if (!isCorrected(loaded.base, loaded.current)) return undefined;
    // Markers, chapters and quotes alone leave the words as received: the JSON is then saved
    // exactly as the service sent it.
    const wordsChanged = isCorrected(loaded.base, { ...loaded.current, markers: [], outline: loaded.base.outline });
    return {
      exportText: wordsChanged
        ? `${JSON.stringify(correctedExport(loaded.result, loaded.current, loaded.timeUnit), null, 2)}\n`
        : text,
      transcript: normalizedOf(loaded.current, loaded.timeUnit),
    };
  }

  /** The job's current words for the search index, and what identifies this version of them. */
  async searchSource(job: JobRecord): Promise<IndexSource | undefined> {
    try {
      const l = await this.serial(job.id, () => this.load(job));
      const { words, names } = l.current;
      // The names given to speakers are found too, from where each speaker is first heard.
      const named = Object.entries(names).map(([id, name]) => ({
        name,
        startMs: words.find((w) => w.speaker === id)?.startMs ?? 0,
      }));
      return { key: `${l.hash}:${l.layer.revision}`, words, names: named };
    } catch (e) {
      if (e instanceof NoTranscriptError) return undefined;
      throw e;
    }
  }

  /**
   * The review work in a job's transcript: none when nothing was changed. Corrections whose
   * transcript is no longer kept cannot be counted (nor carried): NoTranscriptError says so.
   */
  async reviewWork(job: JobRecord): Promise<ReviewCounts> {
    const l = await this.serial(job.id, () => this.load(job)).catch(async (e: unknown) => {
      if (e instanceof NoTranscriptError && !((await this.d.store.load(job.id))?.applied ?? 0)) return undefined;
      throw e;
    });
    return l ? reviewOf(l.base, l.current) : NO_REVIEW;
  }

  /**
   * Carries `from`'s review work onto `job`'s transcript (the export at `exportPath`), as the job's
   * own corrections layer, before its results are first written. Nothing is done when the job has
   * corrections of its own already, or `from` has no review work.
   */
  async carry(job: JobRecord, from: JobRecord, exportPath: string): Promise<CarriedReview | undefined> {
    if (await this.d.store.load(job.id)) return undefined;
    const old = await this.serial(from.id, () => this.load(from)).catch((e: unknown) => {
      if (e instanceof NoTranscriptError) return undefined;
      throw e;
    });
    if (!old || !isCorrected(old.base, old.current)) return undefined;
    const text = await readFile(exportPath, 'utf8');
    const hash = sha256(text);
    const fresh = this.build(job, text, hash, emptyLayer(hash));
    const carried = carryReview(old.base, old.layer, fresh.base);
    const layer = { ...emptyLayer(hash), revision: 1, changes: carried.changes, applied: carried.changes.length };
    await this.serial(job.id, async () => {
      await this.d.store.save(job.id, layer);
      this.forget(job.id);
    });
    return carried;
  }

  /** Forgets what is held in memory for a job (its export was fetched again). */
  forget(jobId: string): void {
    this.cache.delete(jobId);
  }

  private async change(
    job: JobRecord,
    revision: number | undefined,
    next: (l: CorrectionsLayer, current: Transcript, base: Transcript) => CorrectionsLayer,
  ): Promise<OpenTranscript> {
    const { view, changed } = await this.serial(job.id, async () => {
      const loaded = await this.load(job);
      if (revision !== undefined && revision !== loaded.layer.revision)
        throw new StaleRevisionError(loaded.layer.revision);
      const layer = next(loaded.layer, loaded.current, loaded.base);
      if (layer === loaded.layer) return { view: this.view(job.id, loaded), changed: false };
      // Saved before it is answered: a change the editor saw is a change that survives a crash.
      await this.d.store.save(job.id, layer);
      const updated: Loaded = { ...loaded, layer, current: replay(loaded.base, layer) };
      this.remember(job.id, updated);
      return { view: this.view(job.id, updated), changed: true };
    });
    if (changed) this.scheduleRewrite(job.id, view.layer.revision);
    return view;
  }

  /** Rewrites at once, and once more after a running rewrite when changes came in meanwhile. */
  private scheduleRewrite(jobId: string, revision: number): void {
    const w = this.writing.get(jobId) ?? { running: false, again: false };
    this.writing.set(jobId, w);
    if (w.running) {
      w.again = true;
      return;
    }
    w.running = true;
    void (async () => {
      for (;;) {
        w.again = false;
        // The revision this write carries: changes saved from here on are picked up by the next one.
        const rev = this.cache.get(jobId)?.layer.revision ?? revision;
        let problem: string | undefined;
        try {
          await this.d.rewrite(jobId);
        } catch (e) {
          problem = e instanceof Error ? e.message : String(e);
        }
        this.d.changed(jobId, rev, problem);
        if (!w.again) break;
      }
      w.running = false;
      this.writing.delete(jobId);
    })();
  }

  /** Resolves once no rewrite (of the job, or of any job) is running or due (tests, shutdown). */
  async settled(jobId?: string): Promise<void> {
    const busy = (): boolean => (jobId === undefined ? this.writing.size > 0 : this.writing.has(jobId));
    while (busy()) await new Promise((r) => setTimeout(r, 10));
  }

  private async load(job: JobRecord): Promise<Loaded> {
    const loaded = await loadTranscript(this.d, job, (hash) => {
      const hit = this.cache.get(job.id);
      return hit && hit.hash === hash ? hit : undefined;
    });
    this.remember(job.id, loaded);
    return loaded;
  }

  private build(job: JobRecord, text: string, hash: string, layer: CorrectionsLayer): Loaded {
    return buildTranscript(job, text, hash, layer);
  }

  private remember(jobId: string, loaded: Loaded): void {
    this.cache.delete(jobId);
    this.cache.set(jobId, loaded);
    while (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }

  private view(jobId: string, l: Loaded): OpenTranscript {
    return { jobId, base: l.base, current: l.current, layer: l.layer, corrected: isCorrected(l.base, l.current) };
  }

  private serial<T>(jobId: string, f: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(jobId) ?? Promise.resolve();
    const run = prev.then(f, f);
    const tail = run.catch(() => undefined);
    this.locks.set(jobId, tail);
    void tail.then(() => {
      if (this.locks.get(jobId) === tail) this.locks.delete(jobId);
    });
    return run;
  }
}

/**
 * A job's transcript from its kept export and its corrections layer, as the review shows it: for
 * the editor above and for whoever reads transcripts without changing them (the selects, which the
 * CLI reads while the app runs). `cached` may answer for an export already built.
 */
export async function loadTranscript(
  d: Pick<TranscriptEditorDeps, 'exportsDir' | 'store'>,
  job: JobRecord,
  cached: (hash: string) => Loaded | undefined = () => undefined,
): Promise<Loaded> {
  const text = await readFile(keptExportPath(d.exportsDir, job.id), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') throw new NoTranscriptError();
    throw e;
  });
  const hash = sha256(text);
  const hit = cached(hash);
  if (hit) return hit;
  const stored = await d.store.load(job.id);
  // Corrections made on an export since replaced start over on the new one (the old file stays
  // until the first new change replaces it).
  const layer = stored && stored.base === hash ? stored : { ...emptyLayer(hash), revision: stored?.revision ?? 0 };
  return buildTranscript(job, text, hash, layer);
}

function buildTranscript(job: JobRecord, text: string, hash: string, layer: CorrectionsLayer): Loaded {
  const result = parseExport(text);
  const normalized = normalizeExport(result, normalizeOptionsOf(job));
  const outline = seedOutline(result, normalized, sentFormats(job.params));
  const base: Transcript = { ...transcriptOf(normalized), ...(outline ? { outline } : {}) };
  let current: Transcript;
  try {
    current = replay(base, layer);
  } catch {
    // A layer that no longer fits (edited by hand): the service's transcript, nothing lost on disk.
    current = base;
  }
  return { hash, result, timeUnit: normalized.timeUnit, base, layer, current };
}
