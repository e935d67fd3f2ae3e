// A file or link added by hand: what the person gave wins, Settings' defaults fill the rest, and the
// parameters sent carry the recipe's questions and the glossary. One function for the CLI, the app
// and the intake (main/engine/manual-add.ts).
import { describe, expect, it } from 'vitest';
import { manualAdd } from '../../main/engine/manual-add.js';
import { recipeOwnParams } from '../../main/engine/recipes/recipe-params.js';
import { RECIPES } from '../../main/engine/recipes/recipes.js';
import { defaultSettings, SETTINGS, type Settings } from '../../main/engine/settings.js';

const saved: Settings = SETTINGS.parse({
  defaults: {
    templateId: 'speech-to-text',
    params: { language: ['de'] },
    recipe: 'meeting',
    glossary: ['Sluice'],
    output: { formats: ['json', 'srt'] },
  },
});

describe('manualAdd', () => {
  it('takes every default from Settings when nothing is given, and sends the recipe and glossary with them', () => {
    const add = manualAdd(saved, {});
    expect(add).toMatchObject({
      templateId: 'speech-to-text',
      params: { language: ['de'] },
      recipe: 'meeting',
      glossary: ['Sluice'],
      output: { formats: ['json', 'srt'] },
      problems: [],
    });
    expect(add.sent).toMatchObject({ language: ['de'], ...recipeOwnParams(RECIPES.meeting) });
    expect(JSON.stringify(add.sent)).toContain('Sluice');
  });

  it('keeps what was given: a template, parameters, no recipe (null), a glossary, an output', () => {
    const output = { ...saved.defaults.output, formats: ['json' as const, 'vtt' as const] };
    const add = manualAdd(saved, {
      templateId: 'other',
      params: { language: ['fr'] },
      recipe: null,
      glossary: [],
      output,
    });
    expect(add).toMatchObject({ templateId: 'other', params: { language: ['fr'] }, recipe: null, glossary: [] });
    expect(add.output).toBe(output);
    expect(add.sent).toEqual({ language: ['fr'] });
  });

  it('with no recipe or glossary saved, none is sent', () => {
    const add = manualAdd(defaultSettings(), {});
    expect(add.recipe).toBeNull();
    expect(add.glossary).toEqual([]);
    expect(add.sent).toEqual(add.params);
  });

  it('says why a recipe cannot be sent, rather than sending without it', () => {
    expect(manualAdd(saved, { recipe: 'custom-gone' }).problems).toEqual([
      expect.stringMatching(/"custom-gone" is not among the saved recipes/),
    ]);
    expect(manualAdd(saved, { recipe: 'podcast', params: { ask0: 'Mine?' } }).problems[0]).toMatch(/question slot 1/);
  });

  it('given everything it resolved, it resolves the same again (the intake takes it as given)', () => {
    const first = manualAdd(saved, {});
    const { sent, problems, ...given } = first;
    expect(manualAdd(defaultSettings(), given)).toEqual({ ...first, sent, problems });
  });
});
