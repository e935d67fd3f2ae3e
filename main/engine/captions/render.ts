// The caption formats as renderers of the saved export text: the port results.ts plugs in.
// Pure: everything a renderer needs from the job is read into a RenderContext first.
import type { JobRecord } from '../job.js';
import type { MediaFacts } from '../media-facts.js';
import type { TimelineSettings } from '../timecode/timeline.js';
import { outlineOf } from '../recipes/render.js';
import type { MarkerSource } from './editors/marker-sources.js';
import type { ResultFormat } from '../settings.js';
import { buildCues, type CueOptions } from './cues.js';
import { renderAvid } from './editors/avid.js';
import { editorDocument, languageTag, type EditorInput } from './editors/document.js';
import { renderEdl } from './editors/edl.js';
import { renderFcpxml } from './editors/fcpxml.js';
import { renderItt } from './editors/itt.js';
import { renderPremiere } from './editors/premiere.js';
import { renderTtml } from './editors/ttml.js';
import { renderCsv, renderSrt, renderTxt, renderVtt } from './formats.js';
import { questionsFromParams, renderMarkdown } from './markdown.js';
import { normalizeExport, parseExport, type NormalizedTranscript } from './normalize.js';
import { cueOptionsOf } from './presets.js';

/** Formats for an editor's timeline, anchored at the source timecode (editors/). */
export const EDITOR_FORMATS = ['fcpxml', 'itt', 'ttml', 'edl', 'premiere', 'avid'] as const;
export type EditorFormat = (typeof EDITOR_FORMATS)[number];
export const CAPTION_FORMATS = ['srt', 'vtt', 'txt', 'csv', 'md', ...EDITOR_FORMATS] as const;
export type CaptionFormat = (typeof CAPTION_FORMATS)[number];

/**
 * Formats made from the transcript's words alone: media with no speech gets none of them (only
 * the JSON, and Markdown when asked). The contract keeps a mirror for the renderer's explanation.
 */
export const WORD_FORMATS = [
  'srt',
  'vtt',
  'txt',
  'csv',
  'docx',
  ...EDITOR_FORMATS,
] as const satisfies readonly ResultFormat[];

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
}

/** The language asked for: `language` (the first, when several), else the results' name suffix. */
function askedLanguage(job: JobRecord): string | undefined {
  const asked = job.params.language;
  const first = Array.isArray(asked) ? asked[0] : typeof asked === 'string' ? asked : undefined;
  return first ?? job.output?.languageSuffix ?? undefined;
}

export function renderContextOf(job: JobRecord): RenderContext {
  return {
    sourceName: job.source.path.split(/[/\\]/).pop() ?? job.source.path,
    ...(job.mediaDurationMs === undefined ? {} : { mediaDurationMs: job.mediaDurationMs }),
    // Jobs persisted before the option existed carry no value: off.
    txtTimestamps: job.output?.txtTimestamps === true,
    questions: questionsFromParams(job.params),
    cues: cueOptionsOf(job.output?.captions),
    sourcePath: job.source.path,
    mediaFacts: job.mediaFacts ?? null,
    ...(job.output?.timeline ? { timeline: job.output.timeline } : {}),
    ...(job.output?.markers ? { markerSources: job.output.markers } : {}),
    ...(askedLanguage(job) ? { language: askedLanguage(job) } : {}),
  };
}

/** null = this export has nothing for the format (the writer then skips it). */
export type CaptionRenderer = (exportText: string, ctx: RenderContext) => string | null;

const transcriptOf = (text: string, ctx: RenderContext): NormalizedTranscript =>
  ctx.transcript ?? normalizeExport(text, { mediaDurationMs: ctx.mediaDurationMs });
const cuesOf = (text: string, ctx: RenderContext) => buildCues(transcriptOf(text, ctx).words, ctx.cues);

/** The language the words carry most often, when the export says. */
function spokenLanguage(text: string): string | undefined {
  const counts = new Map<string, number>();
  for (const w of parseExport(text).transcription?.words ?? []) {
    if (typeof w?.language === 'string' && w.language !== '') counts.set(w.language, (counts.get(w.language) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

const documentOf = (text: string, ctx: RenderContext) =>
  editorDocument({
    sourcePath: ctx.sourcePath ?? ctx.sourceName,
    transcript: transcriptOf(text, ctx),
    ...(ctx.cues ? { cues: ctx.cues } : {}),
    mediaFacts: ctx.mediaFacts ?? null,
    ...(ctx.timeline ? { timeline: ctx.timeline } : {}),
    ...(ctx.mediaDurationMs === undefined ? {} : { mediaDurationMs: ctx.mediaDurationMs }),
    language: languageTag([spokenLanguage(text), ctx.language]),
    ...(ctx.markerSources ? { markerSources: ctx.markerSources } : {}),
    ...recipeMarkersOf(text, ctx),
  });

/** A recipe's chapters and quotes, read only when a folder asks for them as markers. */
function recipeMarkersOf(text: string, ctx: RenderContext): Pick<EditorInput, 'chapters' | 'quotes'> {
  const wanted = (ctx.markerSources ?? []).filter((s) => s === 'chapters' || s === 'quotes');
  if (wanted.length === 0) return {};
  const o = outlineOf(text, ctx);
  return {
    ...(wanted.includes('chapters') ? { chapters: o.chapters } : {}),
    ...(wanted.includes('quotes') ? { quotes: o.quotes } : {}),
  };
}

export const CAPTION_RENDERERS: Record<CaptionFormat, CaptionRenderer> = {
  srt: (text, ctx) => renderSrt(cuesOf(text, ctx)),
  vtt: (text, ctx) => renderVtt(cuesOf(text, ctx)),
  csv: (text, ctx) => renderCsv(cuesOf(text, ctx)),
  txt: (text, ctx) =>
    renderTxt(transcriptOf(text, ctx), {
      timestamps: ctx.txtTimestamps === true,
    }),
  md: (text, ctx) => renderMarkdown(parseExport(text), ctx),
  fcpxml: (text, ctx) => renderFcpxml(documentOf(text, ctx)),
  itt: (text, ctx) => renderItt(documentOf(text, ctx)),
  ttml: (text, ctx) => renderTtml(documentOf(text, ctx)),
  edl: (text, ctx) => renderEdl(documentOf(text, ctx)),
  premiere: (text, ctx) => renderPremiere(documentOf(text, ctx)),
  avid: (text, ctx) => renderAvid(documentOf(text, ctx)),
};

/** File name endings that are not the format id: `{name}.premiere.xml` opens as XML, `{name}.avid.txt` as text. */
export function formatExtension(format: string): string {
  return format === 'premiere' ? 'premiere.xml' : format === 'avid' ? 'avid.txt' : format;
}
