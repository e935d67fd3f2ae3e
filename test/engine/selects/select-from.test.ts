// The words a select takes from a moment (widened to its sentence or turn), a marker, a chapter
// or a pull quote: one rule, on word fixtures.
import { describe, expect, it } from 'vitest';
import { endsSentence, wordsFrom, type SelectSource } from '../../../main/engine/selects/select-from.js';
import { findQuote, SelectError } from '../../../main/engine/selects/selects.js';
import type { Transcript, TranscriptWord } from '../../../main/engine/transcript/transcript.js';

/**
 * Words of `text`, one every 500 ms (400 ms long, so a 100 ms gap after each), from 1 s; the
 * speaker changes at each `|` (no speakers at all when `speakers` is false).
 */
function transcriptOf(text: string, speakers = true): Transcript {
  const words: TranscriptWord[] = [];
  let speaker = 0;
  for (const token of text.split(' ')) {
    if (token === '|') {
      speaker++;
      continue;
    }
    const startMs = 1000 + words.length * 500;
    words.push({
      text: token,
      startMs,
      endMs: startMs + 400,
      ...(speakers ? { speaker: `S${speaker}` } : {}),
      spaceBefore: true,
      corrected: false,
    });
  }
  return { words, speakers: speakers ? [...new Set(words.map((w) => w.speaker!))] : [], names: {}, text };
}

/** The start of word `i` in the fixtures, ms. */
const at = (i: number): number => 1000 + i * 500;
const range = (t: Transcript, from: SelectSource): [number, number] => wordsFrom(t, from).range;
const text = (t: Transcript, from: SelectSource): string => {
  const [a, b] = range(t, from);
  return t.words
    .slice(a, b)
    .map((w) => w.text)
    .join(' ');
};

//             0    1   2     3     4     5    6        7    8   9      10    11    12
const TALK = 'We began early. Did it work? | Yes! It did… mostly. | 我们 开始 了。 好吗？ 好！';

describe('a moment widened to its sentence', () => {
  const t = transcriptOf(TALK);
  it.each([
    [0, 'We began early.'],
    [2, 'We began early.'],
    [3, 'Did it work?'],
    [5, 'Did it work?'],
    [6, 'Yes!'],
    [7, 'It did…'],
    [8, 'It did…'],
    [9, 'mostly.'],
    [10, '我们 开始 了。'],
    [12, '我们 开始 了。'],
    [13, '好吗？'],
    [14, '好！'],
  ])('word %i is in "%s"', (i, sentence) => {
    expect(text(t, { kind: 'moment', ms: at(i) + 200, widen: 'sentence' })).toBe(sentence);
  });

  it('ends at . ? ! … and the CJK 。？！, before a closing quote or bracket', () => {
    for (const w of ['end.', 'end?', 'end!', 'end…', '了。', '吗？', '好！', 'end."', 'end.”', 'end?)', '了。」'])
      expect(endsSentence(w), w).toBe(true);
    for (const w of ['end', 'end,', 'end;', 'e.g', '了，', '“end']) expect(endsSentence(w), w).toBe(false);
  });

  it('never runs past a change of speaker', () => {
    const open = transcriptOf('So we went | and then it rained.');
    expect(text(open, { kind: 'moment', ms: at(1), widen: 'sentence' })).toBe('So we went');
    expect(text(open, { kind: 'moment', ms: at(4), widen: 'sentence' })).toBe('and then it rained.');
  });

  it('a moment in the gap between two words (or before the first) takes the next word', () => {
    // Word 2 ("early.") ends at at(2) + 400; word 3 ("Did") starts at at(3).
    expect(range(t, { kind: 'moment', ms: at(2) + 450, widen: 'sentence' })).toEqual([3, 6]);
    expect(range(t, { kind: 'moment', ms: 0, widen: 'sentence' })).toEqual([0, 3]);
    // A word's own end still belongs to it.
    expect(range(t, { kind: 'moment', ms: at(2) + 400, widen: 'sentence' })).toEqual([0, 3]);
  });

  it('after the last word is said, says so', () => {
    expect(() => wordsFrom(t, { kind: 'moment', ms: at(40), widen: 'sentence' })).toThrow(
      /Nothing is said at 0:21 or after \(the last word ends at 0:08\)/,
    );
  });
});

describe('a moment widened to its turn', () => {
  it('is the run of one speaker', () => {
    const t = transcriptOf(TALK);
    expect(text(t, { kind: 'moment', ms: at(1), widen: 'turn' })).toBe('We began early. Did it work?');
    expect(text(t, { kind: 'moment', ms: at(7), widen: 'turn' })).toBe('Yes! It did… mostly.');
    expect(range(t, { kind: 'moment', ms: at(14), widen: 'turn' })).toEqual([10, 15]);
  });

  it('without speakers, is the paragraph the review shows (a 2 s pause parts them)', () => {
    const t = transcriptOf('one two. three four.', false);
    t.words[2]!.startMs += 3000;
    t.words[2]!.endMs += 3000;
    t.words[3]!.startMs += 3000;
    t.words[3]!.endMs += 3000;
    expect(range(t, { kind: 'moment', ms: at(0), widen: 'turn' })).toEqual([0, 2]);
    expect(range(t, { kind: 'moment', ms: at(3) + 3000, widen: 'turn' })).toEqual([2, 4]);
  });
});

describe('a marker, a chapter and a pull quote', () => {
  const t: Transcript = {
    ...transcriptOf(TALK),
    markers: [
      { id: 'm1', atMs: at(7) + 100, name: 'The answer', note: '', colour: 'Red' },
      // Between "mostly." and "我们": the next word's sentence.
      { id: 'm2', atMs: at(9) + 450, name: 'Marker 2', note: '', colour: 'Blue' },
    ],
    outline: {
      chapters: [
        { id: 'c1', startMs: 0, title: 'Beginnings' },
        { id: 'c2', startMs: at(6), title: 'The answer' },
        { id: 'c3', startMs: at(10), title: 'In Chinese' },
      ],
      quotes: [
        { id: 'q1', startMs: at(7), endMs: at(9) + 400, text: 'It did… mostly.' },
        // The editor typed words that are not said: the quote's span is taken.
        { id: 'q2', startMs: at(3), endMs: at(5) + 400, text: 'Did that work out?', typed: true },
      ],
      notes: [],
    },
  };

  it("a marker takes its moment's sentence, its name and its colour", () => {
    expect(wordsFrom(t, { kind: 'marker', id: 'm1' })).toEqual({ range: [7, 9], label: 'The answer', colour: 'Red' });
    expect(range(t, { kind: 'marker', id: 'm2' })).toEqual([10, 13]);
  });

  it('a chapter takes its words up to the next chapter, the last one to the end, and its title', () => {
    expect(wordsFrom(t, { kind: 'chapter', id: 'c1' })).toEqual({ range: [0, 6], label: 'Beginnings' });
    expect(range(t, { kind: 'chapter', id: 'c2' })).toEqual([6, 10]);
    expect(range(t, { kind: 'chapter', id: 'c3' })).toEqual([10, 15]);
  });

  it('a quote takes the first run of its words from where it starts, else its span', () => {
    expect(wordsFrom(t, { kind: 'quote', id: 'q1' })).toEqual({ range: [7, 10] });
    expect(range(t, { kind: 'quote', id: 'q2' })).toEqual([3, 6]);
  });

  it('a quote said twice takes the run at its own moment, not the first in the file', () => {
    const twice: Transcript = {
      ...transcriptOf('it works. | I said it works.'),
      outline: { chapters: [], quotes: [{ id: 'q1', startMs: at(3), endMs: at(5), text: 'it works.' }], notes: [] },
    };
    expect(range(twice, { kind: 'quote', id: 'q1' })).toEqual([4, 6]);
    // The CLI's --quote (no moment) takes the first.
    expect(findQuote(twice.words, 'it works')).toEqual([0, 2]);
  });

  it.each([
    [{ kind: 'marker', id: 'm9' }, 'There is no marker "m9" in this transcript (it has 2 markers).'],
    [{ kind: 'chapter', id: 'c9' }, 'There is no chapter "c9" in this transcript (it has 3 chapters).'],
    [{ kind: 'quote', id: 'q9' }, 'There is no quote "q9" in this transcript (it has 2 quotes).'],
  ] as const)('an id it does not have is refused: %j', (from, message) => {
    expect(() => wordsFrom(t, from)).toThrow(new SelectError(message));
  });

  it('says why a transcript has none of a kind', () => {
    const bare = transcriptOf(TALK);
    expect(() => wordsFrom(bare, { kind: 'marker', id: 'm1' })).toThrow(/no marker "m1".*\(it has none\)/);
    expect(() => wordsFrom(bare, { kind: 'chapter', id: 'c1' })).toThrow(/no recipe made chapters for it/);
    expect(() => wordsFrom(bare, { kind: 'quote', id: 'q1' })).toThrow(/no recipe found quotes in it/);
    expect(() => wordsFrom({ words: [] }, { kind: 'moment', ms: 0, widen: 'turn' })).toThrow(/no timed words/);
  });

  it('a chapter whose words are gone says so', () => {
    const late: Transcript = {
      ...transcriptOf('short.'),
      outline: {
        chapters: [
          { id: 'c1', startMs: 0, title: 'All' },
          { id: 'c2', startMs: 60_000, title: 'Silence' },
        ],
        quotes: [],
        notes: [],
      },
    };
    expect(() => wordsFrom(late, { kind: 'chapter', id: 'c2' })).toThrow('The chapter "Silence" holds no words.');
  });
});
