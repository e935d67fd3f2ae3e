// Delivery of a finished job: the kept export (state dir) → every requested format beside the
// source, written atomically under the naming rules, never over a file Sluice did not write.
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { mkdirBelow } from '../watch/folder/folder-root.js';
import { findTemplate } from '../../service/templates.js';
import {
  CAPTION_FORMATS,
  CAPTION_RENDERERS,
  type CaptionFormat,
  isRenderedFiles,
  normalizeOptionsOf,
  paragraphStamper,
  type RenderedFiles,
  renderContextOf,
} from '../../engine/captions/render.js';
import { probeMediaFacts } from '../../media/probe.js';
import type { JobRecord, ResultFile, TimelineUsed } from '../../engine/job.js';
import { rateLabel } from '../../engine/timecode/rates.js';
import { edlPartSuffix } from '../../engine/captions/editors/edl.js';
import { clipTimeline, startTimecode } from '../../engine/timecode/timeline.js';
import { isLinkJob } from '../../engine/media-link.js';
import { normalizeExport, parseExport, type NormalizedTranscript } from '../../engine/captions/normalize.js';
import { CAPTION_PRESETS } from '../../engine/captions/presets.js';
import { languageTaggedExtension, withMoreCaptions } from './caption-names.js';
import { sentGlossary } from '../../engine/recipes/glossary.js';
import { DEFAULT_OUTPUT, type ResultFormat } from '../../engine/settings.js';
import { RECIPE_RENDERERS, recipeNotes } from '../../engine/recipes/render.js';
import {
  EDITOR_FORMATS,
  formatExtension,
  RECIPE_FORMATS,
  TIMECODED_FORMATS,
  WORD_FORMATS,
  type EditorFormat,
  type RecipeFormat,
} from '../../../common/formats.js';
import { resultAnchor } from './link-destination.js';
import { currentPath } from '../../engine/source-path.js';
import { expandPattern, patternProblem } from '../../engine/result-place.js';
import { fitName } from './name-fit.js';
import {
  chooseOutputPath,
  explainWriteError,
  nameParts,
  ResultWriteError,
  writeFilesAtomic,
  type Ownership,
} from './result-writer.js';

export { ResultOwnership } from './result-ownership.js';

type Rendered = string | Uint8Array | RenderedFiles | null;

const isEditorFormat = (f: string): f is EditorFormat => (EDITOR_FORMATS as readonly string[]).includes(f);

/**
 * Renders one format from the export's JSON text. JSON is saved exactly as received (§6.6), unless
 * the editor corrected it: then `text` is the corrected export and `transcript` its words.
 * null = the export has nothing for this format (md without intelligence): no file, no record.
 */
export type Renderer = (
  exportText: string,
  job: JobRecord,
  transcript?: NormalizedTranscript,
) => Rendered | Promise<Rendered>;

/** A transcript the editor corrected: the export to save in its place, and its words. */
export interface CorrectedSource {
  exportText: string;
  transcript: NormalizedTranscript;
}

/** A writer for every format of the table (common/formats.ts): a format without one does not compile. */
export const RENDERERS: Record<ResultFormat, Renderer> = {
  json: (text) => text,
  ...(Object.fromEntries(
    CAPTION_FORMATS.map((f) => [
      f,
      async (text: string, job: JobRecord, transcript?: NormalizedTranscript) => {
        const ctx = { ...renderContextOf(job), ...(transcript ? { transcript } : {}) };
        if (!isEditorFormat(f)) return CAPTION_RENDERERS[f](text, ctx);
        // Loaded on first use: the XML library behind them is most of a command's start-up.
        const { EDITOR_RENDERERS } = await import('../../engine/captions/editor-renderers.js');
        return EDITOR_RENDERERS[f](text, ctx);
      },
    ]),
  ) as Record<CaptionFormat, Renderer>),
  docx: async (text, job, transcript) => {
    const { renderDocx } = await import('./render-docx.js');
    const t = transcript ?? normalizeExport(text, normalizeOptionsOf(job));
    const context = renderContextOf(job);
    return renderDocx(t, context.sourceName, paragraphStamper(t, context));
  },
  ...(Object.fromEntries(
    RECIPE_FORMATS.map((f) => [
      f,
      (text: string, job: JobRecord, transcript?: NormalizedTranscript) =>
        RECIPE_RENDERERS[f](text, { ...renderContextOf(job), ...(transcript ? { transcript } : {}) }),
    ]),
  ) as Record<RecipeFormat, Renderer>),
};

/** Result extensions, so the watcher never takes Sluice's own outputs. */
export function resultExtensions(): string[] {
  return (Object.keys(RENDERERS) as ResultFormat[]).map(formatExtension);
}

/**
 * `{name}` `{ext}` `{template}` `{date}` → the output base name (without the format extension);
 * the pattern's own `/` make subfolders of the results folder (result-place.ts).
 */
export function outputBaseName(pattern: string, job: JobRecord, now: Date): { folders: string[]; stem: string } {
  const { name, ext } = nameParts(resultAnchor(job));
  const template = findTemplate(job.templateId)?.name ?? job.templateId;
  return expandPattern(pattern, { name, ext, template, date: now.toISOString().slice(0, 10) });
}

/**
 * The folder the results go in, made when it is not there: the source's own folder always is; a
 * link's folder (Downloads) may not be yet; an output folder must be (a drive not connected is not
 * made again on the system disk), the folders below it and the pattern's subfolders are made.
 */
async function resultFolder(job: JobRecord, anchor: string, folders: readonly string[]): Promise<string> {
  const dir = path.join(path.dirname(anchor), ...folders.map((f) => fitName(f, '').name));
  if (!isLinkJob(job) && job.resultsDir !== undefined) {
    const root = await stat(job.resultsDir).catch(() => undefined);
    if (!root?.isDirectory()) {
      throw new ResultWriteError(
        `The output folder ${job.resultsDir} is not there (a drive not connected?); connect it, or choose another output folder for the watch folder, then save the results again.`,
        'ENOENT',
      );
    }
  }
  if (dir !== path.dirname(anchor) || isLinkJob(job) || job.resultsDir !== undefined) {
    // Below the output folder or the source's own folder only: a watched folder that went away is
    // never made again as a local folder (folder-root.ts). A link's folder (Downloads) may be.
    const made = isLinkJob(job)
      ? mkdir(dir, { recursive: true })
      : mkdirBelow(job.resultsDir ?? path.dirname(anchor), dir);
    await made.catch((e: unknown) => {
      throw explainWriteError(e, path.join(dir, path.basename(anchor)));
    });
  }
  return dir;
}

/** The longest name a second caption layout puts in a result's name (`.vertical.srt`). */
function longestLayout(): string {
  return Object.keys(CAPTION_PRESETS).reduce((a, b) => (b.length > a.length ? b : a), '');
}

/**
 * Bytes of the longest suffix a result can have: `.{longest caption layout}.{3-letter language}.
 * {longest extension}` (a layout only on caption formats, but the bound may be loose, not short).
 */
const LONGEST_SUFFIX = Math.max(
  ...(Object.keys(RENDERERS) as ResultFormat[]).map((f) =>
    Buffer.byteLength(`.${longestLayout()}.xxx.${formatExtension(f)}`),
  ),
  Buffer.byteLength(`.${edlPartSuffix(99)}.xxx.edl`),
);

/** Formats read from the transcript's words alone: with no words there is nothing to put in them. */
const needsWords = (f: ResultFormat): boolean => (WORD_FORMATS as readonly ResultFormat[]).includes(f);

/**
 * A transcription came back and holds no words (silent or speechless media). Players reject the
 * empty caption files this would give, so only the JSON (and a Markdown summary, when asked) is kept.
 */
export function hasNoSpeech(exportText: string): boolean {
  const r = parseExport(exportText);
  if (r.transcription === undefined && r.utterances === undefined && r.enhancedTranscription === undefined)
    return false;
  const t = normalizeExport(r);
  return t.words.length === 0 && t.text === '';
}

/**
 * The editor formats (and DOCX and TXT stamps) start at the media's own timecode: a job that asks
 * for them and carries no facts yet has its source read once here (cheap beside the upload, and
 * only for these formats).
 */
async function withMediaFacts(job: JobRecord): Promise<JobRecord> {
  const formats = job.output?.formats ?? [];
  // DOCX's stamps, and TXT's when asked, are at the source timecode too.
  const stamped = formats.includes('docx') || (job.output?.txtTimestamps === true && formats.includes('txt'));
  const wanted = stamped || formats.some((f) => TIMECODED_FORMATS.includes(f));
  if (!wanted || job.mediaFacts || isLinkJob(job)) return job;
  const mediaFacts = await probeMediaFacts(currentPath(job)).catch(() => undefined);
  return mediaFacts ? { ...job, mediaFacts } : job;
}

/**
 * Where the editor formats' timeline starts for this job, as they are written (null: a bad start),
 * and what the job says about it: a start moved off midnight, a source timecode refused.
 */
function timelineUsed(job: JobRecord, lastWordMs: number): { used: TimelineUsed; notes: string[] } | null {
  try {
    const facts = job.mediaFacts ?? null;
    const t = clipTimeline(facts, job.output?.timeline, lastWordMs, job.mediaDurationMs);
    return {
      used: { start: startTimecode(t), rate: rateLabel(t.rate), origin: t.origin },
      notes: [...(facts?.startNote ? [facts.startNote] : []), ...t.notes],
    };
  } catch {
    return null;
  }
}

export async function writeResults(
  given: JobRecord,
  exportPath: string,
  ownership: Ownership,
  now: Date = new Date(),
  corrected?: CorrectedSource,
): Promise<ResultFile[]> {
  const job = await withMediaFacts(given);
  const output = job.output ?? DEFAULT_OUTPUT;
  const text =
    corrected?.exportText ??
    (await readFile(exportPath, 'utf8').catch((e: unknown) => {
      throw new ResultWriteError(
        `The kept export ${exportPath} could not be read (${(e as NodeJS.ErrnoException).code ?? String(e)}).`,
        (e as NodeJS.ErrnoException).code,
      );
    }));
  const problem = patternProblem(output.pattern);
  if (problem) throw new ResultWriteError(`The file-name pattern is refused: ${problem}`, 'EINVAL');
  const { folders, stem: base } = outputBaseName(output.pattern, job, now);
  const anchor = path.join(await resultFolder(job, resultAnchor(job), folders), path.basename(resultAnchor(job)));
  const planned: Array<{
    format: ResultFormat;
    target: string;
    data: string | Uint8Array;
    collided: boolean;
    shortened: boolean;
    heldBy?: string;
  }> = [];
  // JSON first: it is always kept, and the other formats are derived from it.
  const noSpeech = hasNoSpeech(text);
  const formats = [...new Set<ResultFormat>(['json', ...output.formats])].filter((f) => !(noSpeech && needsWords(f)));
  // A shortened stem is the same for all of a job's formats (cut for the longest suffix any result
  // can have), now and when it is written again with others. A second caption layout goes before
  // the language: `{name}.vertical.en.srt`.
  const suffixOf = (format: ResultFormat, layout?: string): string => {
    const fileExt = formatExtension(format);
    const languaged = format === 'json' || !output.languageSuffix ? fileExt : `${output.languageSuffix}.${fileExt}`;
    return layout ? `${layout}.${languaged}` : languaged;
  };
  const writes = withMoreCaptions(formats, job, output);
  const suffixes = writes.map((w) => `.${suffixOf(w.format, w.layout)}`);
  let deliveredElsewhere = false;
  const splitNotes: string[] = [];
  for (const { format, layout, job: renderJob } of writes) {
    const render = RENDERERS[format];
    if (!render) throw new ResultWriteError(`The ${format} format is not available.`, undefined);
    const rendered = await render(text, renderJob, corrected?.transcript);
    if (rendered === null) continue;
    // A format in several files (Resolve's EDL past 999 markers): `{name}.edl`, `{name}.markers-2.edl`…
    const parts: ReadonlyArray<{ text: string | Uint8Array; suffix?: string }> = isRenderedFiles(rendered)
      ? rendered.parts
      : [{ text: rendered }];
    const partPaths: string[] = [];
    for (const { text: content, suffix } of parts) {
      // `{name}.en.srt`: players pick the language from the suffix; the JSON keeps the plain name.
      const ext = suffixOf(format, suffix ?? layout);
      const alt = languageTaggedExtension(format, formatExtension(format), text, job, output, suffix ?? layout);
      const target = await chooseOutputPath(anchor, base, ext, ownership, content, suffixes, LONGEST_SUFFIX, alt);
      // Team mode: another computer delivered this stream here (below). Its results under the usual
      // names are left as it wrote them (its settings chose them), rather than copied aside as
      // `{name}.wav.srt`; this computer adds the formats it asks for that are not there yet.
      if (deliveredElsewhere && target?.collided) continue;
      if (format === 'json' && !layout && target && !target.collided) {
        deliveredElsewhere = await writtenByAnotherComputer(job, target.path, content, ownership);
      }
      if (!target) {
        throw new ResultWriteError(
          `Both ${base}.${ext} and its fallback name in ${path.dirname(anchor)} belong to other files; rename or move them.`,
          'EEXIST',
        );
      }
      planned.push({
        format,
        target: target.path,
        data: content,
        collided: target.collided,
        shortened: !!target.shortened,
        ...(target.heldBy ? { heldBy: target.heldBy } : {}),
      });
      partPaths.push(path.basename(target.path));
    }
    if (isRenderedFiles(rendered) && partPaths.length > 0) splitNotes.push(rendered.note(partPaths));
  }
  // All the job's formats or none: a half-delivered set would look complete to a reader.
  const mode = await modeOf(isLinkJob(job) ? anchor : currentPath(job));
  const stamps = await writeFilesAtomic(planned, { writer: job.id.slice(0, 8), mode });
  const read = normalizeExport(text, normalizeOptionsOf(job));
  const words = (corrected?.transcript ?? read).words;
  // What the glossary respelt is counted on the service's export, not on the editor's corrections.
  const kept = corrected ? await readFile(exportPath, 'utf8').catch(() => undefined) : text;
  const received =
    kept === undefined ? undefined : kept === text ? read : normalizeExport(kept, normalizeOptionsOf(job));
  const timeline = timelineUsed(job, words[words.length - 1]?.endMs ?? 0);
  const stamped =
    formats.some((f) => TIMECODED_FORMATS.includes(f)) || (output.txtTimestamps && formats.includes('txt'));
  const notes = [
    ...recipeNotes(text, formats, {
      ...renderContextOf(job),
      ...(corrected ? { transcript: corrected.transcript } : {}),
    }),
    ...(timeline && (stamped || formats.includes('docx')) ? timeline.notes : []),
    ...splitNotes,
    ...(received ? glossaryNote(job, received, formats) : []),
  ];
  return planned.map((p, i) => ({
    format: p.format,
    path: p.target,
    writtenBySluice: true,
    ...stamps[i],
    ...(p.collided ? { collided: true } : {}),
    ...(p.heldBy ? { heldBy: p.heldBy } : {}),
    ...(p.shortened ? { shortened: true } : {}),
    ...(noSpeech && p.format === 'json' ? { noSpeech: true } : {}),
    ...(notes.length > 0 && p.format === 'json' ? { notes } : {}),
    ...(timeline && TIMECODED_FORMATS.includes(p.format) ? { timeline: timeline.used } : {}),
  }));
}

/**
 * What the job's glossary did to the words the formats read (the JSON keeps the export as received):
 * how many it respelt, or that the service sent no enhanced transcription to take them from.
 */
function glossaryNote(job: JobRecord, read: NormalizedTranscript, formats: readonly ResultFormat[]): string[] {
  if (sentGlossary(job.params).length === 0 || !formats.some(needsWords)) return [];
  if (read.respelled === undefined) {
    return ['Glossary not applied: the service sent no enhanced transcription, so the words are spelt as heard.'];
  }
  return [`Glossary applied: ${read.respelled} ${read.respelled === 1 ? 'word' : 'words'} respelled.`];
}

/**
 * A shared folder's file whose JSON another Sluice already wrote under the usual name: a file not
 * ours holding exactly this export (the service's export of one stream is the same bytes on every
 * computer), which only a computer that processed this very stream writes there.
 */
async function writtenByAnotherComputer(
  job: JobRecord,
  jsonPath: string,
  content: string | Uint8Array,
  ownership: Ownership,
): Promise<boolean> {
  if (!job.shared) return false;
  const current = await stat(jsonPath).catch(() => null);
  if (!current?.isFile() || (await ownership.isOurs(jsonPath, { size: current.size, mtimeMs: current.mtimeMs })))
    return false;
  const expected = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  if (current.size !== expected.length) return false;
  const actual = await readFile(jsonPath).catch(() => null);
  return actual !== null && actual.equals(expected);
}

/**
 * Results are as private as their source: a recording only its owner may read gets transcripts
 * only its owner may read (uploads in the state folder's inbox are 0600). Read and write bits only.
 */
async function modeOf(sourcePath: string): Promise<number> {
  const st = await stat(sourcePath).catch(() => null);
  return st ? (st.mode & 0o666) | 0o600 : 0o644;
}
