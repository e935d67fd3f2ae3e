// The caption formats as renderers of the saved export text: the port results.ts plugs in.
// Pure: everything a renderer needs from the job is read into a RenderContext first.
import type { JobRecord } from '../job.js';
import { buildCues, type CueOptions } from './cues.js';
import { renderCsv, renderSrt, renderTxt, renderVtt } from './formats.js';
import { questionsFromParams, renderMarkdown } from './markdown.js';
import { normalizeExport, parseExport } from './normalize.js';

export const CAPTION_FORMATS = ['srt', 'vtt', 'txt', 'csv', 'md'] as const;
export type CaptionFormat = (typeof CAPTION_FORMATS)[number];

export interface RenderContext {
  sourceName: string;
  mediaDurationMs?: number;
  txtTimestamps?: boolean;
  questions?: Readonly<Record<string, string>>;
  cues?: Partial<CueOptions>;
}

export function renderContextOf(job: JobRecord): RenderContext {
  return {
    sourceName: job.source.path.split(/[/\\]/).pop() ?? job.source.path,
    ...(job.mediaDurationMs === undefined ? {} : { mediaDurationMs: job.mediaDurationMs }),
    // Jobs persisted before the option existed carry no value: off.
    txtTimestamps: job.output?.txtTimestamps === true,
    questions: questionsFromParams(job.params),
  };
}

/** null = this export has nothing for the format (the writer then skips it). */
export type CaptionRenderer = (exportText: string, ctx: RenderContext) => string | null;

const cuesOf = (text: string, ctx: RenderContext) =>
  buildCues(normalizeExport(text, { mediaDurationMs: ctx.mediaDurationMs }).words, ctx.cues);

export const CAPTION_RENDERERS: Record<CaptionFormat, CaptionRenderer> = {
  srt: (text, ctx) => renderSrt(cuesOf(text, ctx)),
  vtt: (text, ctx) => renderVtt(cuesOf(text, ctx)),
  csv: (text, ctx) => renderCsv(cuesOf(text, ctx)),
  txt: (text, ctx) =>
    renderTxt(normalizeExport(text, { mediaDurationMs: ctx.mediaDurationMs }), {
      timestamps: ctx.txtTimestamps === true,
    }),
  md: (text, ctx) => renderMarkdown(parseExport(text), ctx),
};
