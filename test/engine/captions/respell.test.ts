// The enhanced transcription's spellings reach the words the formats read: timed enhanced words
// are taken as they are; enhanced text alone is aligned onto the plain words; a glossary term wins.
import { describe, expect, it } from 'vitest';
import {
  alignWords,
  applyGlossary,
  carrySpellings,
  letters,
  respelledCount,
  withPlainDetails,
} from '../../../main/engine/captions/respell.js';
import { normalizeExport } from '../../../main/engine/captions/normalize.js';
import type { ExportResult, Word } from '../../../main/service/types.js';

/** Words of `text`, 400 ms each from 0, each with a leading space. */
function words(text: string, extra: Partial<Word> = {}): Word[] {
  return text.split(' ').map((w, i) => ({ word: ` ${w}`, start: i * 400, end: i * 400 + 300, ...extra }));
}
const spoken = (ws: readonly Word[]) => ws.map((w) => w.word).join('');

describe('letters', () => {
  it('keeps what two spellings of a word share', () => {
    expect(letters(' Jürgen,')).toBe('jurgen');
    expect(letters('Move-Flow')).toBe('moveflow');
  });
});

describe('alignWords', () => {
  it('pairs equal words one to one and a run heard as one word with that word', () => {
    const a = ['we', 'ship', 'move', 'flow', 'today'];
    const b = ['we', 'ship', 'moveflow', 'today'];
    expect(alignWords(a, b)).toEqual([
      { a0: 0, a1: 1, b0: 0, b1: 1 },
      { a0: 1, a1: 2, b0: 1, b1: 2 },
      { a0: 2, a1: 4, b0: 2, b1: 3 },
      { a0: 4, a1: 5, b0: 3, b1: 4 },
    ]);
  });

  it('leaves unpaired a word that is not another spelling of the one opposite', () => {
    const steps = alignWords(['the', 'cat', 'sat', 'down'], ['the', 'dog', 'sat', 'down']);
    expect(steps.find((s) => s.a0 === 1)).toBeUndefined();
    expect(steps).toHaveLength(3);
  });

  it('finds its way back after a word only one side has, over hours of words', () => {
    const base = Array.from({ length: 20_000 }, (_, i) => `w${i % 97}x${i}`);
    const other = [...base.slice(0, 10_000), 'inserted', ...base.slice(10_000)];
    const steps = alignWords(base, other);
    expect(steps).toHaveLength(20_000);
    expect(steps.at(-1)).toEqual({ a0: 19_999, a1: 20_000, b0: 20_000, b1: 20_001 });
  });
});

describe('carrySpellings (enhanced text alone)', () => {
  it('spells the plain words as the enhanced text does, keeping their times and punctuation', () => {
    const plain = words('I met Jurgen from move flow, yesterday.');
    const out = carrySpellings(plain, ' I met Jürgen from MoveFlow yesterday');
    expect(spoken(out)).toBe(' I met Jürgen from MoveFlow, yesterday.');
    const merged = out.find((w) => w.word.includes('MoveFlow'))!;
    expect([merged.start, merged.end]).toEqual([plain[4]!.start, plain[5]!.end]);
    expect(respelledCount(plain, out)).toBe(2);
  });

  it('shares a plain word’s time between the words the text splits it into', () => {
    const plain = words('see you at moveflow');
    const out = carrySpellings(plain, 'see you at Move Flow');
    expect(spoken(out)).toBe(' see you at Move Flow');
    expect(out[3]!.start).toBe(plain[3]!.start);
    expect(out[4]!.end).toBe(plain[3]!.end);
    expect(out[3]!.end).toBe(out[4]!.start);
  });

  it('keeps the plain words where the text says something else', () => {
    const plain = words('the budget is fine');
    expect(spoken(carrySpellings(plain, 'the forecast looks fine'))).toBe(' the budget is fine');
  });
});

describe('applyGlossary', () => {
  it('spells a term as the glossary does, over one word or several', () => {
    const out = applyGlossary(words('ask jurgen about Moveflow and ana maria.'), ['MoveFlow', 'Jürgen', 'Ana María']);
    expect(spoken(out)).toBe(' ask Jürgen about MoveFlow and Ana María.');
  });

  it('joins a term heard as more words than it has into one word spanning them', () => {
    const out = applyGlossary(words('we use move flow'), ['MoveFlow']);
    expect(out.map((w) => [w.word, w.start, w.end])).toEqual([
      [' we', 0, 300],
      [' use', 400, 700],
      [' MoveFlow', 800, 1500],
    ]);
  });
});

describe('withPlainDetails', () => {
  it('gives enhanced words without a speaker the speaker of the plain word they stand for', () => {
    const plain = [
      ...words('hello there', { speakers: ['SPEAKER_0'] }),
      ...words('move flow', { speakers: ['SPEAKER_1'] }),
    ];
    const enhanced = words('hello there MoveFlow');
    expect(withPlainDetails(enhanced, plain).map((w) => w.speakers)).toEqual([
      ['SPEAKER_0'],
      ['SPEAKER_0'],
      ['SPEAKER_1'],
    ]);
  });
});

describe('normalizeExport with an enhanced transcription', () => {
  const plain = words('we met jurgen at move flow');
  it('reads the enhanced words when they come timed, and counts the words respelled', () => {
    const enhanced = [
      ...plain.slice(0, 2),
      { ...plain[2]!, word: ' Jürgen' },
      plain[3]!,
      {
        ...plain[4]!,
        word: ' MoveFlow',
        end: plain[5]!.end,
      },
    ];
    const r: ExportResult = {
      transcription: { text: spoken(plain), words: plain },
      enhancedTranscription: { transcription: { text: spoken(enhanced), words: enhanced } },
    };
    const t = normalizeExport(r);
    expect(t.words.map((w) => w.text)).toEqual(['we', 'met', 'Jürgen', 'at', 'MoveFlow']);
    expect(t.respelled).toBe(2);
  });

  it('carries the enhanced text onto the plain words when it comes without words; the glossary wins', () => {
    const r: ExportResult = {
      transcription: { text: spoken(plain), words: plain },
      enhancedTranscription: { transcription: { text: 'We met Jürgen at Moveflow', words: [] } },
    };
    const t = normalizeExport(r, { glossary: ['MoveFlow'] });
    expect(t.words.map((w) => w.text)).toEqual(['We', 'met', 'Jürgen', 'at', 'MoveFlow']);
    expect(t.respelled).toBe(3);
  });

  it('reads the plain words, and counts nothing, without an enhanced transcription', () => {
    const t = normalizeExport({ transcription: { text: spoken(plain), words: plain } }, { glossary: ['MoveFlow'] });
    expect(t.words.map((w) => w.text).join(' ')).toBe('we met jurgen at move flow');
    expect(t.respelled).toBeUndefined();
  });
});
