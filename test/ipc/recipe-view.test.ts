// A job's recipe is known from its parameters (the answer ids in its question slots), and its
// detail lists what the recipe's answers left out, as the results writer recorded it.
import { describe, expect, it } from 'vitest';
import { recipeParams, recipeUsed } from '../../main/engine/recipes/recipe-params.js';
import { RECIPE_IDS } from '../../main/engine/recipes/recipes.js';
import { recipeView } from '../../main/ipc/views.js';

describe('recipeUsed', () => {
  it.each(RECIPE_IDS)('recognises %s from the parameters it sends, glossary and own parameters beside', (id) => {
    const { params } = recipeParams({ language: 'en' }, id, ['MoveFlow']);
    expect(recipeUsed(params)).toBe(id);
  });

  it('no recipe, or prompts of the person’s own, is none', () => {
    expect(recipeUsed({})).toBeUndefined();
    expect(recipeUsed({ ask0: 'Who speaks?', ask0Id: 'mine' })).toBeUndefined();
  });
});

describe('recipeView', () => {
  it('names the recipe and lists the notes the JSON result carries', () => {
    const notes = ['1 chapter was left out: their opening words are not in the transcript (“Intro”).'];
    const v = recipeView({
      params: recipeParams({}, 'podcast').params,
      results: [
        { format: 'json', path: '/m/a.json', writtenBySluice: true, notes },
        { format: 'chapters', path: '/m/a.chapters.json', writtenBySluice: true },
      ],
    });
    expect(v).toEqual({ recipe: 'Podcast episode', recipeNotes: notes });
    expect(recipeView({ params: {}, results: [] })).toEqual({});
  });
});
