import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildCues,
  DEFAULT_CUE_OPTIONS,
  endsSentence,
  labelPrefix,
  layoutLines,
  type Cue,
} from '../../../main/engine/captions/cues.js';
import type { CaptionWord } from '../../../main/engine/captions/normalize.js';

const word = (text: string, startMs: number, endMs: number, speaker?: string): CaptionWord => ({
  text,
  startMs,
  endMs,
  spaceBefore: true,
  ...(speaker === undefined ? {} : { speaker }),
});

/** Words laid one after another: `gap` ms of silence, `dur` ms each. */
function stream(texts: string[], dur = 300, gap = 50, speaker?: string): CaptionWord[] {
  let t = 0;
  return texts.map((x) => {
    const w = word(x, t, t + dur, speaker);
    t += dur + gap;
    return w;
  });
}

const firstLine = (c: Cue): string => (c.showLabel && c.speaker ? labelPrefix(c.speaker) : '') + (c.lines[0] ?? '');
const { maxLineChars, maxDurationMs, minDurationMs, pauseMs } = DEFAULT_CUE_OPTIONS;

describe('layoutLines', () => {
  it('keeps text that fits on one line', () => {
    expect(layoutLines(stream(['How', 'can', 'I', 'help?']), 42, 2)).toEqual(['How can I help?']);
  });

  it('balances two lines', () => {
    const lines = layoutLines(stream('Good morning, thanks for calling the front desk.'.split(' ')), 42, 2);
    expect(lines).toEqual(['Good morning, thanks for', 'calling the front desk.']);
  });

  it('prefers a break after punctuation when the lines stay roughly balanced', () => {
    const text = (s: string): string[] | null => layoutLines(stream(s.split(' ')), 42, 2, 11);
    expect(text('Good morning, thanks for calling the front desk.')).toEqual([
      'Good morning,',
      'thanks for calling the front desk.',
    ]);
    expect(text('Good morning thanks for calling the front desk.')).toEqual([
      'Good morning thanks',
      'for calling the front desk.',
    ]);
  });

  it('counts the label on the first line', () => {
    const words = stream('thanks for calling the front desk again'.split(' '));
    expect(layoutLines(words, 42, 2)).toHaveLength(1);
    expect(layoutLines(words, 42, 2, 11)).toHaveLength(2);
  });

  it('returns null when the words cannot fit', () => {
    expect(layoutLines(stream(['x'.repeat(43)]), 42, 2)).toBeNull();
    expect(layoutLines(stream(Array.from({ length: 30 }, () => 'word')), 42, 2)).toBeNull();
  });
});

describe('buildCues: editor rules', () => {
  it('empty input → no cues', () => {
    expect(buildCues([])).toEqual([]);
  });

  it('splits at sentence ends', () => {
    const cues = buildCues(stream(['Hello.', 'How', 'are', 'you?', 'Fine!']));
    expect(cues.map((c) => c.lines.join(' '))).toEqual(['Hello.', 'How are you?', 'Fine!']);
  });

  it('does not split after an abbreviation', () => {
    expect(endsSentence('Dr.')).toBe(false);
    expect(endsSentence('o’clock.”')).toBe(true);
    expect(buildCues(stream(['Ask', 'Dr.', 'Smith.']))).toHaveLength(1);
  });

  it(`splits at a pause of ${pauseMs} ms or more`, () => {
    const words = [word('one', 0, 300), word('two', 300 + pauseMs - 1, 1300), word('three', 1300 + pauseMs, 2300)];
    expect(buildCues(words).map((c) => c.lines.join(' '))).toEqual(['one two', 'three']);
  });

  it('starts a new cue at every speaker change and labels the first cue of each turn', () => {
    const words = [
      word('Hi', 0, 300, 'Speaker 1'),
      word('hello', 320, 600, 'Speaker 2'),
      word('there', 620, 900, 'Speaker 2'),
    ];
    const cues = buildCues(words);
    expect(cues.map((c) => [c.speaker, c.showLabel, c.lines.join(' ')])).toEqual([
      ['Speaker 1', true, 'Hi'],
      ['Speaker 2', true, 'hello there'],
    ]);
  });

  it('splits long speech at 7 s and labels only the first cue of a turn', () => {
    const words = stream(
      Array.from({ length: 40 }, (_, i) => `w${i}`),
      300,
      20,
      'Speaker 1',
    );
    const cues = buildCues(words);
    expect(cues.length).toBeGreaterThan(1);
    expect(cues.every((c) => c.endMs - c.startMs <= maxDurationMs)).toBe(true);
    expect(cues.map((c) => c.showLabel)).toEqual([true, ...Array<boolean>(cues.length - 1).fill(false)]);
  });

  it('extends a short cue to 1 s when the gap allows, and only up to the next cue otherwise', () => {
    const cues = buildCues([word('Yes.', 0, 200), word('No.', 600, 800), word('Maybe.', 3000, 3200)]);
    expect(cues.map((c) => [c.startMs, c.endMs])).toEqual([
      [0, 600],
      [600, 1600],
      [3000, 4000],
    ]);
  });

  it('a word longer than a line stands alone', () => {
    const long = 'Pneumonoultramicroscopicsilicovolcanoconiosis-related';
    const cues = buildCues(stream(['It', 'is', long, 'they', 'said']));
    expect(cues.map((c) => c.lines)).toEqual([['It is'], [long], ['they said']]);
  });

  it('ends a full cue after its last clause rather than mid-phrase', () => {
    const text =
      'We checked all of the numbers again very carefully yesterday, and the totals were right after the fix';
    const cues = buildCues(stream(text.split(' '), 200, 20));
    expect(cues.map((c) => c.lines)).toEqual([
      ['We checked all of the numbers', 'again very carefully yesterday,'],
      ['and the totals were right after the fix'],
    ]);
  });

  it('never gives a cue zero duration, even for zero-length words at one instant', () => {
    const cues = buildCues([word('a.', 500, 500), word('b.', 500, 500), word('c.', 500, 500)]);
    expect(cues.every((c) => c.endMs > c.startMs)).toBe(true);
    expect(cues.every((c, i) => i === 0 || cues[i - 1]!.endMs <= c.startMs)).toBe(true);
  });

  it('caps a single over-long word at 7 s', () => {
    const [c] = buildCues([word('mmmmm', 0, 20_000)]);
    expect(c!.endMs - c!.startMs).toBe(maxDurationMs);
  });
});

// Normalized words, as normalize.ts produces them: sorted, non-overlapping, ≥ 0.
const wordStream = fc
  .array(
    fc.record({
      base: fc.oneof(
        fc.stringMatching(/^[A-Za-z']{1,12}$/),
        fc.constantFrom('I', 'a', 'extraordinarily-long-hyphenated-compound-word-here', 'ok'),
      ),
      punct: fc.constantFrom('', '', '', ',', '.', '?', '!', ';'),
      gap: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 3000 })),
      dur: fc.oneof(fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 9000 })),
      speaker: fc.constantFrom(undefined, 'Speaker 1', 'Speaker 1', 'Speaker 2', 'Speaker 10'),
    }),
    { maxLength: 120 },
  )
  .map((items) => {
    let t = 0;
    return items.map((x): CaptionWord => {
      const startMs = t + x.gap;
      t = startMs + x.dur;
      return word(x.base + x.punct, startMs, t, x.speaker);
    });
  });

describe('buildCues: properties', () => {
  it('keeps every word once, in order; cues are monotonic, never overlap, fit the limits', () => {
    fc.assert(
      fc.property(wordStream, (words) => {
        const cues = buildCues(words);
        expect(cues.flatMap((c) => c.words)).toEqual(words);
        cues.forEach((c, i) => {
          const next = cues[i + 1];
          expect(c.endMs).toBeGreaterThan(c.startMs);
          expect(c.endMs - c.startMs).toBeLessThanOrEqual(maxDurationMs);
          if (next) expect(c.endMs).toBeLessThanOrEqual(next.startMs);
          // ≥ 1 s whenever the time up to the next cue allows it.
          if (!next || next.startMs - c.startMs >= minDurationMs) {
            expect(c.endMs - c.startMs).toBeGreaterThanOrEqual(minDurationMs);
          }
          const overlong = c.words.length === 1 && firstLine(c).length > maxLineChars;
          if (!overlong) {
            expect(c.lines.length).toBeGreaterThanOrEqual(1);
            expect(c.lines.length).toBeLessThanOrEqual(2);
            expect(firstLine(c).length).toBeLessThanOrEqual(maxLineChars);
            for (const line of c.lines) expect(line.length).toBeLessThanOrEqual(maxLineChars);
          }
          // One speaker per cue.
          expect(new Set(c.words.map((x) => x.speaker)).size).toBe(1);
          expect(c.lines.join(' ')).toBe(c.words.map((x) => x.text).join(' '));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a speaker change, a pause or a sentence end always starts a new cue', () => {
    fc.assert(
      fc.property(wordStream, (words) => {
        for (const c of buildCues(words)) {
          c.words.forEach((w, i) => {
            const prev = c.words[i - 1];
            if (!prev) return;
            expect(w.speaker).toBe(prev.speaker);
            expect(w.startMs - prev.endMs).toBeLessThan(pauseMs);
            expect(endsSentence(prev.text)).toBe(false);
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('labels exactly the first cue of each speaker turn', () => {
    fc.assert(
      fc.property(wordStream, (words) => {
        const cues = buildCues(words);
        cues.forEach((c, i) => {
          const turnStart = c.speaker !== undefined && c.speaker !== cues[i - 1]?.speaker;
          expect(c.showLabel).toBe(turnStart);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('buildCues: scale', () => {
  it('a two-hour transcript (25,000 words) in well under a second', () => {
    const words = stream(
      Array.from({ length: 25_000 }, (_, i) => (i % 17 === 16 ? 'end.' : i % 7 === 6 ? 'clause,' : 'word')),
      230,
      60,
    );
    const t0 = performance.now();
    const cues = buildCues(words);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(cues.flatMap((c) => c.words)).toHaveLength(words.length);
  });
});
