// recipes:list: Settings reads each recipe's prompts, system prompts and answer schemas from main,
// exactly what a job with that recipe sends, through the same strict parsing as every request.
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/handlers.js';
import { recipeOwnParams } from '../../main/engine/recipes/recipe-params.js';
import { RECIPE_IDS, RECIPES, type RecipeId } from '../../main/engine/recipes/recipes.js';
import { value } from '../helpers/result.js';
import { useBridgeEnv } from './helpers.js';

const t = useBridgeEnv();

describe('recipes:list', () => {
  it('lists every recipe in choosing order with what its job sends', async () => {
    const list = value(await t.bridge.handlers['recipes:list']({}));
    expect(list.map((r) => r.id)).toEqual([...RECIPE_IDS]);
    for (const view of list) {
      const recipe = RECIPES[view.id as RecipeId];
      const sent = recipeOwnParams(recipe);
      expect(view.label).toBe(recipe.label);
      expect(sent).toMatchObject({
        summaryLength: view.summary.length,
        summaryTone: view.summary.tone,
        summaryStructure: view.summary.structure,
      });
      expect(view.prompts.length).toBe(recipe.prompts.length);
      view.prompts.forEach((p, n) => {
        expect(sent[`ask${n}`]).toBe(p.prompt);
        expect(sent[`ask${n}System`]).toBe(p.system);
        expect(sent[`ask${n}Id`]).toBe(p.id);
        // Shown pretty-printed, the same schema as the one sent.
        expect(JSON.parse(p.format)).toEqual(JSON.parse(String(sent[`ask${n}Format`])));
        expect(p.format).toContain('\n  ');
      });
    }
  });

  it('shows the Podcast chapters question with its answer’s fields', async () => {
    const list = value(await t.bridge.handlers['recipes:list']({}));
    const chapters = list.find((r) => r.id === 'podcast')?.prompts[0];
    expect(chapters?.prompt).toMatch(/^Divide this podcast episode into three to ten chapters/);
    expect(chapters?.fields.map((f) => f.path)).toEqual([
      'title',
      'chapters',
      'chapters[].title',
      'chapters[].firstWords',
    ]);
  });

  it('is parsed strictly like every request: unknown params are refused', async () => {
    const ok = await dispatch(t.bridge.handlers, 'recipes:list', undefined);
    expect(ok.ok).toBe(true);
    const refused = await dispatch(t.bridge.handlers, 'recipes:list', { all: true });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('INVALID_PARAMS');
  });
});

describe('recipes:parseGlossary', () => {
  it('reads a glossary file as --glossary does: the first column, the header and repeats left out', async () => {
    const text = '\uFEFFterm,note\r\nMoveFlow,product\r\n"Zoë Ødegaard",host\r\nmoveflow,again\r\n\r\n# a comment\r\n';
    const r = await dispatch(t.bridge.handlers, 'recipes:parseGlossary', { text });
    expect(r).toEqual({ ok: true, value: { terms: ['MoveFlow', 'Zoë Ødegaard'] } });
    const plain = await dispatch(t.bridge.handlers, 'recipes:parseGlossary', { text: 'Sluice\nVatis Tech\n' });
    expect(plain).toEqual({ ok: true, value: { terms: ['Sluice', 'Vatis Tech'] } });
  });

  it('refuses what is no glossary file: not text, or over a megabyte', async () => {
    for (const params of [{ text: 5 }, { text: 'x'.repeat(1_000_001) }, { text: 'a', path: '/etc/passwd' }]) {
      const r = await dispatch(t.bridge.handlers, 'recipes:parseGlossary', params);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('INVALID_PARAMS');
    }
  });
});
