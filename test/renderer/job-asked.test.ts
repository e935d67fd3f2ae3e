import { describe, expect, it } from 'vitest';
import { askedLines } from '../../renderer/src/lib/job-asked.js';

describe('what a job asked for, in an editor’s words', () => {
  it('names the recipe, counts the glossary and names the language; no raw keys', () => {
    const lines = askedLines(
      {
        language: 'de',
        enhancedTranscription: true,
        etVocabulary: 'MoveFlow, Zoë Ødegaard, Sluice, Hafen',
        summary: true,
        ask0: 'Divide this podcast…',
        ask0Id: 'sluice-chapters',
      },
      'Podcast episode',
    );
    expect(lines).toEqual([
      { label: 'Recipe', value: 'Podcast episode' },
      { label: 'Glossary', value: '4 terms' },
      { label: 'Language', value: 'German' },
    ]);
  });
  it('says the service detects an unnamed language, and counts speakers and questions of its own', () => {
    expect(askedLines({ speakersNumber: 2, summary: true, ask0: 'Who?', ask1: ' ' }, undefined)).toEqual([
      { label: 'Language', value: 'Detected by the service' },
      { label: 'Speakers', value: '2 speakers' },
      { label: 'Summary', value: 'Asked for' },
      { label: 'Questions', value: '1 question of its own' },
    ]);
    expect(askedLines({ language: ['en', 'fr'] }, undefined)).toEqual([
      { label: 'Languages', value: 'English, French' },
    ]);
  });
});
