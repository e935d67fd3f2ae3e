import { describe, expect, it } from 'vitest';
import {
  renderFfmetadata,
  renderJsonChapters,
  renderYoutube,
  youtubeProblem,
  youtubeTime,
} from '../../../main/engine/recipes/chapter-formats.js';
import { ANSWER_IDS } from '../../../main/engine/recipes/recipes.js';
import { RECIPE_RENDERERS, recipeNotes } from '../../../main/engine/recipes/render.js';

const chapters = [
  { title: 'Intro', startMs: 0 },
  { title: 'The river; = #1', startMs: 65_400 },
  { title: 'Two\nlines', startMs: 3_725_000 },
];

describe('chapter formats', () => {
  it('writes Podcasting 2.0 JSON chapters in seconds, ascending', () => {
    const doc = JSON.parse(renderJsonChapters([chapters[1]!, chapters[0]!])!);
    expect(doc).toEqual({
      version: '1.2.0',
      chapters: [
        { startTime: 0, title: 'Intro' },
        { startTime: 65.4, title: 'The river; = #1' },
      ],
    });
    expect(renderJsonChapters([])).toBeNull();
  });

  it('writes YouTube lines only when YouTube would take them', () => {
    expect(youtubeTime(0)).toBe('0:00');
    expect(youtubeTime(65_999)).toBe('1:05');
    expect(youtubeTime(3_725_000)).toBe('1:02:05');
    expect(renderYoutube(chapters)).toBe('0:00 Intro\n1:05 The river; = #1\n1:02:05 Two lines\n');
    expect(renderYoutube(chapters.slice(0, 2))).toBeNull();
    expect(youtubeProblem(chapters.slice(0, 2))).toMatch(/at least 3 chapters and this recording has 2/);
    expect(youtubeProblem([chapters[0]!, { title: 'b', startMs: 9_999 }, { title: 'c', startMs: 30_000 }])).toMatch(
      /10 seconds apart/,
    );
  });

  it('writes an ffmpeg metadata file with escaped titles, each chapter ending where the next starts', () => {
    expect(renderFfmetadata(chapters, 4_000_000, 'A # title')).toBe(
      [
        ';FFMETADATA1',
        'title=A \\# title',
        '',
        '[CHAPTER]',
        'TIMEBASE=1/1000',
        'START=0',
        'END=65400',
        'title=Intro',
        '',
        '[CHAPTER]',
        'TIMEBASE=1/1000',
        'START=65400',
        'END=3725000',
        'title=The river\\; \\= \\#1',
        '',
        '[CHAPTER]',
        'TIMEBASE=1/1000',
        'START=3725000',
        'END=4000000',
        'title=Two lines',
        '',
      ].join('\n'),
    );
  });
});

/** An export with words every 3 s and the recipe answers given. */
function exportText(answers: Record<string, unknown>, summary?: string): string {
  const words = Array.from({ length: 60 }, (_, i) => ({
    word: ` ${['Welcome', 'to', 'the', 'show.', 'Today', 'we', 'talk', 'about', 'rivers,', 'bridges', 'and', 'Zoë.'][i % 12]}`,
    start: i * 3000,
    end: i * 3000 + 500,
    speakers: [i < 30 ? 'SPEAKER_0' : 'SPEAKER_1'],
  }));
  const askAnything = Object.fromEntries(
    Object.entries(answers).map(([id, v]) => [
      id,
      { promptId: id, content: JSON.stringify(v), responseFormatSpecification: null },
    ]),
  );
  return JSON.stringify({
    transcription: { text: words.map((w) => w.word).join(''), words },
    ...(summary ? { summary: { content: summary } } : {}),
    askAnything,
  });
}

describe('recipe renderers', () => {
  const text = exportText(
    {
      [ANSWER_IDS.chapters]: {
        title: 'Rivers and bridges',
        chapters: [
          { title: 'Welcome', firstWords: 'Welcome to the show' },
          { title: 'Rivers', firstWords: 'Today we talk about rivers' },
          { title: 'Bridges', firstWords: 'bridges and zoe' },
          { title: 'Invented', firstWords: 'the mountains are high' },
        ],
      },
      [ANSWER_IDS.quotes]: { quotes: [{ quote: 'talk about rivers, bridges' }, { quote: 'never said' }] },
      [ANSWER_IDS.keywords]: { keywords: ['rivers', 'bridges'] },
    },
    'An episode about rivers.',
  );
  const ctx = { sourceName: 'ep1.wav' };

  it('places chapters on the words their first words quote, and reports those it cannot place', () => {
    const doc = JSON.parse(RECIPE_RENDERERS.chapters(text, ctx)!);
    expect(doc.chapters).toEqual([
      { startTime: 0, title: 'Welcome' },
      { startTime: 12, title: 'Rivers' },
      { startTime: 27, title: 'Bridges' },
    ]);
    expect(RECIPE_RENDERERS.youtube(text, ctx)).toBe('0:00 Welcome\n0:12 Rivers\n0:27 Bridges\n');
    const notes = recipeNotes(text, ['json', 'chapters', 'youtube', 'shownotes'], ctx);
    expect(notes).toEqual([
      // Two quotes where the format asks for three or more: named, and the two are used.
      'The quotes answer did not match its schema: /quotes must NOT have fewer than 3 items; the parts that did were used.',
      '1 chapter was left out: their opening words are not in the transcript (“Invented”).',
      '1 quote was left out: not found word for word in the transcript (“never said”).',
    ]);
    // Chapters and quotes are also markers and listed in the review: reported without a recipe format too.
    expect(recipeNotes(text, ['json', 'srt', 'fcpxml'], ctx)).toEqual(notes);
  });

  it('writes show notes with the title, summary, chapters, quotes with speaker and time, keywords', () => {
    const md = RECIPE_RENDERERS.shownotes(text, ctx)!;
    expect(md).toContain('# Rivers and bridges\n\n_ep1.wav_\n\n## Summary\n\nAn episode about rivers.');
    expect(md).toContain('- `0:12` Rivers');
    expect(md).toContain('> talk about rivers, bridges\n>\n> — Speaker 1, `0:18`');
    expect(md).toContain('## Keywords\n\nrivers, bridges');
  });

  it('writes nothing and says why when no recipe answered', () => {
    const plain = exportText({});
    for (const f of ['chapters', 'youtube', 'shownotes', 'ffmetadata'] as const) {
      expect(RECIPE_RENDERERS[f](plain, ctx)).toBeNull();
    }
    expect(recipeNotes(plain, ['chapters', 'shownotes'], ctx)).toEqual([
      'No chapters came back for this file, so chapters was not written.',
      'Show notes were not written: no summary, chapters, quotes or keywords came back (choose a recipe).',
    ]);
    expect(recipeNotes(plain, ['json', 'srt'], ctx)).toEqual([]);
  });

  it('writes a meeting’s decisions and action items', () => {
    const md = RECIPE_RENDERERS.shownotes(
      exportText({
        [ANSWER_IDS.decisions]: { decisions: [{ decision: 'Ship on Friday.' }] },
        [ANSWER_IDS.actions]: { actions: [{ task: 'Call the | supplier', owner: 'Ana', due: '' }] },
      }),
      ctx,
    )!;
    expect(md).toContain('## Decisions\n\n- Ship on Friday.');
    expect(md).toContain('| Call the \\| supplier | Ana | — |');
  });
});
