import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alignChapters,
  alignQuotes,
  findQuote,
  indexWords,
  MIN_CHAPTER_GAP_MS,
  type AlignWord,
} from '../../../main/engine/recipes/align.js';
import { searchTokens } from '../../../main/engine/transcript/search-text.js';

// A small vocabulary so that phrases repeat, with accents, punctuation and hyphenated words.
const VOCAB = [
  'the',
  'Café',
  'naïve',
  'Straße',
  'São',
  'Paulo,',
  'déjà-vu',
  'rock’n’roll',
  'ok.',
  '“Hello”',
  'week',
  'A',
];

const transcript = fc
  .array(fc.tuple(fc.constantFrom(...VOCAB), fc.integer({ min: 50, max: 4000 })), { minLength: 1, maxLength: 120 })
  .map((pairs) => {
    let t = 0;
    return pairs.map(([text, gap]): AlignWord => {
      t += gap;
      const w = { text, startMs: t, endMs: t + 40, speaker: `Speaker ${(t % 3) + 1}` };
      t += 40;
      return w;
    });
  });

/** The way a model might write the same words: other case, accents dropped, punctuation moved. */
const restyle = (words: readonly string[], style: number): string => {
  const joined = words.join(style % 2 === 0 ? ' ' : ', ');
  if (style === 0) return joined.toUpperCase();
  if (style === 1) return joined.normalize('NFKD').replace(/\p{M}+/gu, '');
  if (style === 2) return `…${joined.replace(/-/g, ' ')}!`;
  return joined.toLowerCase();
};

const folded = (ws: readonly AlignWord[], from: number, to: number) =>
  ws.slice(from, to).flatMap((w) => searchTokens(w.text));

describe('findQuote', () => {
  it('finds a run of the transcript however it is cased, accented or punctuated, at its first occurrence', () => {
    fc.assert(
      fc.property(
        transcript,
        fc.nat(),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 3 }),
        (ws, a, len, style) => {
          const i = a % ws.length;
          const j = Math.min(ws.length, i + len);
          const quote = restyle(
            ws.slice(i, j).map((w) => w.text),
            style,
          );
          const m = findQuote(indexWords(ws), quote);
          expect(m).toBeDefined();
          // The earliest place the same folded words start, which may be before i when the run repeats.
          expect(m!.first).toBeLessThanOrEqual(i);
          const needle = searchTokens(quote);
          expect(folded(ws, m!.first, ws.length).slice(0, needle.length)).toEqual(needle);
          expect(ws.map((w) => w.startMs)).toContain(ws[m!.first]!.startMs);
        },
      ),
    );
  });

  it('reports a quote whose words are not in the transcript instead of guessing', () => {
    fc.assert(
      fc.property(transcript, fc.array(fc.constantFrom(...VOCAB), { maxLength: 6 }), (ws, rest) => {
        expect(findQuote(indexWords(ws), ['Zanzibar', ...rest].join(' '))).toBeUndefined();
        expect(findQuote(indexWords(ws), '¿…!')).toBeUndefined();
      }),
    );
  });

  it('starts a quote on a word, not inside one', () => {
    const ws: AlignWord[] = [
      { text: 'déjà-vu', startMs: 0, endMs: 10 },
      { text: 'again', startMs: 500, endMs: 510 },
    ];
    expect(findQuote(indexWords(ws), 'vu again')).toBeUndefined();
    expect(findQuote(indexWords(ws), 'Deja vu, again')).toMatchObject({ first: 0, last: 1 });
  });

  it('takes the first words when the end of a long quote was changed', () => {
    const ws = 'we never thought the river would rise this fast'.split(' ').map((text, i) => ({
      text,
      startMs: i * 1000,
      endMs: i * 1000 + 500,
    }));
    expect(findQuote(indexWords(ws), 'We never thought the water would come so quickly')?.first).toBe(0);
    expect(findQuote(indexWords(ws), 'never thought it')).toBeUndefined();
  });
});

describe('alignChapters', () => {
  const chapterInput = (ws: readonly AlignWord[]) =>
    fc.array(
      fc.oneof(
        fc.tuple(fc.nat(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 3 })).map(([a, len, style]) => {
          const i = a % ws.length;
          return {
            title: `at ${i}`,
            firstWords: restyle(
              ws.slice(i, i + len).map((w) => w.text),
              style,
            ),
          };
        }),
        fc.constant({ title: 'missing', firstWords: 'Zanzibar calling' }),
      ),
      { maxLength: 12 },
    );

  it('gives every chapter a word’s start (the first 0), ascending and 10 s apart, and accounts for each', () => {
    fc.assert(
      fc.property(
        transcript.chain((ws) => fc.tuple(fc.constant(ws), chapterInput(ws))),
        ([ws, input]) => {
          const r = alignChapters(ws, input);
          expect(r.chapters.length + r.missing.length + r.merged.length).toBe(input.length);
          expect(r.missing.every((c) => c.title === 'missing')).toBe(true);
          if (r.chapters.length > 0) expect(r.chapters[0]!.startMs).toBe(0);
          const starts = new Set(ws.map((w) => w.startMs));
          r.chapters.forEach((c, k) => {
            if (k > 0) {
              expect(starts.has(c.startMs)).toBe(true);
              expect(c.startMs - r.chapters[k - 1]!.startMs).toBeGreaterThanOrEqual(MIN_CHAPTER_GAP_MS);
            }
          });
        },
      ),
    );
  });

  it('takes a repeated phrase after the previous chapter, and merges chapters closer than 10 s', () => {
    const text = 'so welcome back so welcome back and now the news and now sport';
    const ws = text.split(' ').map((t, i) => ({ text: t, startMs: 5000 + i * 6000, endMs: 5000 + i * 6000 + 300 }));
    const r = alignChapters(ws, [
      { title: 'Intro', firstWords: 'so welcome back' },
      { title: 'Again', firstWords: 'So, welcome back!' },
      { title: 'News', firstWords: 'and now the news' },
      { title: 'Nowhere', firstWords: 'weather forecast' },
      { title: 'Sport', firstWords: 'now sport' },
    ]);
    expect(r.chapters).toEqual([
      { title: 'Intro', startMs: 0 },
      { title: 'Again', startMs: 23_000 },
      { title: 'News', startMs: 41_000 },
      { title: 'Sport', startMs: 71_000 },
    ]);
    expect(r.missing.map((c) => c.title)).toEqual(['Nowhere']);
    const close = alignChapters(ws, [
      { title: 'Intro', firstWords: 'so welcome' },
      { title: 'A', firstWords: 'the news' },
      { title: 'B', firstWords: 'news and now' },
    ]);
    expect(close.chapters).toEqual([
      { title: 'Intro', startMs: 0 },
      { title: 'A', startMs: 53_000 },
    ]);
    expect(close.merged).toEqual([{ title: 'B', startMs: 59_000 }]);
  });
});

describe('alignQuotes', () => {
  it('gives a quote the time and speaker of its first word and the end of its last', () => {
    const ws: AlignWord[] = [
      { text: 'Honestly,', startMs: 100, endMs: 400, speaker: 'Speaker 2' },
      { text: 'São', startMs: 500, endMs: 700, speaker: 'Speaker 2' },
      { text: 'Paulo', startMs: 700, endMs: 900, speaker: 'Speaker 2' },
      { text: 'won.', startMs: 900, endMs: 1200, speaker: 'Speaker 2' },
    ];
    const r = alignQuotes(ws, ['"Sao Paulo won"', 'nothing like this']);
    expect(r.quotes).toEqual([{ text: '"Sao Paulo won"', startMs: 500, endMs: 1200, speaker: 'Speaker 2' }]);
    expect(r.missing).toEqual(['nothing like this']);
  });

  it('takes a quote given again at the next time it is said, even when said a little otherwise then', () => {
    const said = 'we will fix the bridge this year . later on we will fix the bridge next spring'.split(' ');
    const ws: AlignWord[] = said.map((text, i) => ({ text, startMs: i * 1000, endMs: i * 1000 + 500 }));
    // The full quote is said only the first time; its opening words again at 10 s.
    const r = alignQuotes(ws, ['We will fix the bridge this year', 'We will fix the bridge this year']);
    expect(r.quotes.map((q) => q.startMs)).toEqual([0, 10_000]);
    expect(r.missing).toEqual([]);
  });
});
