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

  it("quotes refused terms escaped: a binary file's control bytes never reach the message raw", () => {
    // ESC [2J clears a terminal; U+202E reverses what follows; both as a binary file read as text holds them.
    const esc = `ab\u001b[2Jcd`;
    expect(glossaryProblems([esc])).toEqual([
      '"ab\\u001B[2Jcd": a glossary term is text; this one holds control characters (is the file binary?).',
    ]);
    const long = `\u202e${'x'.repeat(120)}`;
    expect(glossaryProblems([long])).toEqual([`"\\u202E${'x'.repeat(39)}…": a glossary term has 1 to 100 characters.`]);
    const comma = `\u0007bell,${'y'.repeat(50)}`;
    const [said] = glossaryProblems([comma]);
    expect(said).toBe(
      `"\\u0007bell,${'y'.repeat(34)}…": a glossary term cannot hold a comma (terms are sent comma-separated).`,
    );
    // Nothing refused holds a control character once quoted.
    for (const p of glossaryProblems([esc, long, comma, '\u0000\u009b\u007f'])) {
      // eslint-disable-next-line no-control-regex -- control characters are what must not be there
      expect(p).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    }
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
