import { describe, expect, it } from 'vitest';
import { RECIPE_IDS } from '../../common/recipe-choices.js';
import type { CustomRecipeValue } from '../../preload/contract.js';
import { formatsForRecipe, RECIPE_CHOICES, recipeChoices } from '../../renderer/src/lib/recipes.js';

describe('the recipes Settings offers', () => {
  it('are the built-in recipes, with their labels and descriptions, after “Transcript only”', () => {
    expect(RECIPE_CHOICES.map((r) => r.id)).toEqual([null, ...RECIPE_IDS]);
    expect(RECIPE_CHOICES[1]).toEqual({
      id: 'podcast',
      label: 'Podcast episode',
      hint: 'Summary, chapters, 3–5 pull quotes and keywords: show notes ready to publish.',
    });
  });

  it('name a custom recipe’s built-in by its label', () => {
    const custom: CustomRecipeValue[] = [{ id: 'custom-notes', name: 'Notes', basedOn: 'meeting', prompts: [] }];
    expect(recipeChoices(custom, null).at(-1)?.hint).toBe(
      'Based on Meeting, with its own wording; the answers keep their shape.',
    );
  });
});

describe('choosing a recipe chooses its files', () => {
  const podcast = ['md', 'chapters', 'youtube', 'ffmetadata', 'shownotes'] as const;
  const meeting = ['md', 'shownotes'] as const;
  it('ticks what the recipe makes, keeping what was chosen, in the list’s order', () => {
    expect(formatsForRecipe(['json', 'srt', 'fcpxml'], [], podcast, false)).toEqual([
      'json',
      'srt',
      'md',
      'fcpxml',
      'chapters',
      'youtube',
      'shownotes',
      'ffmetadata',
    ]);
  });
  it('unticks only what the previous recipe alone made', () => {
    expect(formatsForRecipe(['json', 'srt', ...podcast], podcast, meeting, false)).toEqual([
      'json',
      'srt',
      'md',
      'shownotes',
    ]);
  });
  it('keeps a Markdown the parameters still fill when the recipe goes', () => {
    expect(formatsForRecipe(['json', ...meeting], meeting, [], true)).toEqual(['json', 'md']);
    expect(formatsForRecipe(['json', ...meeting], meeting, [], false)).toEqual(['json']);
  });
});
