// The caption formats as renderers of the saved export text: the port results.ts plugs in.
// Pure: everything a renderer needs from the job is read into a RenderContext first.
import type { JobRecord } from '../job.js';
import { currentPath } from '../source-path.js';
import type { MediaFacts } from '../media-facts.js';
import { clipTimeline, paragraphStamp, timelineOf, type TimelineSettings } from '../timecode/timeline.js';
import type { MarkerSource } from './editors/marker-sources.js';
import {
  EDITOR_FORMATS,
  MEDIA_NAMING_FORMATS,
  RECIPE_FORMATS,
  RESULT_FORMATS,
  WORD_FORMATS,
  type EditorFormat,
  type RecipeFormat,
  type ResultFormat,
} from '../../../common/formats.js';
import { buildCues, type CueOptions } from './cues.js';
import { renderCsv, renderSrt, renderTxt, renderVtt } from './formats.js';
import { questionsFromParams, renderMarkdown } from './markdown.js';
import { normalizeExport, parseExport, type NormalizedTranscript, type NormalizeOptions } from './normalize.js';
import { cueOptionsOf } from './presets.js';
import { sentGlossary } from '../recipes/glossary.js';
import { sentFormats, type AnswerFormats } from '../recipes/answers.js';

// Which formats are which is the table's (common/formats.ts); this module writes the ones made
// from the export's text by the caption writers and the editor writers (editors/).
export { EDITOR_FORMATS, WORD_FORMATS, type EditorFormat };

/** Every format but the JSON (kept as received), DOCX (adapters/results/) and the recipes' (recipes/). */
export type CaptionFormat = Exclude<ResultFormat, RecipeFormat | 'json' | 'docx'>;
export const CAPTION_FORMATS: readonly CaptionFormat[] = RESULT_FORMATS.filter(
  (f): f is CaptionFormat => !(RECIPE_FORMATS as readonly string[]).includes(f) && f !== 'json' && f !== 'docx',
);

/** The media's name is in the file: written again when the file is renamed or moved. */
export const namesMedia = (format: ResultFormat): boolean => MEDIA_NAMING_FORMATS.includes(format);

export interface RenderContext {
  sourceName: string;
  mediaDurationMs?: number;
  txtTimestamps?: boolean;
  questions?: Readonly<Record<string, string>>;
  cues?: Partial<CueOptions>;
  /** The corrected transcript, when the editor changed it: read instead of the export's words. */
  transcript?: NormalizedTranscript;
  /** The source's path, which the editor formats link the media by. */
  sourcePath?: string;
  /** What the media says about its own timeline; null or absent: 00:00:00:00 on the default rate. */
  mediaFacts?: MediaFacts | null;
  /** Where the timeline starts and the rate for media without one (absent: source, 25 fps). */
  timeline?: TimelineSettings;
  /** The language the transcription was asked in, when one was. */
  language?: string;
  /** Which markers the editor formats carry (absent: paragraphs and the editor's own). */
  markerSources?: readonly MarkerSource[];
  /** The glossary the job sent: its spelling wins in the words (respell.ts). */
  glossary?: readonly string[];
  /** The formats the job sent for its answers (recipes/answers.ts). */
  answerFormats?: AnswerFormats;
}

/** How a job's export is read into words: its media's length, and the glossary it sent. */
export function normalizeOptionsOf(job: JobRecord): NormalizeOptions {
  const glossary = sentGlossary(job.params);
  return {
    ...(job.mediaDurationMs === undefined ? {} : { mediaDurationMs: job.mediaDurationMs }),
    ...(glossary.length > 0 ? { glossary } : {}),
  };
}

/** The language asked for: `language` (the first, when several), else the results' name suffix. */
function askedLanguage(job: JobRecord): string | undefined {
  const asked = job.params.language;
  const first = Array.isArray(asked) ? asked[0] : typeof asked === 'string' ? asked : undefined;
  return first ?? job.output?.languageSuffix ?? undefined;
}

export function renderContextOf(job: JobRecord): RenderContext {
  return {
    sourceName: currentPath(job).split(/[/\\]/).pop() ?? currentPath(job),
    ...(job.mediaDurationMs === undefined ? {} : { mediaDurationMs: job.mediaDurationMs }),
    // Jobs persisted before the option existed carry no value: off.
    txtTimestamps: job.output?.txtTimestamps === true,
    questions: questionsFromParams(job.params),
    cues: cueOptionsOf(job.output?.captions),
    // Where the media is now: the editor formats link it, and a renamed clip must not come in offline.
    sourcePath: currentPath(job),
    mediaFacts: job.mediaFacts ?? null,
    ...(job.output?.timeline ? { timeline: job.output.timeline } : {}),
    ...(job.output?.markers ? { markerSources: job.output.markers } : {}),
    ...(askedLanguage(job) ? { language: askedLanguage(job) } : {}),
    ...normalizeOptionsOf(job),
    answerFormats: sentFormats(job.params),
  };
}

/**
 * A format written as several files (Resolve's marker EDL past 999 markers): the first under the
 * format's usual name, each other as `{name}.{suffix}.{ext}`; `note` tells the job why, given the
 * names the files were written under.
 */
export interface RenderedFiles {
  parts: ReadonlyArray<{ text: string; suffix?: string }>;
  note: (fileNames: readonly string[]) => string;
}

export const isRenderedFiles = (r: unknown): r is RenderedFiles =>
  typeof r === 'object' && r !== null && Array.isArray((r as { parts?: unknown }).parts);

/** null = this export has nothing for the format (the writer then skips it). */
export type CaptionRenderer = (exportText: string, ctx: RenderContext) => string | null;

/** An editor format's renderer: one file, or several (RenderedFiles). */
export type EditorRenderer = (exportText: string, ctx: RenderContext) => string | RenderedFiles | null;

export const transcriptOf = (text: string, ctx: RenderContext): NormalizedTranscript =>
  ctx.transcript ??
  normalizeExport(text, { mediaDurationMs: ctx.mediaDurationMs, ...(ctx.glossary ? { glossary: ctx.glossary } : {}) });
const cuesOf = (text: string, ctx: RenderContext) => buildCues(transcriptOf(text, ctx).words, ctx.cues);

/**
 * TXT's and DOCX's paragraph stamps: at the source timecode, on the editor formats' timeline, when
 * the clip has one; the clock from the media's start otherwise (and where a fixed start does not
 * exist on the clip's rate, which the editor formats then report).
 */
export function paragraphStamper(t: NormalizedTranscript, ctx: RenderContext): (ms: number) => string {
  try {
    const last = t.words[t.words.length - 1]?.endMs ?? 0;
    const timeline = clipTimeline(ctx.mediaFacts ?? null, ctx.timeline, last, ctx.mediaDurationMs);
    return (ms) => paragraphStamp(timeline, ms);
  } catch {
    return (ms) => paragraphStamp({ ...timelineOf(null), origin: 'none' }, ms);
  }
}

/**
 * The plain caption formats. The editor formats' renderers are in `editor-renderers.ts`, loaded
 * when one is written: their XML library is most of a command's start-up otherwise.
 */
export const CAPTION_RENDERERS: Record<Exclude<CaptionFormat, EditorFormat>, CaptionRenderer> = {
  srt: (text, ctx) => renderSrt(cuesOf(text, ctx)),
  vtt: (text, ctx) => renderVtt(cuesOf(text, ctx)),
  csv: (text, ctx) => renderCsv(cuesOf(text, ctx)),
  txt: (text, ctx) => {
    const t = transcriptOf(text, ctx);
    const stamp = ctx.txtTimestamps === true ? paragraphStamper(t, ctx) : undefined;
    return renderTxt(t, { timestamps: ctx.txtTimestamps === true, ...(stamp ? { stamp } : {}) });
  },
  md: (text, ctx) => renderMarkdown(parseExport(text), ctx),
};
