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
import { spokenLanguage } from './normalize.js';
import { transcriptOf, type EditorFormat, type EditorRenderer, type RenderContext } from './render.js';

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
