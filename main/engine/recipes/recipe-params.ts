// A recipe as template parameters (§11.2): the summary settings and one `ask<N>` slot per prompt,
// laid over the job's own parameters. Pure. A recipe needs the prompt slots it uses: a job that
// already asks its own question there is refused with a reason rather than silently overwritten.
import type { Params } from '../settings.js';
import { glossaryParams, glossaryProblems } from './glossary.js';
import { customRecipe, resolveRecipe, type CustomRecipe } from './custom-recipes.js';
import { RECIPE_IDS, RECIPES, type Recipe, type RecipeId } from './recipes.js';

/** The parameters a recipe sends, alone. */
export function recipeOwnParams(recipe: Recipe): Params {
  const out: Params = {
    summary: true,
    summaryLength: recipe.summary.length,
    summaryTone: recipe.summary.tone,
    summaryStructure: recipe.summary.structure,
  };
  recipe.prompts.forEach((p, n) => {
    out[`ask${n}`] = p.prompt;
    out[`ask${n}System`] = p.system;
    out[`ask${n}Id`] = p.id;
    out[`ask${n}Format`] = JSON.stringify(p.format);
  });
  return out;
}

export interface RecipeParams {
  params: Params;
  /** One sentence each; empty when the recipe fits. */
  problems: string[];
}

const slotKeys = (n: number): string[] => [`ask${n}`, `ask${n}System`, `ask${n}Id`, `ask${n}Format`];

/** `base` with the recipe's parameters; the recipe wins on the summary, never on a filled prompt slot. */
export function withRecipe(base: Params, recipe: Recipe | undefined): RecipeParams {
  if (!recipe) return { params: base, problems: [] };
  if (recipe.prompts.length > 3) {
    return {
      params: base,
      problems: [`The recipe "${recipe.label}" has more than three prompts (§11.2 allows three).`],
    };
  }
  const problems: string[] = [];
  recipe.prompts.forEach((_, n) => {
    const taken = slotKeys(n).filter((k) => {
      const v = base[k];
      return v !== undefined && !(typeof v === 'string' && v.trim() === '');
    });
    if (taken.length > 0) {
      problems.push(
        `${taken[0]}: the recipe "${recipe.label}" uses question slot ${n + 1}; clear ${taken.join(', ')} or choose no recipe.`,
      );
    }
  });
  return { params: { ...base, ...recipeOwnParams(recipe) }, problems };
}

/**
 * The parameters a job sends: its own with its recipe's (absent or null: none; a custom recipe's id
 * is resolved among `custom`, the saved ones) and its glossary's (glossary.ts). Every place that
 * turns settings into a job, and every check of them, goes through here. A recipe id that names
 * nothing (a custom recipe deleted since) is a problem, never a silent "no recipe".
 */
export function recipeParams(
  params: Params,
  recipe: string | null | undefined,
  glossary: readonly string[] = [],
  custom: readonly CustomRecipe[] = [],
): RecipeParams {
  const resolved = recipe ? resolveRecipe(recipe, custom) : undefined;
  if (recipe && !resolved) {
    return {
      params,
      problems: [`The recipe "${recipe}" is not among the saved recipes: choose another one in Settings.`],
    };
  }
  const r = withRecipe(params, resolved);
  if (glossary.length === 0) return r;
  const vocabulary = r.params.etVocabulary;
  return {
    params: { ...r.params, ...glossaryParams(typeof vocabulary === 'string' ? vocabulary : undefined, glossary) },
    problems: [...r.problems, ...glossaryProblems(glossary)],
  };
}

/**
 * The recipe a job's parameters carry: the one whose answer ids fill its question slots, the
 * recipe with the most prompts first (Podcast's first two are Interview's). The job keeps its
 * parameters, not the recipe's name, so a re-run or an older job is recognised the same way.
 */
export function recipeUsed(params: Params): RecipeId | undefined {
  const byPrompts = [...RECIPE_IDS].sort((a, b) => RECIPES[b].prompts.length - RECIPES[a].prompts.length);
  return byPrompts.find((id) => RECIPES[id].prompts.every((p, n) => params[`ask${n}Id`] === p.id));
}

/**
 * The recipe a job ran with, in words: a saved custom recipe whose wording the job sent, else the
 * built-in whose answer ids it carries, said to be "based on" it when the wording differs (a custom
 * recipe since edited or deleted).
 */
export function recipeLabelUsed(params: Params, custom: readonly CustomRecipe[] = []): string | undefined {
  const id = recipeUsed(params);
  if (!id) return undefined;
  const sends = (r: Recipe) =>
    r.prompts.every((p, n) => params[`ask${n}`] === p.prompt && params[`ask${n}System`] === p.system);
  const builtIn = RECIPES[id];
  if (sends(builtIn)) return builtIn.label;
  const mine = custom
    .filter((c) => c.basedOn === id)
    .map(customRecipe)
    .find(sends);
  return mine ? mine.label : `Based on ${builtIn.label}`;
}
