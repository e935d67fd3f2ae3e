import { describe, expect, it } from 'vitest';
import type { ParamSpecView } from '../../preload/contract.js';
import { formSpecs, vocabularyIntoGlossary } from '../../renderer/src/lib/glossary.js';

const spec = (name: string) => ({ name, label: name, type: 'string', group: 'enhancement' }) as ParamSpecView;

describe('one Glossary field', () => {
  it('leaves the template’s vocabulary field out, unless a value is still held there', () => {
    const specs = [spec('enhancedTranscription'), spec('etVocabulary')];
    expect(formSpecs(specs, {}).map((s) => s.name)).toEqual(['enhancedTranscription']);
    expect(formSpecs(specs, { etVocabulary: 'MoveFlow' }).map((s) => s.name)).toEqual([
      'enhancedTranscription',
      'etVocabulary',
    ]);
  });
  it('moves a saved vocabulary into the glossary, each term once, and nothing is lost', () => {
    expect(vocabularyIntoGlossary({ language: 'de', etVocabulary: 'MoveFlow, Hafen,  moveflow' }, ['Hafen'])).toEqual({
      params: { language: 'de' },
      glossary: ['Hafen', 'MoveFlow'],
    });
    expect(vocabularyIntoGlossary(undefined, undefined)).toEqual({ params: {}, glossary: [] });
  });
});
