// The result formats as people see them, and which of them a job's results can hold: shared by the
// folder and default output settings and by History's "Re-export results…".
import { WORD_FORMATS, type CaptionPresetId, type Params, type ResultFormat } from '../../../preload/contract.js';
import { CHAPTER_FORMATS } from '../../../common/formats.js';
import { CAPTION_PRESET_IDS, captionPresetLabel } from '../../../common/caption-presets.js';

// The formats, their labels and groups are the table's (common/formats.ts).
export { FORMAT_GROUPS, FORMATS } from '../../../common/formats.js';

/** The caption layouts as the choosers list them, labelled from the presets' own numbers. */
export const CAPTION_PRESET_CHOICES: ReadonlyArray<{ id: CaptionPresetId; label: string }> = CAPTION_PRESET_IDS.map(
  (id) => ({ id, label: captionPresetLabel(id) }),
);

export const JSON_KEPT = 'Always kept: every other format is made from it.';

/**
 * Markdown holds the summary, the sentiment and the answers; without any of them there is nothing
 * to write. A chosen recipe asks for a summary and answers of its own.
 */
export function markdownHasContent(params: Params | undefined, recipe?: string | null): boolean {
  return (
    params === undefined ||
    !!recipe ||
    params.summary === true ||
    params.sentimentAnalysis === true ||
    Object.entries(params).some(([k, v]) => /^ask\d+$/.test(k) && typeof v === 'string' && v.trim() !== '')
  );
}

export const NO_MARKDOWN =
  'Not written for these settings: Markdown holds a summary, sentiment or answers, and none is asked for.';

/** The recipe formats' line when no recipe is chosen: they are made from a recipe's answers only. */
export const NEEDS_RECIPE = 'Made from a recipe’s answers: choose a recipe above.';

/** Why a format cannot be made from a finished job's results, by format; absent: it can. */
export function unavailableFormats(job: {
  params?: Params | undefined;
  noSpeech?: boolean | undefined;
}): Partial<Record<ResultFormat, string>> {
  const out: Partial<Record<ResultFormat, string>> = {};
  if (!markdownHasContent(job.params)) {
    out.md = 'No summary, sentiment or answers were asked for this file, so there is nothing to put in it.';
  }
  // A recipe's chapters answer comes back under this id (main/engine/recipes/recipes.ts).
  if (job.params !== undefined && !Object.values(job.params).includes('sluice-chapters')) {
    for (const f of CHAPTER_FORMATS) {
      out[f] = 'No chapters were asked for this file: choose the Podcast or Interview recipe.';
    }
  }
  if (job.noSpeech) {
    for (const f of WORD_FORMATS) out[f] = 'No speech was found: there are no words to put in it.';
  }
  return out;
}
