// The recipes as people choose them: what each asks the service for beside the transcript. Their
// ids, names and descriptions are common/recipe-choices.ts's (main adds the prompts to the same rows).
// Custom recipes (Settings' copies with their own wording) follow the built-ins.
import { FORMATS } from './result-formats.js';
import { RECIPE_CHOICE_ROWS, RECIPE_IDS, recipeLabel } from '../../../common/recipe-choices.js';
import type { CustomRecipeValue, RecipeId, RecipeRef, ResultFormat } from '../../../preload/contract.js';

export const RECIPE_CHOICES: ReadonlyArray<{ id: RecipeId | null; label: string; hint: string }> = [
  { id: null, label: 'Transcript only', hint: 'Nothing asked beside the transcript.' },
  ...RECIPE_IDS.map((id) => ({ id, label: RECIPE_CHOICE_ROWS[id].label, hint: RECIPE_CHOICE_ROWS[id].description })),
];

export interface RecipeChoice {
  id: RecipeRef | null;
  label: string;
  hint: string;
  custom?: true;
}

/**
 * The built-ins, then the saved custom recipes. A chosen custom recipe that is no longer saved
 * stays listed as missing, so the chooser never shows another recipe than the one saved.
 */
export function recipeChoices(custom: readonly CustomRecipeValue[], chosen: RecipeRef | null): RecipeChoice[] {
  const out: RecipeChoice[] = [
    ...RECIPE_CHOICES,
    ...custom.map((c) => ({
      id: c.id,
      label: c.name,
      hint: `Based on ${recipeLabel(c.basedOn)}, with its own wording; the answers keep their shape.`,
      custom: true as const,
    })),
  ];
  if (chosen && !out.some((r) => r.id === chosen)) {
    out.push({
      id: chosen,
      label: `${chosen} (not saved)`,
      hint: 'This custom recipe is no longer saved: choose another one.',
      custom: true,
    });
  }
  return out;
}

/**
 * The result files once another recipe is chosen: the files the new one makes are ticked, and those
 * only the old one made are unticked (a Markdown the parameters still fill, with a summary or
 * sentiment, is kept). Every other choice stays as the person left it. In the list's order.
 */
export function formatsForRecipe(
  formats: readonly ResultFormat[],
  before: readonly ResultFormat[],
  after: readonly ResultFormat[],
  keepMarkdown: boolean,
): ResultFormat[] {
  const dropped = new Set(before.filter((f) => !after.includes(f) && !(f === 'md' && keepMarkdown)));
  const next = new Set([...formats.filter((f) => !dropped.has(f)), ...after]);
  return FORMATS.map((f) => f.id).filter((f) => next.has(f));
}
