// Custom recipes: a built-in copied and worded anew. Settings validate them and every reference to
// them; one resolver turns an id into the recipe a job's parameters are built from, so the edited
// wording is sent with the built-in's answer ids and schemas.
import { describe, expect, it } from 'vitest';
import {
  CUSTOM_RECIPE_LIMITS,
  findRecipeRef,
  recipeUsers,
  resolveRecipe,
  type CustomRecipe,
} from '../../../main/engine/recipes/custom-recipes.js';
import { recipeLabelUsed, recipeParams } from '../../../main/engine/recipes/recipe-params.js';
import { RECIPES } from '../../../main/engine/recipes/recipes.js';
import { SETTINGS, describeIssues } from '../../../main/engine/settings.js';

const mine: CustomRecipe = {
  id: 'custom-my-show',
  name: 'My show',
  basedOn: 'podcast',
  prompts: [
    { prompt: 'Split this show into chapters.', system: 'Quote exactly.' },
    { prompt: 'Pick three quotes.', system: 'Quote exactly.' },
    { prompt: 'List keywords in German.', system: 'JSON only.' },
  ],
  summary: { tone: 'informative' },
};

const issues = (candidate: unknown): string[] => {
  const r = SETTINGS.safeParse(candidate);
  return r.success ? [] : describeIssues(r.error);
};

describe('resolveRecipe', () => {
  it('gives a built-in as it is and a custom one with its wording over the built-in’s ids and schemas', () => {
    expect(resolveRecipe('meeting')).toBe(RECIPES.meeting);
    const r = resolveRecipe('custom-my-show', [mine])!;
    expect(r.label).toBe('My show');
    expect(r.basedOn).toBe('podcast');
    expect(r.summary).toEqual({ ...RECIPES.podcast.summary, tone: 'informative' });
    r.prompts.forEach((p, n) => {
      expect(p.prompt).toBe(mine.prompts[n]!.prompt);
      expect(p.system).toBe(mine.prompts[n]!.system);
      expect(p.id).toBe(RECIPES.podcast.prompts[n]!.id);
      expect(p.format).toEqual(RECIPES.podcast.prompts[n]!.format);
    });
  });

  it('names nothing for a custom id that is not saved', () => {
    expect(resolveRecipe('custom-gone', [mine])).toBeUndefined();
    expect(resolveRecipe('custom-my-show', [])).toBeUndefined();
  });
});

describe('recipeParams with a custom recipe', () => {
  it('sends the edited wording with the built-in’s answer ids and JSON Schemas', () => {
    const { params, problems } = recipeParams({ language: 'en' }, 'custom-my-show', ['MoveFlow'], [mine]);
    expect(problems).toEqual([]);
    expect(params.ask0).toBe('Split this show into chapters.');
    expect(params.ask2System).toBe('JSON only.');
    expect(params.ask1Id).toBe('sluice-quotes');
    expect(JSON.parse(String(params.ask0Format))).toEqual(RECIPES.podcast.prompts[0]!.format);
    expect(params.summaryTone).toBe('informative');
    expect(params.summaryLength).toBe('detailed');
    expect(params.etVocabulary).toContain('MoveFlow');
  });

  it('refuses a recipe id that names nothing rather than sending no recipe', () => {
    const r = recipeParams({ language: 'en' }, 'custom-gone', [], [mine]);
    expect(r.params).toEqual({ language: 'en' });
    expect(r.problems[0]).toMatch(/"custom-gone" is not among the saved recipes/);
  });
});

describe('recipeLabelUsed: the recipe a job ran with', () => {
  it('names the custom recipe whose wording the job sent, else says which built-in it is based on', () => {
    const sent = recipeParams({}, 'custom-my-show', [], [mine]).params;
    expect(recipeLabelUsed(sent, [mine])).toBe('My show');
    expect(recipeLabelUsed(sent, [])).toBe('Based on Podcast episode');
    expect(recipeLabelUsed(recipeParams({}, 'podcast').params, [mine])).toBe('Podcast episode');
    expect(recipeLabelUsed({})).toBeUndefined();
  });
});

describe('settings validation', () => {
  it('accepts a custom recipe chosen by a folder and the defaults', () => {
    const s = SETTINGS.parse({
      customRecipes: [mine],
      defaults: { recipe: 'custom-my-show' },
      watchFolders: [{ id: 'f1', path: '/w', recipe: 'custom-my-show' }],
    });
    expect(s.customRecipes?.[0]?.name).toBe('My show');
  });

  it('refuses a folder or the defaults naming a custom recipe that is not saved, naming them', () => {
    const found = issues({
      defaults: { recipe: 'custom-my-show' },
      watchFolders: [{ id: 'f1', path: '/w', recipe: 'custom-my-show' }],
    });
    expect(found).toEqual([
      expect.stringMatching(/^defaults\.recipe: The defaults for files added by hand uses the custom recipe/),
      expect.stringMatching(/^watchFolders\.0\.recipe: The watch folder \/w uses/),
    ]);
  });

  it('refuses empty, long, duplicate and built-in names, and the wrong number of questions', () => {
    const copy = (over: Partial<CustomRecipe>) => ({ ...mine, ...over });
    expect(issues({ customRecipes: [copy({ name: '   ' })] })[0]).toMatch(/customRecipes\.0\.name: Write the name/);
    expect(issues({ customRecipes: [copy({ name: 'x'.repeat(CUSTOM_RECIPE_LIMITS.name + 1) })] })[0]).toMatch(
      /at most 60 characters/,
    );
    expect(issues({ customRecipes: [mine, copy({ id: 'custom-b', name: ' MY SHOW ' })] })[0]).toMatch(
      /customRecipes\.1\.name: The name " ?MY SHOW ?" is taken/,
    );
    expect(issues({ customRecipes: [copy({ name: 'Podcast episode' })] })[0]).toMatch(/is taken/);
    expect(issues({ customRecipes: [copy({ prompts: mine.prompts.slice(0, 2) })] })[0]).toMatch(
      /customRecipes\.0\.prompts: "Podcast episode" asks 3 questions/,
    );
    expect(
      issues({
        customRecipes: [copy({ prompts: [mine.prompts[0]!, mine.prompts[1]!, { prompt: 'x', system: '' }] })],
      })[0],
    ).toMatch(/customRecipes\.0\.prompts\.2\.system: Write the system prompt/);
    expect(issues({ customRecipes: [copy({ id: 'custom-Bad Id' as `custom-${string}` })] })[0]).toMatch(
      /customRecipes\.0\.id/,
    );
    const many = Array.from({ length: CUSTOM_RECIPE_LIMITS.count + 1 }, (_, i) =>
      copy({ id: `custom-r${i}`, name: `R${i}` }),
    );
    expect(issues({ customRecipes: many })[0]).toMatch(/at most 20 custom recipes/);
  });

  it('trims the name as it saves it', () => {
    expect(SETTINGS.parse({ customRecipes: [{ ...mine, name: '  My show ' }] }).customRecipes?.[0]?.name).toBe(
      'My show',
    );
  });
});

describe('ids, names and users', () => {
  it('finds a recipe by id or by a custom name without case', () => {
    expect(findRecipeRef('Podcast', [mine])).toBe('podcast');
    expect(findRecipeRef(' my SHOW ', [mine])).toBe('custom-my-show');
    expect(findRecipeRef('custom-my-show', [mine])).toBe('custom-my-show');
    expect(findRecipeRef('cooking', [mine])).toBeUndefined();
  });

  it('says where a recipe is chosen', () => {
    const s = {
      defaults: { recipe: 'custom-my-show' },
      watchFolders: [{ path: '/a', recipe: 'custom-my-show' }, { path: '/b' }],
    };
    expect(recipeUsers('custom-my-show', s)).toEqual(['the defaults for files added by hand', 'the watch folder /a']);
  });
});
