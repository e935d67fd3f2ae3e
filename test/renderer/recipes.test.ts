import { describe, expect, it } from 'vitest';
import { RECIPE_IDS, RECIPES } from '../../main/engine/recipes/recipes.js';
import { RECIPE_CHOICES } from '../../renderer/src/lib/recipes.js';

describe('the recipes Settings offers', () => {
  it('are main’s recipes, with their labels and descriptions, after “Transcript only”', () => {
    expect(RECIPE_CHOICES.map((r) => r.id)).toEqual([null, ...RECIPE_IDS]);
    for (const r of RECIPE_CHOICES.slice(1)) {
      expect([r.label, r.hint]).toEqual([RECIPES[r.id!].label, RECIPES[r.id!].description]);
    }
  });
});
