// The caption formats as renderers of the saved export text: the port results.ts plugs in.
// Pure: everything a renderer needs from the job is read into a RenderContext first.
import type { JobRecord } from '../job.js';
import type { ResultFormat } from '../settings.js';
import { buildCues, type CueOptions } from './cues.js';
import { renderCsv, renderSrt, renderTxt, renderVtt } from './formats.js';
import { questionsFromParams, renderMarkdown } from './markdown.js';
import { normalizeExport, parseExport, type NormalizedTranscript } from './normalize.js';
import { cueOptionsOf } from './presets.js';

export const CAPTION_FORMATS = ['srt', 'vtt', 'txt', 'csv', 'md'] as const;
export type CaptionFormat = (typeof CAPTION_FORMATS)[number];

/**
 * Formats made from the transcript's words alone: media with no speech gets none of them (only
 * the JSON, and Markdown when asked). The contract keeps a mirror for the renderer's explanation.
 */
export const WORD_FORMATS = ['srt', 'vtt', 'txt', 'csv', 'docx'] as const satisfies readonly ResultFormat[];

export interface RenderContext {
  sourceName: string;
  mediaDurationMs?: number;
  txtTimestamps?: boolean;
  questions?: Readonly<Record<string, string>>;
  cues?: Partial<CueOptions>;
  /** The corrected transcript, when the editor changed it: read instead of the export's words. */
  transcript?: NormalizedTranscript;
}

export function renderContextOf(job: JobRecord): RenderContext {
  return {
    sourceName: job.source.path.split(/[/\\]/).pop() ?? job.source.path,
    ...(job.mediaDurationMs === undefined ? {} : { mediaDurationMs: job.mediaDurationMs }),
    // Jobs persisted before the option existed carry no value: off.
    txtTimestamps: job.output?.txtTimestamps === true,
    questions: questionsFromParams(job.params),
    cues: cueOptionsOf(job.output?.captions),
  };
}

/** null = this export has nothing for the format (the writer then skips it). */
export type CaptionRenderer = (exportText: string, ctx: RenderContext) => string | null;

const transcriptOf = (text: string, ctx: RenderContext): NormalizedTranscript =>
  ctx.transcript ?? normalizeExport(text, { mediaDurationMs: ctx.mediaDurationMs });
const cuesOf = (text: string, ctx: RenderContext) => buildCues(transcriptOf(text, ctx).words, ctx.cues);

export const CAPTION_RENDERERS: Record<CaptionFormat, CaptionRenderer> = {
  srt: (text, ctx) => renderSrt(cuesOf(text, ctx)),
  vtt: (text, ctx) => renderVtt(cuesOf(text, ctx)),
  csv: (text, ctx) => renderCsv(cuesOf(text, ctx)),
  txt: (text, ctx) =>
    renderTxt(transcriptOf(text, ctx), {
      timestamps: ctx.txtTimestamps === true,
    }),
  md: (text, ctx) => renderMarkdown(parseExport(text), ctx),
};
