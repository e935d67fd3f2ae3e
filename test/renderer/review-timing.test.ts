import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptParagraphView, TranscriptWordView } from '../../preload/contract.js';
import {
  paragraphIndexAt,
  paragraphIndexOfWord,
  selectedRange,
  wordIndexAt,
} from '../../renderer/src/lib/state/review-timing.js';

const word = (start: number, end: number): TranscriptWordView => ({ text: 'w', start, end, corrected: false });
const words = [word(100, 300), word(400, 600), word(600, 900), word(2000, 2400)];
const paragraphs: TranscriptParagraphView[] = [
  { first: 0, end: 2, startMs: 100, endMs: 600, speaker: '1' },
  { first: 2, end: 4, startMs: 600, endMs: 2400, speaker: '2' },
];

describe('wordIndexAt', () => {
  it.each([
    [0, -1],
    [99, -1],
    [100, 0],
    [350, 0], // the pause after a word keeps it lit
    [400, 1],
    [600, 2], // a word starting where another ends wins
    [1500, 2],
    [2000, 3],
    [99_999, 3],
  ])('at %i ms → word %i', (ms, expected) => {
    expect(wordIndexAt(words, ms)).toBe(expected);
  });

  it('is -1 for an empty transcript', () => {
    expect(wordIndexAt([], 500)).toBe(-1);
  });

  it('agrees with a linear scan on any sorted transcript', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(10_000), { maxLength: 200 }), fc.nat(12_000), (starts, ms) => {
        const sorted = [...starts].sort((a, b) => a - b).map((s) => word(s, s + 50));
        let expected = -1;
        sorted.forEach((w, i) => {
          if (w.start <= ms) expected = i;
        });
        expect(wordIndexAt(sorted, ms)).toBe(expected);
      }),
    );
  });
});

describe('paragraphs', () => {
  it('finds the paragraph of a word', () => {
    expect([-1, 0, 1, 2, 3, 4].map((w) => paragraphIndexOfWord(paragraphs, w))).toEqual([-1, 0, 0, 1, 1, -1]);
  });
  it('finds the paragraph playing at a time, the first one before it starts', () => {
    expect([0, 100, 599, 600, 5000].map((ms) => paragraphIndexAt(paragraphs, ms))).toEqual([0, 0, 0, 1, 1]);
    expect(paragraphIndexAt([], 10)).toBe(-1);
  });
});

describe('selectedRange', () => {
  it('orders the ends and includes the last word', () => {
    expect(selectedRange(paragraphs, 1, 0)).toEqual({ from: 0, to: 2 });
    expect(selectedRange(paragraphs, 2, 2)).toEqual({ from: 2, to: 3 });
  });
  it('stays inside the paragraph the selection starts in', () => {
    expect(selectedRange(paragraphs, 1, 3)).toEqual({ from: 1, to: 2 });
  });
  it('is null without a word at either end', () => {
    expect(selectedRange(paragraphs, -1, 2)).toBeNull();
    expect(selectedRange(paragraphs, 9, 9)).toBeNull();
  });
});
