import { describe, expect, it } from 'vitest';
import { RESULT_FORMATS } from '../../main/engine/settings.js';
import { recipeOwnParams } from '../../main/engine/recipes/recipe-params.js';
import { RECIPES } from '../../main/engine/recipes/recipes.js';
import { WORD_FORMATS } from '../../preload/contract.js';
import {
  FORMAT_GROUPS,
  FORMATS,
  markdownHasContent,
  unavailableFormats,
} from '../../renderer/src/lib/result-formats.js';

describe('which formats a finished job can be re-exported to', () => {
  it('every format is offered under a label of its own', () => {
    expect(FORMATS.map((f) => f.id)).toEqual([...RESULT_FORMATS]);
    expect(new Set(FORMATS.map((f) => f.label)).size).toBe(RESULT_FORMATS.length);
  });

  it('the re-export dialog shows every format once, in four groups', () => {
    const grouped = FORMAT_GROUPS.flatMap((g) => g.formats);
    expect([...grouped].sort()).toEqual([...RESULT_FORMATS].sort());
    expect(new Set(grouped).size).toBe(grouped.length);
    expect(FORMAT_GROUPS.map((g) => g.id)).toEqual(['captions', 'documents', 'editor', 'recipe']);
  });

  it.each([
    ['a summary', { summary: true }, true],
    ['sentiment', { sentimentAnalysis: true }, true],
    ['a question', { ask1: 'Who spoke first?' }, true],
    ['an empty question', { ask1: '  ' }, false],
    ['nothing of the kind', { language: ['en'] }, false],
    ['unknown parameters', undefined, true],
  ])('Markdown with %s: %s', (_name, params, expected) => {
    expect(markdownHasContent(params)).toBe(expected);
  });

  it('a transcript with speech and a recipe with chapters can have every format', () => {
    expect(unavailableFormats({ params: recipeOwnParams(RECIPES.podcast), noSpeech: false })).toEqual({});
    expect(unavailableFormats({ params: undefined, noSpeech: false })).toEqual({});
  });

  it('chapter formats are refused without a recipe that asks for chapters, with the reason', () => {
    const why = unavailableFormats({ params: recipeOwnParams(RECIPES.meeting), noSpeech: false });
    expect(Object.keys(why).sort()).toEqual(['chapters', 'ffmetadata', 'youtube']);
    expect(why.youtube).toMatch(/Podcast or Interview recipe/);
  });

  it('Markdown is refused without a summary, with the reason', () => {
    const why = unavailableFormats({ params: {}, noSpeech: false });
    expect(Object.keys(why)).toContain('md');
    expect(why.md).toMatch(/summary/);
  });

  it('media with no speech gets none of the formats made from words; JSON and Markdown stay', () => {
    const why = unavailableFormats({ params: recipeOwnParams(RECIPES.podcast), noSpeech: true });
    expect(Object.keys(why).sort()).toEqual([...WORD_FORMATS].sort());
    expect(why.srt).toMatch(/No speech/);
    expect(why.json).toBeUndefined();
    expect(why.md).toBeUndefined();
  });
});
