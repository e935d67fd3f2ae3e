import { describe, expect, it } from 'vitest';
import { templateProblems } from '../../../main/engine/params.js';
import { glossaryParams, glossaryProblems, parseGlossary } from '../../../main/engine/recipes/glossary.js';
import { recipeParams } from '../../../main/engine/recipes/recipe-params.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

describe('glossary', () => {
  it('reads one term per line, or a CSV’s first column, each once', () => {
    const text = '\uFEFFMoveFlow\r\n  Zoë Ødegaard \n\n# people\n"Smith, Jones & Co",law firm\nmoveflow\nKyiv;city\n';
    expect(parseGlossary(text)).toEqual(['MoveFlow', 'Zoë Ødegaard', 'Smith Jones & Co', 'Kyiv']);
    expect(parseGlossary('')).toEqual([]);
    // A CSV's header row is not a term; a one-column list's first line is.
    expect(parseGlossary('Name,Role\nMoveFlow,product\n')).toEqual(['MoveFlow']);
    expect(parseGlossary('Names\nMoveFlow\n')).toEqual(['Names', 'MoveFlow']);
  });

  it('says what is wrong with a glossary it cannot send', () => {
    expect(glossaryProblems(['MoveFlow'])).toEqual([]);
    expect(glossaryProblems(['a,b'])).toEqual([
      '"a,b": a glossary term cannot hold a comma (terms are sent comma-separated).',
    ]);
    expect(glossaryProblems(Array.from({ length: 501 }, (_, i) => `t${i}`))[0]).toMatch(/501 terms; keep it to 500/);
  });

  it('turns the enhancement on and joins the terms to a vocabulary already given, each once', () => {
    expect(glossaryParams(undefined, [])).toEqual({});
    expect(glossaryParams('Sluice, moveflow', ['MoveFlow', 'Kyiv'])).toEqual({
      enhancedTranscription: true,
      etVocabulary: 'Sluice, moveflow, Kyiv',
    });
  });

  it('goes with a recipe, and the template check says where a template takes no vocabulary', () => {
    const r = recipeParams({ language: 'en' }, 'podcast', ['MoveFlow']);
    expect(r.problems).toEqual([]);
    expect(r.params).toMatchObject({
      etVocabulary: 'MoveFlow',
      enhancedTranscription: true,
      ask0Id: 'sluice-chapters',
    });
    expect(templateProblems(TEMPLATE_IDS.diarization, r.params)).toEqual([]);
    expect(
      templateProblems(TEMPLATE_IDS.ping, recipeParams({}, null, ['MoveFlow']).params).map((p) => p.field),
    ).toEqual(['params.enhancedTranscription', 'params.etVocabulary']);
  });
});
