// What a run says of media with no speech: the formats asked for that were not written, and why.
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../main/engine/job.js';
import { noSpeechNote } from '../../main/engine/outcome-words.js';
import { OUTPUT } from '../../main/engine/settings.js';

const job = (formats: string[], noSpeech: boolean, state: JobRecord['state'] = 'completed') =>
  ({
    state,
    output: OUTPUT.parse({ formats }),
    results: [{ format: 'json', path: '/a.json', writtenBySluice: true, ...(noSpeech ? { noSpeech } : {}) }],
  }) as Pick<JobRecord, 'state' | 'results' | 'output'>;

describe('noSpeechNote', () => {
  it('names the caption, text and editor formats not written, not the JSON or the summary', () => {
    expect(noSpeechNote(job(['json', 'srt', 'md', 'fcpxml', 'edl'], true))).toBe(
      'No speech found: the media holds no spoken words, so srt, fcpxml, edl were not written (captions, text and editor files are made from the words, and empty ones would import as nothing); the JSON was.',
    );
    expect(noSpeechNote(job(['edl'], true))).toMatch(/so edl was not written/);
    expect(noSpeechNote(job(['json', 'md'], true))).toBe('No speech found: the media holds no spoken words.');
  });

  it('says nothing when there was speech, or the job is not done', () => {
    expect(noSpeechNote(job(['srt'], false))).toBeUndefined();
    expect(noSpeechNote(job(['srt'], true, 'failed'))).toBeUndefined();
  });
});
