import { describe, expect, it } from 'vitest';
import {
  describeWords,
  extendWords,
  wordsOf,
  type WordRange,
  type WordStep,
} from '../../renderer/src/lib/state/word-range.js';

// Three paragraphs over 12 words: 0–3, 4–8, 9–11.
const paragraphs = [
  { first: 0, end: 4 },
  { first: 4, end: 9 },
  { first: 9, end: 12 },
];
const COUNT = 12;

/** The words after pressing `steps` in turn, starting with nothing selected and `current` spoken. */
function press(current: number, ...steps: WordStep[]): { from: number; to: number } | null {
  let r: WordRange | null = null;
  for (const s of steps) r = extendWords(r, s, current, COUNT, paragraphs);
  return r && wordsOf(r);
}

describe('extendWords', () => {
  it('begins at the spoken word and takes a word a key: Shift+→ three times selects four words', () => {
    expect(press(5, 'forward')).toEqual({ from: 5, to: 7 });
    expect(press(5, 'forward', 'forward', 'forward')).toEqual({ from: 5, to: 9 });
    expect(press(5, 'back')).toEqual({ from: 4, to: 6 });
  });

  it('keeps its anchor while the spoken word moves on (the clip plays)', () => {
    let r = extendWords(null, 'forward', 5, COUNT, paragraphs);
    r = extendWords(r, 'forward', 7, COUNT, paragraphs);
    r = extendWords(r, 'forward', 9, COUNT, paragraphs);
    expect(r).toEqual({ anchor: 5, focus: 8 });
  });

  it('shrinks when the direction turns, through the anchor and on the other side', () => {
    expect(press(5, 'forward', 'forward', 'back')).toEqual({ from: 5, to: 7 });
    expect(press(5, 'forward', 'back')).toEqual({ from: 5, to: 6 });
    expect(press(5, 'forward', 'back', 'back')).toEqual({ from: 4, to: 6 });
  });

  it('is clamped to the transcript at both ends', () => {
    expect(press(1, 'back', 'back', 'back')).toEqual({ from: 0, to: 2 });
    expect(press(10, 'forward', 'forward', 'forward')).toEqual({ from: 10, to: 12 });
    expect(press(-1, 'forward')).toEqual({ from: 0, to: 2 });
    expect(press(99, 'back')).toEqual({ from: 10, to: 12 });
    expect(extendWords(null, 'forward', 0, 0, [])).toBeNull();
  });

  it('crosses paragraphs a word at a time', () => {
    expect(press(2, 'forward', 'forward', 'forward')).toEqual({ from: 2, to: 6 });
    expect(press(9, 'back', 'back')).toEqual({ from: 7, to: 10 });
  });

  it('goes to a paragraph’s first or last word, then on to the previous or next paragraph', () => {
    expect(press(6, 'end')).toEqual({ from: 6, to: 9 });
    expect(press(6, 'end', 'end')).toEqual({ from: 6, to: 12 });
    expect(press(6, 'end', 'end', 'end')).toEqual({ from: 6, to: 12 });
    expect(press(6, 'home')).toEqual({ from: 4, to: 7 });
    expect(press(6, 'home', 'home')).toEqual({ from: 0, to: 7 });
    expect(press(6, 'home', 'home', 'home')).toEqual({ from: 0, to: 7 });
    // Home after a forward run shrinks back past the anchor to the paragraph's start.
    expect(press(6, 'forward', 'forward', 'home')).toEqual({ from: 4, to: 7 });
  });

  it('holds word indexes, so paragraphs far from the view (not drawn) take part as any other', () => {
    // 2,000 paragraphs of 10 words: a virtual list draws a few; the range does not ask which.
    const many = Array.from({ length: 2000 }, (_, i) => ({ first: i * 10, end: i * 10 + 10 }));
    let r = extendWords(null, 'end', 15_005, 20_000, many);
    expect(r).toEqual({ anchor: 15_005, focus: 15_009 });
    r = extendWords(r, 'end', 3, 20_000, many);
    expect(wordsOf(r!)).toEqual({ from: 15_005, to: 15_020 });
  });

  it('without paragraphs, Home and End go to the transcript’s ends', () => {
    expect(wordsOf(extendWords(null, 'home', 5, COUNT)!)).toEqual({ from: 0, to: 6 });
    expect(wordsOf(extendWords(null, 'end', 5, COUNT)!)).toEqual({ from: 5, to: 12 });
  });
});

describe('describeWords', () => {
  const words = 'we start with the budget because the budget decides everything else'
    .split(' ')
    .map((text) => ({ text }));
  it('says how many words and which, for a screen reader', () => {
    expect(describeWords(words, { anchor: 0, focus: 3 })).toBe('4 words selected: “we start with the”.');
    expect(describeWords(words, { anchor: 4, focus: 4 })).toBe('1 word selected: “budget”.');
    expect(describeWords(words, { anchor: 10, focus: 0 }, 3)).toBe('11 words selected: “we start with…”.');
  });
});
