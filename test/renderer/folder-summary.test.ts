import { describe, expect, it } from 'vitest';
import { folderSummary } from '../../renderer/src/lib/folder-summary.js';

const output = {
  formats: ['json', 'srt', 'shownotes'] as Array<'json' | 'srt' | 'shownotes'>,
  pattern: '{name}',
  languageSuffix: null,
  txtTimestamps: false,
  captions: {
    preset: 'broadcast' as const,
    charsPerLine: 37,
    lines: 2,
    minDurationMs: 1000,
    maxDurationMs: 7000,
    minGapMs: 80,
    speakerLabels: true,
  },
};

describe('a watch folder’s summary line', () => {
  it('names the recipe, the caption layouts, the output folder and the glossary', () => {
    const line = folderSummary(
      {
        recursive: true,
        output: { ...output, moreCaptions: ['vertical'] },
        outputDir: '/srv/out',
        glossary: ['A', 'B', 'C', 'D'],
      },
      { template: 'Transcription', recipe: 'Podcast episode' },
    );
    expect(line).toEqual([
      'Transcription',
      'Recipe: Podcast episode',
      'Captions: Broadcast + Vertical video',
      'Results in /srv/out',
      'Glossary: 4 terms',
      'with subfolders',
      'JSON, SRT, SHOWNOTES',
    ]);
  });
  it('says so when there is no recipe, no output folder and no glossary', () => {
    const line = folderSummary({ recursive: false, output, outputDir: null }, { template: 'T', recipe: undefined });
    expect(line.slice(1, 6)).toEqual([
      'Transcript only',
      'Captions: Broadcast',
      'Results beside each file',
      'No glossary',
      'top level only',
    ]);
  });
});
