// The recipe's chapters and quotes as corrections: renamed, moved, removed and added at a moment,
// undone and redone by replaying the layer (same ids each time), under the recipe's chapter rules,
// and followed by every recipe result.
import { describe, expect, it } from 'vitest';
import { normalizeExport, parseExport } from '../../../main/engine/captions/normalize.js';
import { seedOutline } from '../../../main/engine/recipes/outline-edit.js';
import { ANSWER_IDS } from '../../../main/engine/recipes/recipes.js';
import { RECIPE_RENDERERS, recipeNotes } from '../../../main/engine/recipes/render.js';
import {
  CORRECTIONS_LAYER,
  emptyLayer,
  isCorrected,
  record,
  redo,
  replay,
  undo,
  type Correction,
} from '../../../main/engine/transcript/corrections.js';
import { applyEdit, TranscriptEditError } from '../../../main/engine/transcript/transcript-edit.js';
import { normalizedOf, transcriptOf, type Transcript } from '../../../main/engine/transcript/transcript.js';

const CYCLE = ['Welcome', 'to', 'the', 'show.', 'Today', 'we', 'talk', 'about', 'rivers,', 'bridges', 'and', 'Zoë.'];

/** 60 words, one every 3 s, two speakers; the recipe's answers when `answers` is given. */
function exportText(answers?: Record<string, unknown>): string {
  const words = Array.from({ length: 60 }, (_, i) => ({
    word: ` ${CYCLE[i % 12]}`,
    start: i * 3000,
    end: i * 3000 + 500,
    speakers: [i < 30 ? 'SPEAKER_0' : 'SPEAKER_1'],
  }));
  const askAnything = Object.fromEntries(
    Object.entries(answers ?? {}).map(([id, v]) => [id, { promptId: id, content: JSON.stringify(v) }]),
  );
  return JSON.stringify({ transcription: { text: words.map((w) => w.word).join(''), words }, askAnything });
}

const TEXT = exportText({
  [ANSWER_IDS.chapters]: {
    title: 'Rivers and bridges',
    chapters: [
      { title: 'Welcome', firstWords: 'Welcome to the show' },
      { title: 'Rivers', firstWords: 'Today we talk about rivers' },
      { title: 'Bridges', firstWords: 'bridges and zoe' },
      { title: 'Invented', firstWords: 'the mountains are high' },
    ],
  },
  [ANSWER_IDS.quotes]: { quotes: [{ quote: 'talk about rivers, bridges' }] },
});

function baseOf(text: string): Transcript {
  const normalized = normalizeExport(text);
  const outline = seedOutline(parseExport(text), normalized);
  return { ...transcriptOf(normalized), ...(outline ? { outline } : {}) };
}

const base = baseOf(TEXT);
const chaptersOf = (t: Transcript) => t.outline?.chapters.map((c) => [c.id, c.startMs, c.title]);
const layerOf = (...changes: Correction[]) => changes.reduce(record, emptyLayer('h'));
const render = (t: Transcript, f: 'chapters' | 'youtube' | 'shownotes') =>
  RECIPE_RENDERERS[f](TEXT, { sourceName: 'ep.wav', transcript: normalizedOf(t) });

describe('the outline of a recipe job', () => {
  it('is aligned once on the service words, with ids in time order and what was left out', () => {
    expect(chaptersOf(base)).toEqual([
      ['c1', 0, 'Welcome'],
      ['c2', 12_000, 'Rivers'],
      ['c3', 27_000, 'Bridges'],
    ]);
    expect(base.outline?.quotes).toEqual([
      { id: 'q1', startMs: 18_000, endMs: 27_500, text: 'talk about rivers, bridges', speaker: 'SPEAKER_0' },
    ]);
    expect(base.outline?.notes.join(' ')).toMatch(/1 chapter was left out.*Invented/);
    // No recipe ran: no outline, and an edit of one says what to do.
    const plain = baseOf(exportText());
    expect(plain.outline).toBeUndefined();
    expect(() => applyEdit(plain, { kind: 'addChapter', atMs: 0, title: 'x' })).toThrow(TranscriptEditError);
    expect(() => applyEdit(plain, { kind: 'addChapter', atMs: 0, title: 'x' })).toThrow(/recipe/);
  });
});

describe('chapter and quote edits in the corrections layer', () => {
  it('rename, move, add and remove with ids that replay the same, and undo by replay', () => {
    let layer = layerOf(
      { kind: 'updateChapter', id: 'c2', title: '  Rivers   of Europe ' },
      { kind: 'addChapter', atMs: 120_000, title: '' },
      { kind: 'updateChapter', id: 'c3', atMs: 60_000 },
    );
    const t = replay(base, layer);
    expect(chaptersOf(t)).toEqual([
      ['c1', 0, 'Welcome'],
      ['c2', 12_000, 'Rivers of Europe'],
      ['c3', 60_000, 'Bridges'],
      ['c4', 120_000, 'Chapter 4'],
    ]);
    expect(chaptersOf(replay(base, layer))).toEqual(chaptersOf(t));
    expect(isCorrected(base, t)).toBe(true);
    // The layer as saved and read back (the corrections file's schema) replays the same.
    expect(chaptersOf(replay(base, CORRECTIONS_LAYER.parse(JSON.parse(JSON.stringify(layer)))))).toEqual(chaptersOf(t));
    layer = record(layer, { kind: 'removeChapter', id: 'c4' });
    expect(chaptersOf(replay(base, layer))?.map((c) => c[0])).toEqual(['c1', 'c2', 'c3']);
    // A chapter added takes the number after the highest there (as markers do).
    expect(
      chaptersOf(replay(base, record(layer, { kind: 'addChapter', atMs: 150_000, title: 'End' })))?.at(-1),
    ).toEqual(['c4', 150_000, 'End']);
    layer = undo(undo(layer));
    expect(chaptersOf(replay(base, layer))).toEqual([
      ['c1', 0, 'Welcome'],
      ['c2', 12_000, 'Rivers of Europe'],
      ['c3', 27_000, 'Bridges'],
      ['c4', 120_000, 'Chapter 4'],
    ]);
    expect(chaptersOf(replay(base, undo(undo(layer))))).toEqual(chaptersOf(base));
    expect(isCorrected(base, replay(base, undo(undo(layer))))).toBe(false);
    expect(chaptersOf(replay(base, redo(layer)))?.find((c) => c[0] === 'c3')?.[1]).toBe(60_000);
    // Revert gives back the recipe's chapters.
    expect(chaptersOf(replay(base, record(layer, { kind: 'revert' })))).toEqual(chaptersOf(base));
  });

  it('keeps the first chapter at 0 and merges chapters closer than 10 s, as the recipe does', () => {
    // Moving the first chapter later leaves it first: it still starts at 0.
    expect(chaptersOf(applyEdit(base, { kind: 'updateChapter', id: 'c1', atMs: 5_000 }))?.[0]).toEqual([
      'c1',
      0,
      'Welcome',
    ]);
    // Removing the first chapter makes the next one start at 0.
    expect(chaptersOf(applyEdit(base, { kind: 'removeChapter', id: 'c1' }))).toEqual([
      ['c2', 0, 'Rivers'],
      ['c3', 27_000, 'Bridges'],
    ]);
    // A chapter added 8 s after another merges into it; one moved to 5 s after another too.
    expect(chaptersOf(applyEdit(base, { kind: 'addChapter', atMs: 20_000, title: 'Too close' }))).toEqual(
      chaptersOf(base),
    );
    expect(chaptersOf(applyEdit(base, { kind: 'updateChapter', id: 'c3', atMs: 17_000 }))).toEqual([
      ['c1', 0, 'Welcome'],
      ['c2', 12_000, 'Rivers'],
    ]);
    expect(() => applyEdit(base, { kind: 'removeChapter', id: 'c9' })).toThrow(/no longer there/);
    expect(() => applyEdit(base, { kind: 'updateChapter', id: 'c1', title: 'x'.repeat(201) })).toThrow(/at most 200/);
  });

  it('as the editor makes it, an edit that would merge a chapter away is refused, saying why', () => {
    const strict = { strict: true };
    expect(() => applyEdit(base, { kind: 'addChapter', atMs: 20_000, title: 'Too close' }, strict)).toThrow(
      new TranscriptEditError(
        '“Too close” would start 8.0 s after “Rivers” (0:12), and chapters are at least 10 s apart (YouTube shows none otherwise): put it 10 s or more from that chapter, or move or remove that one first.',
      ),
    );
    expect(() => applyEdit(base, { kind: 'updateChapter', id: 'c3', atMs: 17_000 }, strict)).toThrow(
      /^“Bridges” would start 5\.0 s after “Rivers” \(0:12\)/,
    );
    expect(() => applyEdit(base, { kind: 'addChapter', atMs: 12_000, title: 'Same' }, strict)).toThrow(
      /^“Same” would start at the same moment as “Rivers” \(0:12\)/,
    );
    // Added before a chapter it would push out: said of the one added.
    expect(() => applyEdit(base, { kind: 'addChapter', atMs: 22_000, title: 'Early' }, strict)).toThrow(
      /^“Early” would start 5\.0 s before “Bridges” \(0:27\)/,
    );
    // 10 s or more from the others is a chapter of its own.
    expect(chaptersOf(applyEdit(base, { kind: 'addChapter', atMs: 40_000, title: 'Far enough' }, strict))).toEqual([
      ['c1', 0, 'Welcome'],
      ['c2', 12_000, 'Rivers'],
      ['c3', 27_000, 'Bridges'],
      ['c4', 40_000, 'Far enough'],
    ]);
  });

  it('a layer that merges a chapter away (made before the check, or by hand) still replays, and the job names it', () => {
    const t = replay(base, layerOf({ kind: 'addChapter', atMs: 20_000, title: 'Too close' }));
    expect(chaptersOf(t)).toEqual(chaptersOf(base));
    const note =
      'The chapter “Too close” at 0:20 merged into “Rivers” (0:12): it started 8.0 s after it, and chapters are at least 10 s apart.';
    expect(t.outline?.notes).toContain(note);
    expect(recipeNotes(TEXT, ['chapters'], { sourceName: 'ep.wav', transcript: normalizedOf(t) })).toContain(note);
  });

  it('adds a quote at a moment from the words said there, moves and removes quotes', () => {
    let t = applyEdit(base, { kind: 'addQuote', atMs: 100_000, text: '' });
    // The word said at 100 s (word 33 ended at 99.5 s) is the next: "and" at 102 s, by SPEAKER_1.
    const added = t.outline?.quotes.find((q) => q.id === 'q2');
    expect(added).toMatchObject({ startMs: 100_000, speaker: 'SPEAKER_1' });
    expect(added?.text.split(' ').slice(0, 3)).toEqual(['and', 'Zoë.', 'Welcome']);
    t = applyEdit(t, { kind: 'updateQuote', id: 'q1', atMs: 150_000, text: 'Bridges and Zoë' });
    expect(t.outline?.quotes.map((q) => [q.id, q.startMs, q.text, q.speaker])).toEqual([
      ['q2', 100_000, added?.text, 'SPEAKER_1'],
      ['q1', 150_000, 'Bridges and Zoë', 'SPEAKER_1'],
    ]);
    t = applyEdit(t, { kind: 'removeQuote', id: 'q2' });
    expect(t.outline?.quotes.map((q) => q.id)).toEqual(['q1']);
  });

  it('is what chapters.json, youtube.txt and the show notes are written from', () => {
    const t = replay(
      base,
      layerOf(
        { kind: 'updateChapter', id: 'c2', title: 'Rivers of Europe' },
        { kind: 'updateChapter', id: 'c3', atMs: 60_000 },
        { kind: 'renameSpeaker', speaker: 'SPEAKER_0', name: 'Ana' },
      ),
    );
    expect(JSON.parse(render(t, 'chapters')!).chapters).toEqual([
      { startTime: 0, title: 'Welcome' },
      { startTime: 12, title: 'Rivers of Europe' },
      { startTime: 60, title: 'Bridges' },
    ]);
    expect(render(t, 'youtube')).toBe('0:00 Welcome\n0:12 Rivers of Europe\n1:00 Bridges\n');
    const notes = render(t, 'shownotes')!;
    expect(notes).toContain('Rivers of Europe');
    expect(notes).toContain('Ana');
    // A word corrected inside a chapter's opening words loses no chapter.
    const fixed = applyEdit(t, { kind: 'replace', from: 4, to: 5, text: 'Tomorrow' });
    expect(JSON.parse(render(fixed, 'chapters')!).chapters).toHaveLength(3);
  });
});
