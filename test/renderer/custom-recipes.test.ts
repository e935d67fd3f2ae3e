// The Settings card's custom recipe drafts: copied from a built-in under a free name, checked in
// words per field the way main checks them (same limits, same keys), saved under an id made from
// the name, and the choosers' list with the custom ones after the built-ins.
import { describe, expect, it } from 'vitest';
import type { CustomRecipe } from '../../main/engine/recipes/custom-recipes.js';
import { RECIPE_IDS, RECIPES } from '../../main/engine/recipes/recipes.js';
import { recipeListView } from '../../main/ipc/handle-recipes.js';
import { SETTINGS, describeIssues } from '../../main/engine/settings.js';
import {
  draftErrors,
  draftFromBuiltIn,
  draftValue,
  newRecipeId,
  recipeUsers,
} from '../../renderer/src/lib/custom-recipes.js';
import { recipeChoices } from '../../renderer/src/lib/recipes.js';

const builtIns = RECIPE_IDS.map((id) => recipeListView(RECIPES[id]));
const podcast = builtIns[0]!;
const saved: CustomRecipe = {
  id: 'custom-our-show',
  name: 'Our show',
  basedOn: 'podcast',
  prompts: RECIPES.podcast.prompts.map((p) => ({ prompt: p.prompt, system: p.system })),
};

describe('custom recipe drafts', () => {
  it('copy a built-in’s wording under a name not yet taken', () => {
    const first = draftFromBuiltIn(podcast, []);
    expect(first.name).toBe('Podcast episode (copy)');
    expect(first.prompts).toEqual(saved.prompts);
    expect(draftFromBuiltIn(podcast, [{ ...saved, name: 'Podcast episode (copy)' }]).name).toBe(
      'Podcast episode (copy 2)',
    );
  });

  it('say what is wrong beside each field, as main would refuse it', () => {
    const d = draftFromBuiltIn(podcast, []);
    expect(draftErrors(d, [], builtIns)).toEqual({});
    const bad = {
      ...d,
      name: 'our SHOW',
      prompts: [{ prompt: ' ', system: 'x' }, d.prompts[1]!, { prompt: 'y', system: '' }],
    };
    const e = draftErrors(bad, [saved], builtIns);
    expect(Object.keys(e).sort()).toEqual(['name', 'prompts.0.prompt', 'prompts.2.system']);
    expect(e.name).toMatch(/is taken/);
    // Main refuses the same draft at the same keys.
    const r = SETTINGS.safeParse({ customRecipes: [saved, { ...draftValue(bad, [saved]), name: 'our SHOW' }] });
    expect(r.success).toBe(false);
    const paths = r.success ? [] : describeIssues(r.error).map((m) => m.split(':')[0]);
    expect(paths.sort()).toEqual([
      'customRecipes.1.name',
      'customRecipes.1.prompts.0.prompt',
      'customRecipes.1.prompts.2.system',
    ]);
    expect(draftErrors({ ...d, name: 'Meeting' }, [], builtIns).name).toMatch(/is taken/);
    expect(draftErrors({ ...d, name: 'x'.repeat(61) }, [], builtIns).name).toMatch(/60 characters/);
  });

  it('are saved trimmed, under an id made from the name (numbered when taken), and valid for main', () => {
    const v = draftValue({ ...draftFromBuiltIn(podcast, []), name: '  Émission du soir ' }, [saved]);
    expect(v.name).toBe('Émission du soir');
    expect(v.id).toBe('custom-emission-du-soir');
    expect(newRecipeId('Our show', [saved])).toBe(`${saved.id}-2`);
    expect(newRecipeId('My Show!', [])).toBe('custom-my-show');
    expect(newRecipeId('日本', [])).toBe('custom-recipe');
    expect(SETTINGS.safeParse({ customRecipes: [saved, v] }).success).toBe(true);
  });

  it('know who still chooses a recipe', () => {
    const s = { defaults: { recipe: 'custom-our-show' as const }, watchFolders: [] };
    expect(recipeUsers('custom-our-show', s as never)).toEqual(['the defaults for files added by hand']);
  });
});

describe('recipe choices', () => {
  it('list the custom recipes after the built-ins, and keep a chosen one that is gone visible', () => {
    const choices = recipeChoices([saved], null);
    expect(choices.map((c) => c.id)).toEqual([null, ...RECIPE_IDS, 'custom-our-show']);
    expect(choices.at(-1)).toMatchObject({
      label: 'Our show',
      custom: true,
      hint: expect.stringMatching(/^Based on Podcast episode/),
    });
    const gone = recipeChoices([], 'custom-our-show');
    expect(gone.at(-1)).toMatchObject({ id: 'custom-our-show', label: 'custom-our-show (not saved)' });
  });
});
