// recipes:list: the built-in recipes as data, for Settings to show what each asks the service.
// Read straight from the one place they are defined (engine/recipes/recipes.ts), so what is shown
// is what is sent.
import type { Channel, RecipeView } from '../../preload/contract.js';
import { RECIPE_IDS, RECIPES, type Recipe } from '../engine/recipes/recipes.js';
import { schemaFields } from '../engine/recipes/schema-fields.js';
import type { RawHandlers } from './handler-context.js';

type RecipeChannels = Extract<Channel, `recipes:${string}`>;

export function recipeListView(recipe: Recipe): RecipeView {
  return {
    id: recipe.id,
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
  };
}

export function recipeHandlers(): RawHandlers<RecipeChannels> {
  return {
    'recipes:list': () => RECIPE_IDS.map((id) => recipeListView(RECIPES[id])),
  };
}
