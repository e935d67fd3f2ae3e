// Custom recipes as the Settings card edits them: a draft copied from a built-in, checked here in
// words beside each field before main checks it again (engine/recipes/custom-recipes.ts), by the
// same limits (common/custom-recipe-limits.ts), and who still uses one, so its deletion can say so.
import { CUSTOM_RECIPE_LIMITS } from '../../../common/custom-recipe-limits.js';
import type { CustomRecipeValue, RecipeId, RecipeView, SettingsValues } from '../../../preload/contract.js';

export interface RecipeDraft {
  /** Absent: a new copy, given its id on save. */
  id?: `custom-${string}` | undefined;
  name: string;
  basedOn: RecipeId;
  prompts: Array<{ prompt: string; system: string }>;
  summary: RecipeView['summary'];
}

/** A fresh copy of a built-in, named "<label> (copy)" or numbered until the name is free. */
export function draftFromBuiltIn(view: RecipeView, custom: readonly CustomRecipeValue[]): RecipeDraft {
  const taken = new Set(custom.map((c) => c.name.toLowerCase()));
  let name = `${view.label} (copy)`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${view.label} (copy ${n})`;
  return {
    name,
    basedOn: view.id as RecipeId,
    prompts: view.prompts.map((p) => ({ prompt: p.prompt, system: p.system })),
    summary: { ...view.summary },
  };
}

/** A saved custom recipe as a draft (its view, resolved by main, gives the summary as sent). */
export function draftFromCustom(c: CustomRecipeValue, view: RecipeView): RecipeDraft {
  return {
    id: c.id,
    name: c.name,
    basedOn: c.basedOn,
    prompts: c.prompts.map((p) => ({ ...p })),
    summary: { ...view.summary },
  };
}

/** The id a new copy is saved under: `custom-` and its name's slug, numbered when taken. */
export function newRecipeId(name: string, custom: readonly CustomRecipeValue[]): `custom-${string}` {
  const slug =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'recipe';
  const ids = new Set(custom.map((c) => c.id));
  for (let n = 1; ; n++) {
    const id = `custom-${slug}${n === 1 ? '' : `-${n}`}` as const;
    if (!ids.has(id)) return id;
  }
}

/** What is wrong with a draft, keyed as main keys it (`name`, `prompts.0.prompt`); empty when none. */
export function draftErrors(
  d: RecipeDraft,
  custom: readonly CustomRecipeValue[],
  builtIns: readonly RecipeView[],
): Record<string, string> {
  const e: Record<string, string> = {};
  const name = d.name.trim();
  const taken = [
    'none',
    ...builtIns.flatMap((r) => [r.id, r.label.toLowerCase()]),
    ...custom.filter((c) => c.id !== d.id).map((c) => c.name.toLowerCase()),
  ];
  if (!name) e.name = 'Give the recipe a name.';
  else if (name.length > CUSTOM_RECIPE_LIMITS.name)
    e.name = `Keep the name to ${CUSTOM_RECIPE_LIMITS.name} characters or fewer.`;
  else if (taken.includes(name.toLowerCase())) e.name = `The name “${name}” is taken; choose another.`;
  d.prompts.forEach((p, n) => {
    if (!p.prompt.trim()) e[`prompts.${n}.prompt`] = 'Write the question; it must not be empty.';
    else if (p.prompt.trim().length > CUSTOM_RECIPE_LIMITS.prompt)
      e[`prompts.${n}.prompt`] = `Keep the question to ${CUSTOM_RECIPE_LIMITS.prompt} characters or fewer.`;
    if (!p.system.trim()) e[`prompts.${n}.system`] = 'Write the system prompt; it must not be empty.';
    else if (p.system.trim().length > CUSTOM_RECIPE_LIMITS.system)
      e[`prompts.${n}.system`] = `Keep the system prompt to ${CUSTOM_RECIPE_LIMITS.system} characters or fewer.`;
  });
  return e;
}

/** The draft as saved: trimmed, with its id. */
export function draftValue(d: RecipeDraft, custom: readonly CustomRecipeValue[]): CustomRecipeValue {
  const name = d.name.trim();
  return {
    id: d.id ?? newRecipeId(name, custom),
    name,
    basedOn: d.basedOn,
    prompts: d.prompts.map((p) => ({ prompt: p.prompt.trim(), system: p.system.trim() })),
    summary: { ...d.summary },
  };
}

/** Where a recipe is chosen, in words: deleting it is refused while anything does. */
export function recipeUsers(id: string, s: Pick<SettingsValues, 'defaults' | 'watchFolders'>): string[] {
  return [
    ...(s.defaults.recipe === id ? ['the defaults for files added by hand'] : []),
    ...s.watchFolders.filter((f) => f.recipe === id).map((f) => `the watch folder ${f.path}`),
  ];
}
