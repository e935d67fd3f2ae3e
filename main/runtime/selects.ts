// Selects and string-outs over one state folder, for `sluice selects` (and later the app's screen):
// lists kept by the selects store, clips found through the jobs of the journal and the archive as
// they are now (read without taking the journal over, so this works while the app or `watch`
// runs), transcripts as corrected, and a list written out to the editors' formats. Each job is
// found at its file's current place (source-path.ts): a renamed or moved file keeps its selects.
import { randomUUID } from 'node:crypto';
import { STRING_OUT_ENDINGS, STRING_OUT_FORMATS, type StringOutFormat } from '../../common/string-out-formats.js';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadTranscript, NoTranscriptError } from '../adapters/results/transcript-editor.js';
import { renderScriptDocx } from '../adapters/results/render-script-docx.js';
import { writeFilesAtomic } from '../adapters/results/result-writer.js';
import { probeMediaFacts } from '../media/probe.js';
import { JobStore } from '../adapters/store/journal/job-store.js';
import { SelectsStore } from '../adapters/store/review/selects-store.js';
import { CorrectionsStore } from '../adapters/store/review/transcript-corrections.js';
import type { JobRecord } from '../engine/job.js';
import type { MediaFacts } from '../engine/media-facts.js';
import { isLinkJob } from '../engine/media-link.js';
import { renderStringOutEdl, STRING_OUT_EDL_MAX_EVENTS } from '../engine/selects/edl.js';
import { renderStringOutFcpxml } from '../engine/selects/fcpxml.js';
import { editList, needsTranscript, type ListEdit } from '../engine/selects/list-edits.js';
import { renderOtio } from '../engine/selects/otio.js';
import { renderScriptTxt, scriptOf } from '../engine/selects/script.js';
import { wordsFrom, type SelectSource } from '../engine/selects/select-from.js';
import {
  addSelect,
  findQuote,
  SelectError,
  wordsTouching,
  type SelectColour,
  type SelectList,
} from '../engine/selects/selects.js';
import {
  clipLabels,
  sourceLabelFrames,
  stringOut,
  type ClipSource,
  type StringOut,
  type StringOutOptions,
} from '../engine/selects/string-out.js';
import { renderStringOutXmeml } from '../engine/selects/xmeml.js';
import { currentPath } from '../engine/source-path.js';
import { frameToMs } from '../../common/frames.js';
import { formatTimecode, parseTimecode } from '../../common/timecode.js';
import { timelineRate } from '../engine/timecode/timeline.js';
import { DEFAULT_RATE_ID } from '../engine/timecode/rates.js';
import type { Transcript } from '../engine/transcript/transcript.js';

export { STRING_OUT_FORMATS, type StringOutFormat };
const ENDINGS = STRING_OUT_ENDINGS;

/** Where in the clip: the source timecode of its media (widened to the words touched), or a quote. */
export type SelectWhere = { fromTc: string; toTc: string } | { quote: string };

export interface AddSelect {
  list: string;
  file: string;
  where: SelectWhere;
  label?: string;
  note?: string;
  colour?: SelectColour;
}

export interface Exported {
  files: string[];
  stringOut: StringOut;
}

/** A list as the app shows it: the list, its timeline, and each placed clip's transcript now. */
export interface OpenList {
  list: SelectList;
  stringOut: StringOut;
  transcripts: ReadonlyMap<string, Transcript>;
}

export interface SelectsOptions {
  /**
   * The job of an id, as the app's own journal holds it (the app owns the journal); absent (the
   * CLI): the journal and the archive are read as they are on disk.
   */
  job?: (id: string) => JobRecord | undefined;
}

export class Selects {
  readonly store: SelectsStore;
  private readonly corrections: CorrectionsStore;

  constructor(
    private readonly stateDir: string,
    private readonly opts: SelectsOptions = {},
  ) {
    this.store = new SelectsStore(path.join(stateDir, 'selects'));
    this.corrections = new CorrectionsStore(path.join(stateDir, 'corrections'));
  }

  /** Every job as the journal and the archive hold it now. */
  private jobs(): JobRecord[] {
    return JobStore.snapshot<JobRecord>(this.stateDir);
  }

  /** Jobs by id: the app's journal when it was handed one, else read once from disk. */
  private jobLookup(): (id: string) => JobRecord | undefined {
    if (this.opts.job) return this.opts.job;
    const jobs = new Map(this.jobs().map((j) => [j.id, j]));
    return (id) => jobs.get(id);
  }

  /** Every list, by name, with its count of selects. */
  async lists(): Promise<Array<{ name: string; count: number }>> {
    return (await this.store.all()).map((l) => ({ name: l.name, count: l.selects.length }));
  }

  /** A select of a completed job's words [first, end) at the end of the list (made when there is none). */
  async addWords(
    name: string,
    jobId: string,
    range: [number, number],
    more: { label?: string; colour?: SelectColour } = {},
  ): Promise<SelectList> {
    const t = await this.transcript(this.completedJob(jobId));
    return this.store.update(name, (list) => addSelect(list, t, { id: randomUUID(), jobId, range, ...more }));
  }

  /**
   * A select of the words a moment, marker, chapter or pull quote of a completed job names
   * (select-from.ts), at the end of the list; the list and the new select's id.
   */
  async addFrom(name: string, jobId: string, from: SelectSource): Promise<{ list: SelectList; id: string }> {
    const t = await this.transcript(this.completedJob(jobId));
    const { range, label, colour } = wordsFrom(t, from);
    const id = randomUUID();
    const list = await this.store.update(name, (l) =>
      addSelect(l, t, { id, jobId, range, ...(label ? { label } : {}), ...(colour ? { colour } : {}) }),
    );
    return { list, id };
  }

  private completedJob(jobId: string): JobRecord {
    const job = this.jobLookup()(jobId);
    if (!job || job.state !== 'completed') {
      throw new SelectError('Selects are picked from a file whose transcript is in; this one has none yet.');
    }
    return job;
  }

  /** A change to a list that exists (a trim reads its clip's transcript first); saved before it returns. */
  async edit(name: string, e: ListEdit): Promise<SelectList> {
    let t: Transcript | undefined;
    if (needsTranscript(e)) {
      const s = (await this.store.load(name))?.selects.find((x) => x.id === e.id);
      const job = s ? this.jobLookup()(s.jobId) : undefined;
      t = job ? await this.transcript(job).catch(() => undefined) : undefined;
    }
    return this.store.update(name, (list) => editList(list, e, t), false);
  }

  /** The list, its timeline and its clips' transcripts, for the app's screens. */
  async open(name: string, options: StringOutOptions = {}): Promise<OpenList> {
    const list = await this.store.load(name);
    if (!list) throw new SelectError(`There is no list named "${name.trim()}".`);
    const { clips, missing } = await this.clipsOf(list);
    const transcripts = new Map([...clips].map(([id, c]) => [id, c.transcript]));
    return { list, stringOut: stringOut(list, clips, missing, options), transcripts };
  }

  /** What the media says about itself: the job's record, else one probe of the file (a job that asked for no editor format). */
  private async facts(job: JobRecord): Promise<MediaFacts | null> {
    if (job.mediaFacts) return job.mediaFacts;
    if (isLinkJob(job)) return null;
    return probeMediaFacts(currentPath(job)).catch(() => null);
  }

  private transcript(job: JobRecord): Promise<Transcript> {
    const d = { exportsDir: path.join(this.stateDir, 'exports'), store: this.corrections };
    return loadTranscript(d, job).then((l) => l.current);
  }

  /** The completed job of a file at its current place (the newest, when it was processed again). */
  jobOfFile(file: string): JobRecord {
    const abs = path.resolve(file);
    const jobs = this.jobs().filter((j) => currentPath(j) === abs);
    const done = jobs.filter((j) => j.state === 'completed').sort((a, b) => b.createdAt - a.createdAt)[0];
    if (done) return done;
    throw new SelectError(
      jobs.length > 0
        ? `${abs} has not finished processing (${jobs[0]!.state}); pick selects once its transcript is in.`
        : `${abs} was not processed with this state folder; run \`sluice process\` on it first.`,
    );
  }

  /** A select of `file`'s words at the end of the list (made when there is none); saved before it returns. */
  async add(a: AddSelect): Promise<SelectList> {
    const job = this.jobOfFile(a.file);
    const t = await this.transcript(job);
    const range = this.rangeOf(job, await this.facts(job), t, a.where);
    return this.store.update(a.list, (list) =>
      addSelect(list, t, {
        id: randomUUID(),
        jobId: job.id,
        range,
        ...(a.label === undefined ? {} : { label: a.label }),
        ...(a.note === undefined ? {} : { note: a.note }),
        ...(a.colour === undefined ? {} : { colour: a.colour }),
      }),
    );
  }

  private rangeOf(job: JobRecord, facts: MediaFacts | null, t: Transcript, where: SelectWhere): [number, number] {
    if ('quote' in where) {
      const found = findQuote(t.words, where.quote);
      if (!found) throw new SelectError(`"${where.quote}" is not in the transcript of ${currentPath(job)}.`);
      return found;
    }
    // The clip's timecode as the review shows it and the editor formats label it (or as the camera's
    // clock says it, past midnight).
    const rate = timelineRate(facts, job.output?.timeline?.defaultRate ?? DEFAULT_RATE_ID);
    const lastMs = t.words[t.words.length - 1]?.endMs ?? 0;
    const clip = clipLabels(facts, rate, Math.max(facts?.durationMs ?? job.mediaDurationMs ?? 0, lastMs));
    const at = (tc: string): number => {
      const frames = sourceLabelFrames(parseTimecode(tc, rate), clip, rate);
      if (frames === null) {
        const first = formatTimecode(clip.labelStartFrame, rate);
        const end = formatTimecode(clip.labelStartFrame + clip.lengthFrames, rate);
        throw new SelectError(`${tc} is not within the media (its timecode runs from ${first} to ${end}).`);
      }
      return frameToMs(frames, rate);
    };
    const fromMs = at(where.fromTc);
    const toMs = at(where.toTc);
    if (toMs < fromMs) throw new SelectError(`--to ${where.toTc} is before --from ${where.fromTc}.`);
    const found = wordsTouching(t.words, fromMs, toMs);
    if (!found) throw new SelectError(`No words are spoken between ${where.fromTc} and ${where.toTc}.`);
    return found;
  }

  /** The list as a timeline: its clips found where their files are now, the missing ones named. */
  async stringOut(name: string, options: StringOutOptions = {}): Promise<StringOut> {
    return (await this.open(name, options)).stringOut;
  }

  /** The clips a list names, found where their files are now; those that cannot be placed, and why. */
  private async clipsOf(list: SelectList): Promise<{
    clips: Map<string, ClipSource>;
    missing: Map<string, { reason: string; path?: string }>;
  }> {
    const jobOf = this.jobLookup();
    const clips = new Map<string, ClipSource>();
    const missing = new Map<string, { reason: string; path?: string }>();
    for (const jobId of new Set(list.selects.map((s) => s.jobId))) {
      const job = jobOf(jobId);
      if (!job) continue;
      const where = currentPath(job);
      if (!existsSync(where)) {
        missing.set(jobId, { reason: 'its media is not where it was (moved or deleted)', path: where });
        continue;
      }
      try {
        clips.set(jobId, {
          jobId,
          path: where,
          transcript: await this.transcript(job),
          facts: await this.facts(job),
          ...(job.mediaDurationMs === undefined ? {} : { mediaDurationMs: job.mediaDurationMs }),
        });
      } catch (e) {
        if (!(e instanceof NoTranscriptError)) throw e;
        missing.set(jobId, { reason: 'its transcript is no longer kept on this computer', path: where });
      }
    }
    return { clips, missing };
  }

  /**
   * The list written to `outDir` in `formats`, named after it; every file or none (written
   * beside each other, then renamed into place). Returns the files and the timeline they hold.
   */
  async export(
    name: string,
    formats: readonly StringOutFormat[],
    outDir: string,
    options: StringOutOptions = {},
  ): Promise<Exported> {
    const so = await this.stringOut(name, options);
    if (so.bites.length === 0) {
      throw new SelectError(
        `The list "${so.name}" has no bite to export${so.missing.length > 0 ? ' (its clips are missing)' : ''}.`,
      );
    }
    if (so.bites.length > STRING_OUT_EDL_MAX_EVENTS && formats.includes('edl')) {
      so.notes.push(
        `An EDL holds ${STRING_OUT_EDL_MAX_EVENTS} events: the bites after that are only in the other formats.`,
      );
    }
    const base = path.join(path.resolve(outDir), so.name);
    const files: Array<{ target: string; data: string | Uint8Array }> = [];
    for (const f of formats) {
      const [first, second] = ENDINGS[f];
      if (f === 'otio') files.push({ target: base + first, data: renderOtio(so) });
      if (f === 'fcpxml') files.push({ target: base + first, data: renderStringOutFcpxml(so) });
      if (f === 'premiere') files.push({ target: base + first, data: renderStringOutXmeml(so) });
      if (f === 'edl') files.push({ target: base + first, data: renderStringOutEdl(so) });
      if (f === 'script') {
        const script = scriptOf(so);
        files.push({ target: base + first, data: await renderScriptDocx(script) });
        files.push({ target: base + second!, data: renderScriptTxt(script) });
      }
    }
    try {
      await mkdir(path.dirname(base), { recursive: true });
      await writeFilesAtomic(files);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new SelectError(
        `Could not write into ${path.dirname(base)} (${code}); nothing was written. Choose another --out folder.`,
      );
    }
    return { files: files.map((f) => f.target), stringOut: so };
  }
}
