// The built-in recipes as people choose them: their ids, names and what each asks for. Main's
// engine (engine/recipes/recipes.ts) adds the prompts and schemas to these rows; the renderer's
// chooser lists them. A recipe's id, name and description live here only.

export const RECIPE_IDS = ['podcast', 'interview', 'meeting'] as const;
export type RecipeId = (typeof RECIPE_IDS)[number];
/** A custom recipe's id (engine/recipes/custom-recipes.ts). */
export type CustomRecipeId = `custom-${string}`;
/** A recipe a job or folder names: a built-in one or a saved custom one. */
export type RecipeRef = RecipeId | CustomRecipeId;

export interface RecipeChoiceRow {
  label: string;
  description: string;
}

export const RECIPE_CHOICE_ROWS: Readonly<Record<RecipeId, RecipeChoiceRow>> = {
  podcast: {
    label: 'Podcast episode',
    description: 'Summary, chapters, 3–5 pull quotes and keywords: show notes ready to publish.',
  },
  interview: {
    label: 'Interview / rushes',
    description: 'Summary, chapters and pull quotes, for the editor’s markers.',
  },
  meeting: {
    label: 'Meeting',
    description: 'A bullet summary, the decisions taken and the action items with their owners.',
  },
};

export const isRecipeId = (v: unknown): v is RecipeId => typeof v === 'string' && RECIPE_IDS.includes(v as RecipeId);

/** A built-in recipe's name; any other id as it is (a custom recipe's name is its own). */
export function recipeLabel(id: string): string {
  return isRecipeId(id) ? RECIPE_CHOICE_ROWS[id].label : id;
}
