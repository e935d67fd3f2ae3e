// Review work carried from one run of a clip onto another's transcript: placed where its words are
// found again by text and time, named where they are not. Pure; transcripts built by hand.
import { describe, expect, it } from 'vitest';
import { emptyLayer, record, replay, type Correction } from '../../../main/engine/transcript/corrections.js';
import { carryReview, reviewOf, reviewWords, NO_REVIEW } from '../../../main/engine/transcript/review-carry.js';
import type { Transcript, TranscriptWord } from '../../../main/engine/transcript/transcript.js';

const word = (text: string, startMs: number, endMs: number, speaker?: string): TranscriptWord => ({
  text,
  startMs,
  endMs,
  ...(speaker ? { speaker } : {}),
  spaceBefore: true,
  corrected: false,
});

/** "the supplier said the budget is late . the budget again" over two speakers, 500 ms a word. */
function received(o: { shiftMs?: number; ids?: [string, string]; swap?: Record<number, string> } = {}): Transcript {
  const [a, b] = o.ids ?? ['S0', 'S1'];
  const texts = ['The', 'supplier', 'said', 'the', 'budget', 'is', 'late.', 'The', 'budget', 'again.'];
  const words = texts.map((t, i) =>
    word(o.swap?.[i] ?? t, i * 500 + (o.shiftMs ?? 0), i * 500 + 450 + (o.shiftMs ?? 0), i < 7 ? a : b),
  );
  return { words, speakers: [a, b], names: {}, text: '' };
}

const layerOf = (base: Transcript, changes: Correction[]) => changes.reduce((l, c) => record(l, c), emptyLayer('old'));

/** The editor's day: a word fixed, a word made two, a Replace all, a speaker renamed, a marker. */
const WORK: Correction[] = [
  { kind: 'replace', from: 1, to: 2, text: 'harbour office' },
  {
    kind: 'replaceMany',
    replacements: [
      { from: 5, to: 6, text: 'harbour budget' },
      { from: 9, to: 10, text: 'harbour budget' },
    ],
  },
  { kind: 'renameSpeaker', speaker: 'S1', name: 'Hélène Dubois' },
  { kind: 'addMarker', atMs: 3000, name: 'Crane delay', note: 'use in teaser', colour: 'Red' },
];

const texts = (t: Transcript): string => t.words.map((w) => w.text).join(' ');

describe('review work counted', () => {
  it('counts each changed place, each name and each marker', () => {
    const base = received();
    const current = replay(base, layerOf(base, WORK));
    expect(reviewOf(base, current)).toEqual({ ...NO_REVIEW, corrections: 3, speakerNames: 1, markers: 1 });
    expect(reviewOf(base, base)).toEqual(NO_REVIEW);
  });

  it('says it in words', () => {
    expect(reviewWords({ ...NO_REVIEW, corrections: 5, speakerNames: 1, markers: 1 })).toBe(
      '5 corrections, 1 speaker name and 1 marker',
    );
    expect(reviewWords({ ...NO_REVIEW, markers: 2 })).toBe('2 markers');
    expect(reviewWords(NO_REVIEW)).toBe('');
  });
});

describe('review work carried onto another run', () => {
  it('onto the same words: every piece, and the new transcript reads as the corrected one', () => {
    const base = received();
    const layer = layerOf(base, WORK);
    const fresh = received();
    const c = carryReview(base, layer, fresh);
    expect(c.notPlaced).toEqual([]);
    expect(c.carried).toEqual({ ...NO_REVIEW, corrections: 3, speakerNames: 1, markers: 1 });
    const after = replay(fresh, { ...emptyLayer('new'), changes: c.changes, applied: c.changes.length });
    const before = replay(base, layer);
    expect(texts(after)).toBe(texts(before));
    expect(after.names).toEqual({ S1: 'Hélène Dubois' });
    expect(after.markers).toEqual(before.markers);
  });

  it('onto words heard a little later, under other speaker ids: placed by text and time, names follow', () => {
    const base = received();
    const fresh = received({ shiftMs: 240, ids: ['spk_a', 'spk_b'] });
    const c = carryReview(base, layerOf(base, WORK), fresh);
    expect(c.notPlaced).toEqual([]);
    const after = replay(fresh, { ...emptyLayer('new'), changes: c.changes, applied: c.changes.length });
    expect(texts(after)).toBe('The harbour office said the harbour budget is late. The harbour budget again.');
    expect(after.names).toEqual({ spk_b: 'Hélène Dubois' });
  });

  it('a word given to another speaker follows its words', () => {
    const base = received();
    const c = carryReview(base, layerOf(base, [{ kind: 'setSpeaker', from: 7, to: 10, speaker: 'S0' }]), received());
    expect(c.carried.corrections).toBe(1);
    const after = replay(received(), { ...emptyLayer('new'), changes: c.changes, applied: c.changes.length });
    expect(after.words.slice(7).map((w) => w.speaker)).toEqual(['S0', 'S0', 'S0']);
  });

  it('a speaker the editor added keeps its id and its name', () => {
    const base = received();
    const layer = layerOf(base, [
      { kind: 'setSpeaker', from: 0, to: 3, speaker: 'A' },
      { kind: 'renameSpeaker', speaker: 'A', name: 'Front desk' },
    ]);
    const fresh = received({ ids: ['x', 'y'] });
    const c = carryReview(base, layer, fresh);
    expect(c.notPlaced).toEqual([]);
    const after = replay(fresh, { ...emptyLayer('new'), changes: c.changes, applied: c.changes.length });
    expect(after.words.slice(0, 4).map((w) => w.speaker)).toEqual(['A', 'A', 'A', 'x']);
    expect(after.names).toEqual({ A: 'Front desk' });
  });

  it('names what the new run heard differently, and carries the rest', () => {
    const base = received();
    // The new run heard "provider" where the editor had fixed "supplier", and has one speaker only.
    const fresh = received({ swap: { 1: 'provider' } });
    const single: Transcript = {
      ...fresh,
      words: fresh.words.map((w) => ({ ...w, speaker: 'S0' })),
      speakers: ['S0'],
    };
    const c = carryReview(base, layerOf(base, WORK), single);
    expect(c.carried).toEqual({ ...NO_REVIEW, corrections: 2, markers: 1 });
    expect(c.notPlaced).toHaveLength(2);
    expect(c.notPlaced[0]).toMatch(/^“harbour office” at 0:00: the new transcript has other words there$/);
    expect(c.notPlaced[1]).toMatch(/Hélène Dubois/);
    const after = replay(single, { ...emptyLayer('new'), changes: c.changes, applied: c.changes.length });
    expect(texts(after)).toBe('The provider said the harbour budget is late. The harbour budget again.');
  });

  it('an undone correction is not carried', () => {
    const base = received();
    const layer = { ...layerOf(base, WORK), applied: 1 };
    const c = carryReview(base, layer, received());
    expect(c.carried).toEqual({ ...NO_REVIEW, corrections: 1 });
  });

  it('chapter edits: replayed onto the same chapters, named when the new run gave others', () => {
    const outline = {
      chapters: [
        { id: 'c1', startMs: 0, title: 'Opening' },
        { id: 'c2', startMs: 12_000, title: 'Budget' },
      ],
      quotes: [],
      notes: [],
    };
    const withOutline = (o: typeof outline): Transcript => ({ ...received(), outline: o });
    const layer = layerOf(withOutline(outline), [{ kind: 'updateChapter', id: 'c2', title: 'The harbour budget' }]);
    const same = carryReview(withOutline(outline), layer, withOutline(outline));
    expect(same.carried).toEqual({ ...NO_REVIEW, chapters: 1 });
    const after = replay(withOutline(outline), { ...emptyLayer('new'), changes: same.changes, applied: 1 });
    expect(after.outline?.chapters.map((c) => c.title)).toEqual(['Opening', 'The harbour budget']);

    const other = { ...outline, chapters: [{ id: 'c1', startMs: 0, title: 'Everything' }] };
    const moved = carryReview(withOutline(outline), layer, withOutline(other));
    expect(moved.carried).toEqual(NO_REVIEW);
    expect(moved.notPlaced).toEqual(['1 chapter change: the new run gave other chapters and quotes']);
  });
});
