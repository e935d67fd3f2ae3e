// Custom recipes: a built-in recipe copied under a name of the user's, with its questions worded
// anew. Only the wording (prompt, system prompt) and the summary settings change: the answer ids and
// JSON Schemas stay the built-in's, because results, chapters, quotes and markers read the answers
// by those ids and shapes, so edited wording can never break a result format.
import { z } from 'zod';
import { CUSTOM_RECIPE_LIMITS } from '../../../common/custom-recipe-limits.js';
import { RECIPE_IDS, RECIPES, isRecipeId, type CustomRecipeId, type Recipe, type RecipeRef } from './recipes.js';

export type { CustomRecipeId, RecipeRef };
export { CUSTOM_RECIPE_LIMITS };

const CUSTOM_ID = /^custom-[a-z0-9][a-z0-9-]{0,47}$/;
export const isCustomRecipeId = (v: unknown): v is CustomRecipeId => typeof v === 'string' && CUSTOM_ID.test(v);

export const RECIPE_REF = z.custom<RecipeRef>(
  (v) => isRecipeId(v) || isCustomRecipeId(v),
  `must be one of ${RECIPE_IDS.join(', ')} or a custom recipe's id (custom-…)`,
);

const text = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, `Write the ${what}; it must not be empty.`)
    .max(max, `The ${what} must be at most ${max} characters.`);

// Strict: a custom recipe that tries to carry its own answer id or schema is refused, not trimmed.
export const CUSTOM_RECIPE = z
  .strictObject({
    id: z.custom<CustomRecipeId>(isCustomRecipeId, 'must be custom- then lower-case letters, digits and dashes'),
    name: text(CUSTOM_RECIPE_LIMITS.name, 'name'),
    basedOn: z.enum(RECIPE_IDS),
    /** One per question of the built-in, in its order. */
    prompts: z
      .array(
        z.strictObject({
          prompt: text(CUSTOM_RECIPE_LIMITS.prompt, 'question'),
          system: text(CUSTOM_RECIPE_LIMITS.system, 'system prompt'),
        }),
      )
      .max(3),
    /** Absent fields: the built-in's. */
    summary: z
      .strictObject({
        length: z.enum(['brief', 'detailed']).optional(),
        tone: z.enum(['conversational', 'informative']).optional(),
        structure: z.enum(['paragraphs', 'bullet_points']).optional(),
      })
      .optional(),
  })
  .superRefine((r, ctx) => {
    const want = RECIPES[r.basedOn].prompts.length;
    if (r.prompts.length !== want) {
      ctx.addIssue({
        code: 'custom',
        path: ['prompts'],
        message: `"${RECIPES[r.basedOn].label}" asks ${want} questions; give the wording of each.`,
      });
    }
  });
export type CustomRecipe = z.infer<typeof CUSTOM_RECIPE>;

export const CUSTOM_RECIPES = z
  .array(CUSTOM_RECIPE)
  .max(CUSTOM_RECIPE_LIMITS.count, `Keep at most ${CUSTOM_RECIPE_LIMITS.count} custom recipes.`)
  .superRefine((list, ctx) => {
    const ids = new Set<string>();
    const names = new Set<string>();
    const builtInNames = new Set([...RECIPE_IDS, ...RECIPE_IDS.map((id) => RECIPES[id].label.toLowerCase())]);
    list.forEach((r, i) => {
      if (ids.has(r.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'Two custom recipes have this id.' });
      const name = r.name.toLowerCase();
      // Names are matched without case on the command line, so they must differ without it.
      if (names.has(name) || builtInNames.has(name) || name === 'none') {
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `The name "${r.name}" is taken; choose another.` });
      }
      ids.add(r.id);
      names.add(name);
    });
  });

/** The recipe a custom one sends: the built-in's ids and schemas with the custom wording. */
export function customRecipe(c: CustomRecipe): Recipe {
  const base = RECIPES[c.basedOn];
  return {
    id: c.id,
    basedOn: c.basedOn,
    label: c.name,
    description: `Based on ${base.label}, with its own wording.`,
    summary: { ...base.summary, ...c.summary },
    prompts: base.prompts.map((p, n) => ({
      ...p,
      prompt: c.prompts[n]?.prompt ?? p.prompt,
      system: c.prompts[n]?.system ?? p.system,
    })),
  };
}

/**
 * The one place a recipe id becomes the data the parameters are built from: a built-in id, or a
 * custom recipe's id among those saved. Undefined when the id names nothing (a deleted custom recipe).
 */
export function resolveRecipe(id: string, custom: readonly CustomRecipe[] = []): Recipe | undefined {
  if (isRecipeId(id)) return RECIPES[id];
  const c = custom.find((r) => r.id === id);
  return c ? customRecipe(c) : undefined;
}

/** `--recipe NAME`: a built-in id, or a custom recipe's id or name (without case). */
export function findRecipeRef(nameOrId: string, custom: readonly CustomRecipe[] = []): RecipeRef | undefined {
  const v = nameOrId.trim().toLowerCase();
  if (isRecipeId(v)) return v;
  return custom.find((r) => r.id === v || r.name.toLowerCase() === v)?.id;
}

/** Where a recipe id is chosen in settings, in words ("the defaults", "the folder /x"). */
export function recipeUsers(
  id: string,
  s: { defaults: { recipe?: string | null }; watchFolders: ReadonlyArray<{ path: string; recipe?: string | null }> },
): string[] {
  return [
    ...(s.defaults.recipe === id ? ['the defaults for files added by hand'] : []),
    ...s.watchFolders.filter((f) => f.recipe === id).map((f) => `the watch folder ${f.path}`),
  ];
}
