// What a file or link added by hand is sent with: what the person gave (the CLI's flags, the Add
// dialog, a re-run from History), and for the rest the defaults from Settings. The one place these
// defaults are resolved: QueueCommands checks the result, the intake takes it as given, and the CLI
// reports its problems before anything is sent. Pure.
import type { RecipeRef } from './recipes/recipes.js';
import { recipeParams } from './recipes/recipe-params.js';
import type { OutputSettings, Params, Settings } from './settings.js';

export interface ManualAddGiven {
  templateId?: string | undefined;
  params?: Params | undefined;
  /** Undefined: the default recipe from Settings; null: none. */
  recipe?: RecipeRef | null | undefined;
  /** Undefined: the default glossary from Settings. */
  glossary?: string[] | undefined;
  output?: OutputSettings | undefined;
}

export interface ManualAdd {
  templateId: string;
  /** The parameters as given or saved, without the recipe's and the glossary's. */
  params: Params;
  recipe: RecipeRef | null;
  glossary: string[];
  output: OutputSettings;
  /** The parameters the job sends: `params` with its recipe's and its glossary's. */
  sent: Params;
  /** Why the recipe cannot be sent with these parameters (one sentence each); empty when it can. */
  problems: string[];
}

export function manualAdd(settings: Pick<Settings, 'defaults' | 'customRecipes'>, given: ManualAddGiven): ManualAdd {
  const d = settings.defaults;
  const params = given.params ?? d.params;
  const recipe = given.recipe === undefined ? (d.recipe ?? null) : given.recipe;
  const glossary = given.glossary ?? d.glossary ?? [];
  const withRecipe = recipeParams(params, recipe, glossary, settings.customRecipes);
  return {
    templateId: given.templateId ?? d.templateId,
    params,
    recipe,
    glossary,
    output: given.output ?? d.output,
    sent: withRecipe.params,
    problems: withRecipe.problems,
  };
}
