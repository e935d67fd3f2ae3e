// The recipes as people choose them: what each asks the service for beside the transcript. The
// prompts themselves live in main (main/engine/recipes/recipes.ts); a test keeps these in step.
import type { RecipeId } from '../../../preload/contract.js';

export const RECIPE_CHOICES: ReadonlyArray<{ id: RecipeId | null; label: string; hint: string }> = [
  { id: null, label: 'Transcript only', hint: 'Nothing asked beside the transcript.' },
  {
    id: 'podcast',
    label: 'Podcast episode',
    hint: 'Summary, chapters, 3–5 pull quotes and keywords: show notes ready to publish.',
  },
  {
    id: 'interview',
    label: 'Interview / rushes',
    hint: 'Summary, chapters and pull quotes, for the editor’s markers.',
  },
  {
    id: 'meeting',
    label: 'Meeting',
    hint: 'A bullet summary, the decisions taken and the action items with their owners.',
  },
];
