// Each answer is read against the format Sluice sent for it: one that is not JSON or breaks its
// format is named; of a broken one only the parts holding the format's required fields are used.
import { describe, expect, it } from 'vitest';
import { readAnswers, sentFormats } from '../../../main/engine/recipes/answers.js';
import { recipeOwnParams } from '../../../main/engine/recipes/recipe-params.js';
import { ANSWER_IDS, RECIPES } from '../../../main/engine/recipes/recipes.js';
import { recipeNotes } from '../../../main/engine/recipes/render.js';
import { checkAnswer } from '../../../main/service/json-schema.js';
import type { ExportResult } from '../../../main/service/types.js';

const sent = sentFormats(recipeOwnParams(RECIPES.podcast));

function exportWith(answers: Record<string, unknown>): ExportResult {
  return {
    transcription: { text: '', words: [] },
    askAnything: Object.fromEntries(
      Object.entries(answers).map(([id, content]) => [
        id,
        {
          promptId: id,
          content: typeof content === 'string' ? content : JSON.stringify(content),
          responseFormatSpecification: null,
        },
      ]),
    ),
  };
}

describe('checkAnswer', () => {
  const format = JSON.stringify(RECIPES.podcast.prompts[0]!.format);

  it('takes an answer that matches its format as it is', () => {
    const ok = { title: 'T', chapters: [{ title: 'A', firstWords: 'we begin' }] };
    expect(checkAnswer(format, ok)).toEqual({ errors: [], usable: ok });
  });

  it('leaves out the items whose required fields do not hold, and names every break', () => {
    const r = checkAnswer(format, {
      title: 'T',
      chapters: [{ title: 'A', firstWords: 'we begin' }, { title: 'B' }, { title: 'C', firstWords: 7 }],
    });
    expect(r.usable).toEqual({ title: 'T', chapters: [{ title: 'A', firstWords: 'we begin' }] });
    expect(r.errors).toEqual([
      "/chapters/1 must have required property 'firstWords'",
      '/chapters/2/firstWords must be string',
    ]);
  });

  it('uses nothing when the answer’s own required fields do not hold', () => {
    expect(checkAnswer(format, { chapters: 'plain string' }).usable).toBeUndefined();
    expect(checkAnswer(format, 'plain string').usable).toBeUndefined();
  });
});

describe('readAnswers against the formats sent', () => {
  it('names a keywords answer that breaks its format and does not use it', () => {
    const r = readAnswers(exportWith({ [ANSWER_IDS.keywords]: { keywords: 'plain string' } }), sent);
    expect(r.keywords).toBeUndefined();
    expect(r.problems).toEqual([
      'The keywords answer did not match its schema: /keywords must be array; it was not used.',
    ]);
  });

  it('says an answer is not JSON rather than that nothing came back', () => {
    const e = exportWith({ [ANSWER_IDS.chapters]: 'Here are your chapters: intro, outro' });
    expect(readAnswers(e, sent).problems).toEqual(['The chapters answer is not JSON, so it was not used.']);
    expect(recipeNotes(JSON.stringify(e), ['chapters'], { sourceName: 'x.wav', answerFormats: sent })).toEqual([
      'The chapters answer is not JSON, so it was not used.',
      'No usable chapters came back for this file (the chapters answer could not be used), so chapters was not written.',
    ]);
  });

  it('uses the quotes that hold their fields when there are fewer than the format asks for', () => {
    const r = readAnswers(exportWith({ [ANSWER_IDS.quotes]: { quotes: [{ quote: 'one' }, { nope: 1 }] } }), sent);
    expect(r.quotes).toEqual(['one']);
    expect(r.problems?.[0]).toMatch(/^The quotes answer did not match its schema: .*; the parts that did were used\.$/);
  });

  it('reads against the format the job sent, not the recipe’s, when the job sent its own', () => {
    const own = JSON.stringify({
      type: 'object',
      properties: { keywords: { type: 'array', items: { type: 'string' }, maxItems: 1 } },
      required: ['keywords'],
      additionalProperties: false,
    });
    const e = exportWith({ [ANSWER_IDS.keywords]: { keywords: ['a', 'b'] } });
    expect(readAnswers(e, sent).problems).toBeUndefined();
    const mine = readAnswers(e, sentFormats({ ask0: 'q', ask0Id: ANSWER_IDS.keywords, ask0Format: own }));
    expect(mine.problems).toEqual([
      'The keywords answer did not match its schema: /keywords must NOT have more than 1 items; the parts that did were used.',
    ]);
    expect(mine.keywords).toEqual(['a', 'b']);
  });
});
