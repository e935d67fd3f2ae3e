import { describe, expect, it } from 'vitest';
import { planUpload } from '../../../main/api/upload-request.js';
import { templateProblems } from '../../../main/engine/params.js';
import { recipeOwnParams, withRecipe } from '../../../main/engine/recipes/recipe-params.js';
import { RECIPE_IDS, RECIPES } from '../../../main/engine/recipes/recipes.js';
import { recipeFormats } from '../../../main/engine/recipes/render.js';
import { responseFormatProblem } from '../../../main/service/response-format.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

describe('recipes', () => {
  it('a recipe ticks the files its answers make: chapter files only when it asks for chapters', () => {
    expect(recipeFormats(RECIPES.podcast)).toEqual(['md', 'chapters', 'youtube', 'ffmetadata', 'shownotes']);
    expect(recipeFormats(RECIPES.interview)).toEqual(['md', 'chapters', 'youtube', 'ffmetadata', 'shownotes']);
    expect(recipeFormats(RECIPES.meeting)).toEqual(['md', 'shownotes']);
  });

  for (const id of RECIPE_IDS) {
    const recipe = RECIPES[id];
    it(`${id}: at most three prompts, each schema within the contract's rules`, () => {
      expect(recipe.prompts.length).toBeGreaterThan(0);
      expect(recipe.prompts.length).toBeLessThanOrEqual(3);
      for (const p of recipe.prompts) {
        expect(p.id.length).toBeLessThanOrEqual(64);
        expect(responseFormatProblem(JSON.stringify(p.format))).toBeUndefined();
        expect(JSON.stringify(p.format)).not.toContain('"default"');
      }
      expect(new Set(recipe.prompts.map((p) => p.id)).size).toBe(recipe.prompts.length);
    });

    it(`${id}: its prompts and schemas go in the multipart configuration, not the query`, () => {
      const params = recipeOwnParams(recipe);
      const plan = planUpload({ templateId: TEMPLATE_IDS.transcription, streamId: 's1', name: 'a.wav', params });
      expect(plan.multipartConfiguration).toBeDefined();
      expect(plan.query.map(([k]) => k).filter((k) => k.startsWith('ask'))).toEqual([]);
      const sent = (JSON.parse(plan.multipartConfiguration!) as { patches: Record<string, unknown> }).patches;
      recipe.prompts.forEach((p, n) => {
        expect(sent[`ask${n}`]).toBe(p.prompt);
        expect(sent[`ask${n}System`]).toBe(p.system);
        expect(sent[`ask${n}Id`]).toBe(p.id);
        expect(JSON.parse(sent[`ask${n}Format`] as string)).toEqual(p.format);
      });
    });

    it(`${id}: its parameters pass the template check of both transcription templates`, () => {
      const params = recipeOwnParams(recipe);
      expect(params.summary).toBe(true);
      expect(params.ask3).toBeUndefined();
      for (const template of [TEMPLATE_IDS.transcription, TEMPLATE_IDS.diarization]) {
        expect(templateProblems(template, { language: 'en', ...params })).toEqual([]);
      }
    });
  }

  it('refuses before sending what the sandbox refuses in the question slots, with the same checks', () => {
    const t = TEMPLATE_IDS.transcription;
    const fields = (params: Record<string, string>) => templateProblems(t, params).map((p) => p.message);
    // A format the contract forbids (a free-form object), and one no validator compiles (a misspelt type).
    expect(fields({ ask0: 'q', ask0Format: '{"type":"object"}' })).toEqual([
      'ask0Format: / is a free-form object: list its properties.',
    ]);
    const typo = JSON.stringify({
      type: 'object',
      properties: { a: { type: 'strnig' } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(fields({ ask0: 'q', ask0Format: typo })).toEqual([
      expect.stringMatching(/^ask0Format: is not a valid JSON Schema \(schema is invalid: data\/properties\/a\/type /),
    ]);
    expect(fields({ ask0: 'q', ask1: 'r', ask0Id: 'notes', ask1Id: 'notes' })).toEqual([
      'ask1Id: the answer key "notes" is also question 1\'s (ask0); give each question its own key.',
    ]);
    // The default key is the slot's index: a typed "0" on slot 2 meets slot 1's.
    expect(fields({ ask0: 'q', ask1: 'r', ask1Id: '0' })).toHaveLength(1);
    expect(fields({ ask1: 'r', ask1Id: '0' })).toEqual([]);
    // The combinations the sandbox refuses, from the same check.
    const dia = (params: Record<string, string>) =>
      templateProblems(TEMPLATE_IDS.diarization, params).map((p) => p.message);
    expect(dia({ minSpeakersNumber: '4', maxSpeakersNumber: '2' })).toEqual([
      'minSpeakersNumber: must not exceed maxSpeakersNumber.',
    ]);
  });

  it('the template check refuses a recipe on a template without the audio-intelligence layer', () => {
    const problems = templateProblems(TEMPLATE_IDS.ping, recipeOwnParams(RECIPES.podcast));
    expect(problems.map((p) => p.field)).toContain('params.ask0');
  });

  it('lays a recipe over the job’s parameters but never over a question the job asks itself', () => {
    expect(withRecipe({ language: 'de' }, undefined)).toEqual({ params: { language: 'de' }, problems: [] });
    const ok = withRecipe({ language: 'de', summary: false }, RECIPES.meeting);
    expect(ok.problems).toEqual([]);
    expect(ok.params).toMatchObject({ language: 'de', summary: true, summaryStructure: 'bullet_points' });
    expect(ok.params.ask1Id).toBe(RECIPES.meeting.prompts[1]!.id);
    const clash = withRecipe({ ask1: 'Who spoke most?', ask2: 'Any jokes?' }, RECIPES.meeting);
    expect(clash.problems).toEqual([
      'ask1: the recipe "Meeting" uses question slot 2; clear ask1 or choose no recipe.',
    ]);
  });
});

describe('responseFormatProblem', () => {
  it.each([
    ['{', 'is not valid JSON Schema text'],
    ['[]', 'must be a JSON Schema object'],
    ['{"type":"array"}', 'must describe an object (its root "type" must be "object")'],
    ['{"type":"object"}', '/ is a free-form object: list its properties'],
    [
      '{"type":"object","properties":{"a":{"type":"string"}}}',
      '/ is a free-form object: set additionalProperties to false',
    ],
    [
      '{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string","default":"x"}}}',
      '/properties/a has a default value, which response formats may not have',
    ],
    [
      '{"type":"object","additionalProperties":false,"properties":{"a":{"type":"array","items":{"type":"object"}}}}',
      '/properties/a/items is a free-form object: list its properties',
    ],
  ])('%s → %s', (text, why) => {
    expect(responseFormatProblem(text)).toBe(why);
  });
});
