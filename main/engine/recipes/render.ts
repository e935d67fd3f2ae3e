// The recipe result formats as renderers of the saved export text, like CAPTION_RENDERERS: the
// writer plugs them in beside the caption formats. Pure.
import { normalizeExport, parseExport, type NormalizedTranscript } from '../captions/normalize.js';
import { renderFfmetadata, renderJsonChapters, renderYoutube, youtubeProblem } from './chapter-formats.js';
import type { AnswerFormats } from './answers.js';
import { buildOutline, type Outline } from './outline.js';
import { ANSWER_IDS, type Recipe } from './recipes.js';
import { renderShownotes } from './shownotes.js';
import { CHAPTER_FORMATS, RECIPE_FORMATS, type RecipeFormat } from '../../../common/formats.js';

export { RECIPE_FORMATS, type RecipeFormat };

/**
 * The result files a recipe's answers make, ticked when a folder or the defaults choose it: the
 * Markdown and the show notes (its summary and answers) for every recipe, and the chapter files
 * for a recipe that asks for chapters. A custom recipe keeps its built-in's questions, so its files.
 */
export function recipeFormats(recipe: Pick<Recipe, 'prompts'>): Array<RecipeFormat | 'md'> {
  const chapters = recipe.prompts.some((p) => p.id === ANSWER_IDS.chapters);
  const others = RECIPE_FORMATS.filter((f) => !CHAPTER_FORMATS.includes(f));
  return ['md', ...(chapters ? CHAPTER_FORMATS : []), ...others];
}

export interface RecipeContext {
  sourceName: string;
  mediaDurationMs?: number;
  /** The corrected transcript, when the editor changed it. */
  transcript?: NormalizedTranscript;
  /** The glossary the job sent: its spelling wins in the words. */
  glossary?: readonly string[];
  /** The formats the job sent for its answers: each answer is read against its own. */
  answerFormats?: AnswerFormats;
}

export function outlineOf(exportText: string, ctx: RecipeContext): Outline {
  const result = parseExport(exportText);
  const transcript =
    ctx.transcript ??
    normalizeExport(result, {
      mediaDurationMs: ctx.mediaDurationMs,
      ...(ctx.glossary ? { glossary: ctx.glossary } : {}),
    });
  const edited = ctx.transcript?.outline;
  const formats = ctx.answerFormats ?? {};
  if (!edited) return buildOutline(result, transcript, formats);
  // Corrected in the review: the chapters and quotes as the editor left them, aligned once on the
  // service's words (so correcting a word never loses a chapter), with what the recipe left out.
  const o = buildOutline(result, { ...transcript, words: [] }, formats);
  const endMs = transcript.words.reduce((m, w) => Math.max(m, w.endMs), 0);
  return {
    ...o,
    chapters: edited.chapters.map((c) => ({ title: c.title, startMs: c.startMs })),
    quotes: edited.quotes.map(({ id: _id, typed: _typed, speaker, ...q }) => {
      const name = transcript.words.find((w) => w.speakerId === speaker)?.speaker ?? speaker;
      return { ...q, ...(name === undefined ? {} : { speaker: name }) };
    }),
    endMs,
    notes: [...edited.notes],
  };
}

export const RECIPE_RENDERERS: Record<RecipeFormat, (exportText: string, ctx: RecipeContext) => string | null> = {
  chapters: (text, ctx) => renderJsonChapters(outlineOf(text, ctx).chapters),
  youtube: (text, ctx) => renderYoutube(outlineOf(text, ctx).chapters),
  shownotes: (text, ctx) => renderShownotes(outlineOf(text, ctx), ctx.sourceName),
  ffmetadata: (text, ctx) => {
    const o = outlineOf(text, ctx);
    return renderFfmetadata(o.chapters, Math.max(ctx.mediaDurationMs ?? 0, o.endMs), o.title);
  },
};

/**
 * What a person should know about a recipe's answers: chapters and quotes left out (whatever the
 * formats: they are also markers, and the review lists them), and why a recipe format asked for was
 * not written. Empty when all went in, and for a job that asked no recipe questions.
 */
export function recipeNotes(exportText: string, formats: readonly string[], ctx: RecipeContext): string[] {
  const asked = formats.filter((f): f is RecipeFormat => (RECIPE_FORMATS as readonly string[]).includes(f));
  // Without a recipe format, only an export that carries chapter or quote answers is read again.
  const answered = exportText.includes(ANSWER_IDS.chapters) || exportText.includes(ANSWER_IDS.quotes);
  if (asked.length === 0 && !answered) return [];
  const o = outlineOf(exportText, ctx);
  const notes = [...o.notes];
  if (asked.length === 0) return notes;
  const chapterFormats = asked.filter((f) => CHAPTER_FORMATS.includes(f));
  if (chapterFormats.length > 0 && o.chapters.length === 0) {
    const what = `${chapterFormats.join(', ')} ${chapterFormats.length === 1 ? 'was' : 'were'} not written`;
    notes.push(
      o.chaptersBroken
        ? `No usable chapters came back for this file (the chapters answer could not be used), so ${what}.`
        : `No chapters came back for this file, so ${what}.`,
    );
  } else if (asked.includes('youtube')) {
    const why = youtubeProblem(o.chapters);
    if (why) notes.push(why);
  }
  if (asked.includes('shownotes') && renderShownotes(o, ctx.sourceName) === null) {
    notes.push('Show notes were not written: no summary, chapters, quotes or keywords came back (choose a recipe).');
  }
  return notes;
}
