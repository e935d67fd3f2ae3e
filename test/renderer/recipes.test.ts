import { describe, expect, it } from 'vitest';
import { RECIPE_IDS, RECIPES } from '../../main/engine/recipes/recipes.js';
import { formatsForRecipe, RECIPE_CHOICES } from '../../renderer/src/lib/recipes.js';

describe('the recipes Settings offers', () => {
  it('are main’s recipes, with their labels and descriptions, after “Transcript only”', () => {
    expect(RECIPE_CHOICES.map((r) => r.id)).toEqual([null, ...RECIPE_IDS]);
    for (const r of RECIPE_CHOICES.slice(1)) {
      expect([r.label, r.hint]).toEqual([RECIPES[r.id!].label, RECIPES[r.id!].description]);
    }
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
