import { describe, expect, it } from 'vitest';
import { leadingToHit, snippetParts } from '../../renderer/src/lib/snippet.js';

describe('a search snippet’s highlighted words', () => {
  it('cuts the line at the hits, in order, whatever order they came in', () => {
    expect(
      snippetParts('talk to Jürgen at the warehouse', [
        [22, 31],
        [8, 14],
      ]),
    ).toEqual([
      { text: 'talk to ', hit: false },
      { text: 'Jürgen', hit: true },
      { text: ' at the ', hit: false },
      { text: 'warehouse', hit: true },
    ]);
  });
  it('leaves a line whole without hits, and ignores ranges outside it or overlapping', () => {
    expect(snippetParts('no hit here')).toEqual([{ text: 'no hit here', hit: false }]);
    expect(
      snippetParts('abc', [
        [1, 9],
        [0, 1],
        [0, 2],
      ]),
    ).toEqual([
      { text: 'a', hit: true },
      { text: 'bc', hit: false },
    ]);
  });
});

describe('a snippet seen from its first hit', () => {
  it('cuts a long start to the words just before the hit, from a word’s start', () => {
    const text = 'we should really talk to the supplier about the marti delivery';
    const at = text.indexOf('marti');
    const parts = leadingToHit(snippetParts(text, [[at, at + 5]]), 24);
    expect(parts.map((p) => p.text).join('')).toBe('… the supplier about the marti delivery');
    expect(parts.find((p) => p.hit)?.text).toBe('marti');
  });
  it('leaves a short start, a hit at the start, and a line without hits as they are', () => {
    expect(leadingToHit(snippetParts('the marti', [[4, 9]]))).toEqual(snippetParts('the marti', [[4, 9]]));
    expect(leadingToHit(snippetParts('marti', [[0, 5]]))).toEqual([{ text: 'marti', hit: true }]);
    expect(leadingToHit(snippetParts('x'.repeat(40)))).toEqual([{ text: 'x'.repeat(40), hit: false }]);
  });
});
