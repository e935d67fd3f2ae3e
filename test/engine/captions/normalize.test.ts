import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExportResult, Word } from '../../../main/service/types.js';
import { detectTimeUnit, joinWords, normalizeExport, parseExport } from '../../../main/engine/captions/normalize.js';

const w = (word: string, start: number, end: number, speaker?: string): Word => ({
  word,
  start,
  end,
  ...(speaker === undefined ? {} : { speakers: [speaker] }),
});
const exportOf = (words: Word[]): ExportResult => ({
  transcription: { text: words.map((x) => x.word).join(''), words },
});

describe('normalizeExport: inputs caption tools get wrong', () => {
  it.each<[string, ExportResult | string]>([
    ['no words', { transcription: { text: '', words: [] } }],
    ['no transcription section', {}],
    ['null sections', { transcription: null, utterances: null } as unknown as ExportResult],
    ['empty text', ''],
    ['not JSON', 'oops'],
    ['a JSON array', '[1,2]'],
  ])('%s → an empty word list, not a crash', (_name, input) => {
    const t = normalizeExport(input);
    expect(t.words).toEqual([]);
    expect(t.speakers).toEqual([]);
  });

  it('accepts the raw JSON text as well as the parsed object', () => {
    const e = exportOf([w(' Hello', 100, 400), w(' there.', 400, 800)]);
    expect(normalizeExport(JSON.stringify(e))).toEqual(normalizeExport(e));
    expect(parseExport(JSON.stringify(e))).toEqual(e);
  });

  it('trims the leading space, keeps punctuation, drops blank tokens, collapses inner whitespace', () => {
    const t = normalizeExport(exportOf([w(' Good', 0, 200), w('  ', 200, 250), w(' new\nyear!', 250, 600)]));
    expect(t.words.map((x) => x.text)).toEqual(['Good', 'new year!']);
  });

  it('labels speakers by first appearance, whatever their ids (SPEAKER_3, SPEAKER_7 → Speaker 1, 2)', () => {
    const t = normalizeExport(
      exportOf([w(' a', 0, 100, 'SPEAKER_7'), w(' b', 100, 200, 'SPEAKER_3'), w(' c', 200, 300, 'SPEAKER_7')]),
    );
    expect(t.words.map((x) => x.speaker)).toEqual(['Speaker 1', 'Speaker 2', 'Speaker 1']);
    expect(t.speakers).toEqual(['Speaker 1', 'Speaker 2']);
  });

  it('reads the catalogue variant (metadata instead of speakers)', () => {
    const words: Word[] = [
      { word: ' Hi', start: 0, end: 300, metadata: { speaker: 'spk_b' } },
      { word: ' there', start: 300, end: 600, metadata: { speaker: 'spk_a' } },
    ];
    expect(normalizeExport(exportOf(words)).words.map((x) => x.speaker)).toEqual(['Speaker 1', 'Speaker 2']);
  });

  it('takes a speakerless word’s speaker from the utterance it falls in', () => {
    const words = [w(' One.', 0, 400), w(' Two.', 1000, 1400)];
    const e: ExportResult = {
      ...exportOf(words),
      utterances: [
        { speakerIds: ['SPEAKER_1'], overlap: false, start: 0, end: 400, text: ' One.', words: [] },
        { speakerIds: ['SPEAKER_0'], overlap: false, start: 1000, end: 1400, text: ' Two.', words: [] },
      ],
    };
    expect(normalizeExport(e).words.map((x) => x.speaker)).toEqual(['Speaker 1', 'Speaker 2']);
  });

  it('falls back to the utterances’ words when transcription.words is missing', () => {
    const e: ExportResult = {
      utterances: [
        {
          speakerIds: ['SPEAKER_0'],
          overlap: false,
          start: 0,
          end: 400,
          text: ' Yes.',
          words: [w(' Yes.', 0, 400, 'SPEAKER_0')],
        },
      ],
    };
    expect(normalizeExport(e).words).toMatchObject([{ text: 'Yes.', startMs: 0, endMs: 400, speaker: 'Speaker 1' }]);
  });

  it('sorts unsorted words by start time', () => {
    const t = normalizeExport(exportOf([w(' c', 800, 900), w(' a', 0, 300), w(' b', 400, 700)]));
    expect(t.words.map((x) => x.text)).toEqual(['a', 'b', 'c']);
  });

  it('clamps negative, reversed and overlapping times', () => {
    const t = normalizeExport(exportOf([w(' a', -50, 300), w(' b', 200, 100), w(' c', 250, 900), w(' d', 600, 1000)]));
    expect(t.words.map((x) => [x.startMs, x.endMs])).toEqual([
      [0, 200],
      [200, 200],
      [250, 600],
      [600, 1000],
    ]);
  });

  it('skips words without a usable start time', () => {
    const bad = [
      { word: ' x', start: 'soon', end: 5 },
      { word: ' y', start: Number.NaN, end: 1 },
    ] as unknown as Word[];
    expect(normalizeExport(exportOf([...bad, w(' ok', 100, 500)])).words.map((x) => x.text)).toEqual(['ok']);
  });

  it('keeps no space where the export had none (attached tokens)', () => {
    const t = normalizeExport(exportOf([w(' don', 0, 200), w("'t", 200, 300), w(' go.', 300, 600)]));
    expect(joinWords(t.words)).toBe("don't go.");
  });

  it('reads bare tokens (no leading spaces anywhere) as space-separated', () => {
    const t = normalizeExport(exportOf([w('Hello', 0, 300), w('world.', 300, 700)]));
    expect(joinWords(t.words)).toBe('Hello world.');
  });
});

describe('time unit: milliseconds by contract, seconds detected and converted', () => {
  it('a contract file (integer ms) stays in ms', () => {
    const t = normalizeExport(exportOf([w(' Good', 420, 610), w(' morning.', 610, 1030)]));
    expect(t.timeUnit).toBe('ms');
    expect(t.words[0]).toMatchObject({ startMs: 420, endMs: 610 });
  });

  it('(c) fractional times are seconds', () => {
    const t = normalizeExport(exportOf([w(' Good', 12.42, 12.61), w(' morning.', 12.61, 13.03)]));
    expect(t.timeUnit).toBe('s');
    expect(t.words.map((x) => [x.startMs, x.endMs])).toEqual([
      [12420, 12610],
      [12610, 13030],
    ]);
  });

  it('(a) integer seconds: the ms reading would be > 50 words per second', () => {
    const words = Array.from({ length: 10 }, (_, i) => w(` w${i}`, i, i + 1));
    expect(normalizeExport(exportOf(words)).timeUnit).toBe('s');
  });

  it('(b) with a known media length, a file that fits it only in seconds is seconds', () => {
    expect(detectTimeUnit([{ start: 30, end: 58 }], 60_000)).toBe('s');
    expect(detectTimeUnit([{ start: 30_000, end: 58_000 }], 60_000)).toBe('ms');
  });

  it('(c) does not override the media length: fractional values far past it in seconds are ms', () => {
    expect(detectTimeUnit([{ start: 420.5, end: 610.25 }], 1000)).toBe('ms');
  });

  it('sparse speech in ms (one word late in a long file) stays ms', () => {
    expect(detectTimeUnit([{ start: 95_000, end: 95_400 }])).toBe('ms');
    expect(detectTimeUnit([{ start: 95_000, end: 95_400 }], 100_000)).toBe('ms');
  });
});

describe('normalizeExport: properties', () => {
  const rawWord = fc.record({
    word: fc.constantFrom(' a', ' b.', ' c,', '  ', ' d?'),
    start: fc.integer({ min: -500, max: 60_000 }),
    end: fc.integer({ min: -500, max: 60_000 }),
    speakers: fc.constantFrom('SPEAKER_0', 'SPEAKER_4', 'SPEAKER_9').map((s) => [s]),
  });
  it('any word soup → sorted, non-negative, non-overlapping, every non-blank word kept once', () => {
    fc.assert(
      fc.property(fc.array(rawWord, { maxLength: 80 }), (words) => {
        const t = normalizeExport(exportOf(words));
        expect(t.words).toHaveLength(words.filter((x) => x.word.trim() !== '').length);
        t.words.forEach((x, i) => {
          expect(x.startMs).toBeGreaterThanOrEqual(0);
          expect(x.endMs).toBeGreaterThanOrEqual(x.startMs);
          const next = t.words[i + 1];
          if (next) expect(x.endMs).toBeLessThanOrEqual(next.startMs);
        });
        expect(t.speakers).toEqual(t.speakers.map((_, i) => `Speaker ${i + 1}`));
      }),
    );
  });
});

describe('keys the service gave a word', () => {
  it('keeps its confidence and language, so a corrected export can carry them on', () => {
    const t = normalizeExport(
      exportOf([
        { ...w(' Straße', 0, 400), confidence: 0.93, language: 'de' },
        { ...w(' ok', 400, 800), language: '' },
      ]),
    );
    expect(t.words[0]).toMatchObject({ text: 'Straße', confidence: 0.93, language: 'de' });
    expect(t.words[1]).not.toHaveProperty('language');
  });
});
