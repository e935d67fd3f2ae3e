// Find and replace in the review: whole words folded as History's search folds them, over every
// word of the transcript, and replacements that keep the punctuation around what they replace.
import { describe, expect, it } from 'vitest';
import {
  findMatches,
  matchesIn,
  nearestMatch,
  replacementsOf,
  replacementText,
} from '../../renderer/src/lib/state/review-find.js';

const words = (text: string): Array<{ text: string }> => text.split(' ').map((t) => ({ text: t }));

describe('find in the transcript', () => {
  it('folds as the app search does: case, accents, ß, composed or decomposed', () => {
    const nfd = 'Jürgen Köln'.normalize('NFD');
    const ws = words(`Interview ${nfd} and JURGEN in koln, Straße strasse`);
    expect(findMatches(ws, 'jurgen')).toEqual([
      { from: 1, to: 2 },
      { from: 4, to: 5 },
    ]);
    expect(findMatches(ws, 'Köln')).toEqual([
      { from: 2, to: 3 },
      { from: 6, to: 7 },
    ]);
    expect(findMatches(ws, 'STRASSE')).toHaveLength(2);
  });

  it('matches whole words, several in a row, and a name misspelt forty times across the file', () => {
    const ws = words('Jon Smyth met Jon Smythe; Jon, Smyth! smyth');
    expect(findMatches(ws, 'jon smyth')).toEqual([
      { from: 0, to: 2 },
      { from: 5, to: 7 },
    ]);
    expect(findMatches(ws, 'smy')).toEqual([]);
    expect(findMatches(ws, ' , ')).toEqual([]);
    const long = Array.from({ length: 20_000 }, (_, i) => ({ text: i % 500 === 7 ? 'Mooflow,' : `w${i}` }));
    const found = findMatches(long, 'mooflow');
    expect(found).toHaveLength(40);
    expect(found[39]).toEqual({ from: 19_507, to: 19_508 });
  });

  it('replaces keeping the punctuation around the words, leaving unchanged matches out', () => {
    const ws = words('“Mooflow, said mooflow. MoveFlow');
    expect(replacementText(ws, { from: 0, to: 1 }, 'MoveFlow')).toBe('“MoveFlow,');
    expect(replacementText(ws, { from: 2, to: 3 }, ' MoveFlow. ')).toBe('MoveFlow.');
    expect(replacementsOf(ws, findMatches(ws, 'mooflow'), 'MoveFlow')).toEqual([
      { from: 0, to: 1, text: '“MoveFlow,' },
      { from: 2, to: 3, text: 'MoveFlow.' },
    ]);
    expect(replacementsOf(ws, findMatches(ws, 'moveflow'), 'MoveFlow')).toEqual([]);
  });

  it('starts from the match at or after the playhead, wrapping', () => {
    const m = [
      { from: 3, to: 4 },
      { from: 10, to: 12 },
    ];
    expect(nearestMatch(m, 0)).toBe(0);
    expect(nearestMatch(m, 11)).toBe(1);
    expect(nearestMatch(m, 50)).toBe(0);
    expect(nearestMatch([], 5)).toBe(-1);
  });

  it('picks the matches that hold words of a paragraph', () => {
    const m = [
      { from: 1, to: 3 },
      { from: 5, to: 6 },
      { from: 9, to: 11 },
    ];
    expect(matchesIn(m, 2, 9)).toEqual(m.slice(0, 2));
    expect(matchesIn(m, 6, 9)).toEqual([]);
    expect(matchesIn(m, 10, 20)).toEqual([m[2]]);
  });
});
