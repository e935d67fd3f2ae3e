// The corrections model: typed words spread over the span they replace, speakers renamed and
// moved, undo and redo by replay. Tables for the rules, fast-check for what must hold for any edit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  emptyLayer,
  isCorrected,
  record,
  redo,
  replay,
  undo,
  type CorrectionsLayer,
} from '../../../main/engine/transcript/corrections.js';
import { correctedExport } from '../../../main/engine/transcript/corrected-export.js';
import { normalizeExport } from '../../../main/engine/captions/normalize.js';
import {
  applyEdit,
  spreadTimes,
  TranscriptEditError,
  type TranscriptEdit,
} from '../../../main/engine/transcript/transcript-edit.js';
import { paragraphsOf, type Transcript, type TranscriptWord } from '../../../main/engine/transcript/transcript.js';

const word = (text: string, startMs: number, endMs: number, speaker?: string): TranscriptWord => ({
  text,
  startMs,
  endMs,
  ...(speaker ? { speaker } : {}),
  spaceBefore: true,
  corrected: false,
});

const sample = (): Transcript => ({
  words: [
    word('Good', 0, 400, 'S0'),
    word('morning', 400, 1000, 'S0'),
    word('everyone.', 1000, 1600, 'S0'),
    word('Thanks', 2000, 2400, 'S1'),
    word('all.', 2400, 2800, 'S1'),
  ],
  speakers: ['S0', 'S1'],
  names: {},
  text: '',
});

describe('replace', () => {
  it('spreads several typed words over the replaced span by characters', () => {
    const t = applyEdit(sample(), { kind: 'replace', from: 0, to: 2, text: 'Hi there friends' });
    const fresh = t.words.slice(0, 3);
    expect(fresh.map((w) => w.text)).toEqual(['Hi', 'there', 'friends']);
    expect(fresh.map((w) => [w.startMs, w.endMs])).toEqual([
      [0, 143],
      [143, 500],
      [500, 1000],
    ]);
    expect(fresh.every((w) => w.corrected && w.speaker === 'S0')).toBe(true);
    expect(t.words.slice(3)).toEqual(sample().words.slice(2));
  });

  it('keeps each word its own time when as many words are typed as replaced', () => {
    const t = applyEdit(sample(), { kind: 'replace', from: 1, to: 3, text: 'evening, everybody.' });
    expect(t.words[1]).toMatchObject({ text: 'evening,', startMs: 400, endMs: 1000, corrected: true });
    expect(t.words[2]).toMatchObject({ text: 'everybody.', startMs: 1000, endMs: 1600, corrected: true });
  });

  it('removes the words when the text is empty, and refuses a range outside the transcript', () => {
    expect(applyEdit(sample(), { kind: 'replace', from: 0, to: 1, text: '  ' }).words.map((w) => w.text)).toEqual([
      'morning',
      'everyone.',
      'Thanks',
      'all.',
    ]);
    for (const [from, to] of [
      [2, 2],
      [3, 1],
      [0, 6],
      [-1, 1],
    ] as const) {
      expect(() => applyEdit(sample(), { kind: 'replace', from, to, text: 'x' })).toThrow(TranscriptEditError);
    }
  });
});

describe('find-and-replace', () => {
  const misspelt = (): Transcript => ({
    words: [
      { ...word('Jurgen', 0, 400, 'S0'), confidence: 0.91, language: 'de' },
      word('said', 400, 800, 'S0'),
      { ...word('Jurgen,', 800, 1200, 'S0'), confidence: 0.8, language: 'de' },
      word('hello', 1200, 1600, 'S1'),
      { ...word('jurgen.', 1600, 2000, 'S1'), confidence: 0.7, language: 'de' },
    ],
    speakers: ['S0', 'S1'],
    names: {},
    text: '',
  });

  it('replaces every match in one change, undone in one step', () => {
    const replacements = [
      { from: 0, to: 1, text: 'Jürgen' },
      { from: 2, to: 3, text: 'Jürgen,' },
      { from: 4, to: 5, text: 'Jürgen Weiß.' },
    ];
    const base = misspelt();
    let l = record(emptyLayer('h'), { kind: 'replaceMany', replacements });
    const t = replay(base, l);
    expect(t.words.map((w) => w.text)).toEqual(['Jürgen', 'said', 'Jürgen,', 'hello', 'Jürgen', 'Weiß.']);
    expect(l.changes).toHaveLength(1);
    l = undo(l);
    expect(replay(base, l)).toEqual(base);
  });

  it('keeps each replaced word its confidence and language, in the export too', () => {
    const t = applyEdit(misspelt(), {
      kind: 'replaceMany',
      replacements: [
        { from: 0, to: 1, text: 'Jürgen' },
        { from: 4, to: 5, text: 'Jürgen Weiß.' },
      ],
    });
    expect(t.words[0]).toMatchObject({ text: 'Jürgen', confidence: 0.91, language: 'de', corrected: true });
    expect(t.words.slice(4).map((w) => [w.confidence, w.language])).toEqual([
      [0.7, 'de'],
      [0.7, 'de'],
    ]);
    const out = correctedExport({}, t, 'ms');
    expect(out.transcription?.words[0]).toMatchObject({ word: ' Jürgen', confidence: 0.91, language: 'de' });
    expect(out.transcription?.words[5]).toMatchObject({ word: ' Weiß.', confidence: 0.7, language: 'de' });
  });

  it('puts the corrected words in the enhanced transcription too, so reading the file again keeps them', () => {
    const t = applyEdit(sample(), { kind: 'replaceMany', replacements: [{ from: 0, to: 1, text: 'Hello' }] });
    const enhanced = { transcription: { text: ' Good morning everyone.', words: [] }, model: 'kept' };
    const out = correctedExport({ enhancedTranscription: enhanced }, t, 'ms');
    expect(out.enhancedTranscription?.transcription).toEqual(out.transcription);
    expect((out.enhancedTranscription as unknown as { model: string }).model).toBe('kept');
    expect(normalizeExport(out).words.map((w) => w.text)[0]).toBe('Hello');
    expect(correctedExport({}, t, 'ms').enhancedTranscription).toBeUndefined();
  });

  it('refuses ranges out of order, overlapping or outside, changing nothing', () => {
    for (const replacements of [
      [],
      [
        { from: 2, to: 3, text: 'a' },
        { from: 0, to: 1, text: 'b' },
      ],
      [
        { from: 0, to: 2, text: 'a' },
        { from: 1, to: 3, text: 'b' },
      ],
      [{ from: 4, to: 6, text: 'a' }],
    ]) {
      expect(() => applyEdit(misspelt(), { kind: 'replaceMany', replacements })).toThrow(TranscriptEditError);
    }
  });
});

describe('speakers', () => {
  it('renames a speaker for the whole file; an empty name gives the default back', () => {
    const t = applyEdit(sample(), { kind: 'renameSpeaker', speaker: 'S1', name: '  Dr.  Ada Lovelace ' });
    expect(t.names).toEqual({ S1: 'Dr. Ada Lovelace' });
    expect(applyEdit(t, { kind: 'renameSpeaker', speaker: 'S1', name: '' }).names).toEqual({});
    expect(() => applyEdit(sample(), { kind: 'renameSpeaker', speaker: 'S9', name: 'x' })).toThrow(TranscriptEditError);
  });

  it('moves a paragraph to another speaker, and the paragraphs follow', () => {
    const t = applyEdit(sample(), { kind: 'setSpeaker', from: 3, to: 5, speaker: 'S0' });
    expect(paragraphsOf(t.words)).toEqual([{ first: 0, end: 5, speaker: 'S0' }]);
    const fresh = applyEdit(sample(), { kind: 'setSpeaker', from: 0, to: 1, speaker: 'S2' });
    expect(fresh.speakers).toEqual(['S0', 'S1', 'S2']);
  });

  it('writes the speaker names into the export, in its own schema', () => {
    const t = applyEdit(sample(), { kind: 'renameSpeaker', speaker: 'S0', name: 'Ana' });
    const out = correctedExport({ summary: { content: 'kept' } }, t, 's');
    expect(out.summary).toEqual({ content: 'kept' });
    expect(out.transcription?.words[0]).toEqual({
      word: ' Good',
      start: 0,
      end: 0.4,
      speakers: ['Ana'],
      speakersOverlap: false,
    });
    expect(out.utterances?.map((u) => [u.speakerIds, u.text])).toEqual([
      [['Ana'], 'Good morning everyone.'],
      [['S1'], 'Thanks all.'],
    ]);
  });
});

describe('undo and redo', () => {
  it('undo takes back the last change, redo puts it back; a new change drops what was undone', () => {
    const base = sample();
    let l: CorrectionsLayer = emptyLayer('h');
    l = record(l, { kind: 'replace', from: 0, to: 1, text: 'Hello' });
    l = record(l, { kind: 'renameSpeaker', speaker: 'S0', name: 'Ana' });
    expect(l.revision).toBe(2);
    const two = replay(base, l);
    l = undo(l);
    expect(replay(base, l).names).toEqual({});
    l = redo(l);
    expect(replay(base, l)).toEqual(two);
    l = undo(undo(l));
    expect(isCorrected(base, replay(base, l))).toBe(false);
    l = record(l, { kind: 'replace', from: 4, to: 5, text: 'you.' });
    expect(l.changes).toHaveLength(1);
    expect(redo(l)).toBe(l);
    expect(l.revision).toBe(7);
  });

  it('a revert is a change: back to the service transcript, and undone like any other', () => {
    const base = sample();
    let l = record(emptyLayer('h'), { kind: 'replace', from: 0, to: 3, text: 'Hi' });
    l = record(l, { kind: 'revert' });
    expect(replay(base, l)).toEqual(base);
    expect(replay(base, undo(l)).words[0]!.text).toBe('Hi');
  });
});

// ---- properties ---------------------------------------------------------------------------------

const arbTranscript: fc.Arbitrary<Transcript> = fc
  .array(
    fc.record({
      text: fc.stringMatching(/^[A-Za-zßé.,]{1,12}$/),
      gap: fc.integer({ min: 0, max: 800 }),
      len: fc.integer({ min: 0, max: 1500 }),
      speaker: fc.constantFrom('A', 'B', 'C'),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rows) => {
    let t = 0;
    const words = rows.map((r) => {
      const start = t + r.gap;
      t = start + r.len;
      return word(r.text, start, t, r.speaker);
    });
    return { words, speakers: [...new Set(words.map((w) => w.speaker!))], names: {}, text: '' };
  });

const arbText = fc
  .array(fc.stringMatching(/^[A-Za-zäöüß]{1,15}$/), { minLength: 0, maxLength: 8 })
  .map((ws) => ws.join(' '));

const arbEdit = (n: number): fc.Arbitrary<TranscriptEdit> =>
  fc.oneof(
    fc
      .tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: n }), arbText)
      .map(([a, b, text]) => ({ kind: 'replace' as const, from: Math.min(a, b - 1), to: Math.max(a + 1, b), text })),
    fc
      .tuple(fc.constantFrom('A', 'B', 'C'), fc.string({ maxLength: 20 }))
      .map(([speaker, name]) => ({ kind: 'renameSpeaker' as const, speaker, name })),
    fc
      .tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: n }), fc.constantFrom('A', 'B', 'D'))
      .map(([a, b, speaker]) => ({
        kind: 'setSpeaker' as const,
        from: Math.min(a, b - 1),
        to: Math.max(a + 1, b),
        speaker,
      })),
  );

const tryEdit = (t: Transcript, e: TranscriptEdit): Transcript | undefined => {
  try {
    return applyEdit(t, e);
  } catch (err) {
    if (err instanceof TranscriptEditError) return undefined;
    throw err;
  }
};

describe('properties', () => {
  it('a replacement keeps its words within the span, in order, and touches no other word', () => {
    fc.assert(
      fc.property(
        arbTranscript.chain((t) =>
          fc.tuple(
            fc.constant(t),
            arbEdit(t.words.length).filter((e) => e.kind === 'replace'),
          ),
        ),
        ([t, e]) => {
          if (e.kind !== 'replace') return;
          const out = applyEdit(t, e);
          const typed = e.text.split(/\s+/).filter(Boolean);
          // No word lost or duplicated: before, the typed words, after — exactly.
          expect(out.words.length).toBe(t.words.length - (e.to - e.from) + typed.length);
          expect(out.words.slice(0, e.from)).toEqual(t.words.slice(0, e.from));
          expect(out.words.slice(e.from + typed.length)).toEqual(t.words.slice(e.to));
          const fresh = out.words.slice(e.from, e.from + typed.length);
          expect(fresh.map((w) => w.text)).toEqual(typed);
          const spanStart = t.words[e.from]!.startMs;
          const spanEnd = t.words[e.to - 1]!.endMs;
          fresh.forEach((w, i) => {
            expect(w.startMs).toBeGreaterThanOrEqual(spanStart);
            expect(w.endMs).toBeLessThanOrEqual(spanEnd);
            expect(w.endMs).toBeGreaterThanOrEqual(w.startMs);
            if (i > 0) expect(w.startMs).toBeGreaterThanOrEqual(fresh[i - 1]!.endMs);
          });
          // The whole transcript stays in time order.
          for (let i = 1; i < out.words.length; i++)
            expect(out.words[i]!.startMs).toBeGreaterThanOrEqual(out.words[i - 1]!.startMs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('spreadTimes covers the span exactly, each word starting where the last ended', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,20}$/), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 1e7 }),
        fc.integer({ min: 0, max: 60_000 }),
        (tokens, start, span) => {
          const times = spreadTimes(tokens, start, start + span);
          expect(times[0]![0]).toBe(start);
          expect(times[times.length - 1]![1]).toBe(start + span);
          times.forEach(([s, e], i) => {
            expect(e).toBeGreaterThanOrEqual(s);
            if (i > 0) expect(s).toBe(times[i - 1]![1]);
          });
        },
      ),
    );
  });

  it('undoing every change restores the transcript exactly, at any point of any sequence', () => {
    fc.assert(
      fc.property(
        arbTranscript.chain((t) =>
          fc.tuple(fc.constant(t), fc.array(arbEdit(t.words.length), { minLength: 1, maxLength: 12 })),
        ),
        ([base, edits]) => {
          let layer = emptyLayer('h');
          const states: Transcript[] = [base];
          for (const e of edits) {
            const cur = states[states.length - 1]!;
            const next = tryEdit(cur, e);
            if (!next) continue;
            layer = record(layer, e);
            states.push(next);
            expect(replay(base, layer)).toEqual(next);
          }
          for (let i = states.length - 1; i > 0; i--) {
            layer = undo(layer);
            expect(replay(base, layer)).toEqual(states[i - 1]);
          }
          expect(replay(base, layer)).toEqual(base);
          for (let i = 1; i < states.length; i++) {
            layer = redo(layer);
            expect(replay(base, layer)).toEqual(states[i]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
