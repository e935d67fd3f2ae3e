// The editor formats as renderers of the saved export text (see render.ts), in their own module:
// the XML library they build with is loaded only when one of them is written.
import { outlineOf } from '../recipes/render.js';
import { renderAvid } from './editors/avid.js';
import { editorDocument, languageTag, type EditorInput } from './editors/document.js';
import { edlFiles } from './editors/edl.js';
import { renderFcpxml } from './editors/fcpxml.js';
import { renderItt } from './editors/itt.js';
import { renderPremiere } from './editors/premiere.js';
import { renderTtml } from './editors/ttml.js';
import { parseExport } from './normalize.js';
import { transcriptOf, type EditorFormat, type EditorRenderer, type RenderContext } from './render.js';

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

export const EDITOR_RENDERERS: Record<EditorFormat, EditorRenderer> = {
  fcpxml: (text, ctx) => renderFcpxml(documentOf(text, ctx)),
  itt: (text, ctx) => renderItt(documentOf(text, ctx)),
  ttml: (text, ctx) => renderTtml(documentOf(text, ctx)),
  edl: (text, ctx) => edlFiles(documentOf(text, ctx)),
  premiere: (text, ctx) => renderPremiere(documentOf(text, ctx)),
  avid: (text, ctx) => renderAvid(documentOf(text, ctx)),
};
