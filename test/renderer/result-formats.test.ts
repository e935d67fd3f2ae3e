import { describe, expect, it } from 'vitest';
import { WORD_FORMATS } from '../../preload/contract.js';
import { FORMATS, markdownHasContent, unavailableFormats } from '../../renderer/src/lib/result-formats.js';

describe('which formats a finished job can be re-exported to', () => {
  it('every format is offered, in one order', () => {
    expect(FORMATS.map((f) => f.id)).toEqual([
      ...['json', 'srt', 'vtt', 'txt', 'csv', 'md', 'docx'],
      ...['fcpxml', 'itt', 'ttml', 'edl', 'premiere', 'avid'],
    ]);
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

  it('a transcript with speech and a summary can have every format', () => {
    expect(unavailableFormats({ params: { summary: true }, noSpeech: false })).toEqual({});
  });

  it('Markdown is refused without a summary, with the reason', () => {
    const why = unavailableFormats({ params: {}, noSpeech: false });
    expect(Object.keys(why)).toEqual(['md']);
    expect(why.md).toMatch(/summary/);
  });

  it('media with no speech gets none of the formats made from words; JSON and Markdown stay', () => {
    const why = unavailableFormats({ params: { summary: true }, noSpeech: true });
    expect(Object.keys(why).sort()).toEqual([...WORD_FORMATS].sort());
    expect(why.srt).toMatch(/No speech/);
    expect(why.json).toBeUndefined();
    expect(why.md).toBeUndefined();
  });
});
