// recipes:list: the built-in recipes as data, then the saved custom ones (each resolved as a job
// resolves it, engine/recipes/custom-recipes.ts), for Settings and the recipe choosers to show
// what each asks the service. Read from the one place they are defined, so what is shown is what is sent.
import type { Channel, RecipeView } from '../../preload/contract.js';
import { RECIPE_IDS, RECIPES, type Recipe } from '../engine/recipes/recipes.js';
import { resolveRecipe } from '../engine/recipes/custom-recipes.js';
import { recipeFormats } from '../engine/recipes/render.js';
import { parseGlossary } from '../engine/recipes/glossary.js';
import { schemaFields } from '../engine/recipes/schema-fields.js';
import type { HandlerContext, RawHandlers } from './handler-context.js';

type RecipeChannels = Extract<Channel, `recipes:${string}`>;

export function recipeListView(recipe: Recipe): RecipeView {
  return {
    id: recipe.id,
    ...(recipe.basedOn ? { basedOn: recipe.basedOn } : {}),
    label: recipe.label,
    description: recipe.description,
    summary: { ...recipe.summary },
    prompts: recipe.prompts.map((p) => ({
      id: p.id,
      prompt: p.prompt,
      system: p.system,
      format: JSON.stringify(p.format, null, 2),
      fields: schemaFields(p.format),
    })),
    formats: recipeFormats(recipe),
  };
}

export function recipeHandlers(ctx: HandlerContext<'settings'>): RawHandlers<RecipeChannels> {
  return {
    'recipes:list': () => {
      const custom = ctx.settings.current().customRecipes ?? [];
      return [
        ...RECIPE_IDS.map((id) => recipeListView(RECIPES[id])),
        ...custom.map((c) => recipeListView(resolveRecipe(c.id, custom)!)),
      ];
    },
    // Read in main so that a file imported in Settings is read as `--glossary FILE` reads it.
    'recipes:parseGlossary': ({ text }) => ({ terms: parseGlossary(text) }),
  };
}
