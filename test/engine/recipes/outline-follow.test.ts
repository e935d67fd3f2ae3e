// Corrections reach what gets published: a pull quote the recipe found reads the corrected words
// between its start and end; a Replace all reaches chapter titles and quotes the editor typed; the
// show notes and chapters.json are written from that. Quotes said twice are two quotes.
import { describe, expect, it } from 'vitest';
import { normalizeExport, parseExport } from '../../../main/engine/captions/normalize.js';
import { alignQuotes } from '../../../main/engine/recipes/align.js';
import { seedOutline } from '../../../main/engine/recipes/outline-edit.js';
import { replacePhrase, wordsBetween } from '../../../main/engine/recipes/outline-follow.js';
import { ANSWER_IDS } from '../../../main/engine/recipes/recipes.js';
import { RECIPE_RENDERERS } from '../../../main/engine/recipes/render.js';
import { emptyLayer, record, replay, undo } from '../../../main/engine/transcript/corrections.js';
import { applyEdit } from '../../../main/engine/transcript/transcript-edit.js';
import { normalizedOf, transcriptOf, type Transcript } from '../../../main/engine/transcript/transcript.js';

// 48 words, one every 3 s: the guest's name is said four times, misspelt "Zoe." by the service.
const CYCLE = ['Welcome', 'to', 'the', 'show.', 'Today', 'we', 'talk', 'about', 'rivers', 'with', 'our', 'Zoe.'];

function exportText(answers: Record<string, unknown>): string {
  const words = Array.from({ length: 48 }, (_, i) => ({
    word: ` ${CYCLE[i % 12]}`,
    start: i * 3000,
    end: i * 3000 + 500,
    speakers: ['SPEAKER_0'],
  }));
  const askAnything = Object.fromEntries(
    Object.entries(answers).map(([id, v]) => [id, { promptId: id, content: JSON.stringify(v) }]),
  );
  return JSON.stringify({ transcription: { text: words.map((w) => w.word).join(''), words }, askAnything });
}

const TEXT = exportText({
  [ANSWER_IDS.chapters]: {
    title: 'Rivers',
    chapters: [
      { title: 'Welcome', firstWords: 'Welcome to the show' },
      { title: 'Rivers with Zoe', firstWords: 'Today we talk about rivers' },
    ],
  },
  // The same words twice: said at 12 s and again at 48 s.
  [ANSWER_IDS.quotes]: { quotes: [{ quote: 'rivers with our Zoe.' }, { quote: 'rivers with our Zoe.' }] },
});

function baseOf(text: string): Transcript {
  const normalized = normalizeExport(text);
  const outline = seedOutline(parseExport(text), normalized);
  return { ...transcriptOf(normalized), ...(outline ? { outline } : {}) };
}

const base = baseOf(TEXT);
const render = (t: Transcript, f: 'chapters' | 'shownotes'): string =>
  RECIPE_RENDERERS[f](TEXT, { sourceName: 'ep.wav', transcript: normalizedOf(t) }) ?? '';
/** Every match of the misspelt name, as the review's Replace all sends them. */
const replaceAll = (t: Transcript, text: string) => ({
  kind: 'replaceMany' as const,
  replacements: t.words.flatMap((w, i) => (w.text === 'Zoe.' ? [{ from: i, to: i + 1, text }] : [])),
});

describe('quotes said more than once', () => {
  it('are aligned in the order they are said, not both on the first time', () => {
    const { quotes, missing } = alignQuotes(
      base.words.map((w) => ({ text: w.text, startMs: w.startMs, endMs: w.endMs })),
      ['rivers with our Zoe.', 'rivers with our Zoe.', 'Welcome to the show.'],
    );
    expect(missing).toEqual([]);
    expect(quotes.map((q) => q.startMs)).toEqual([0, 24_000, 60_000]);
    expect(base.outline?.quotes.map((q) => [q.id, q.startMs, q.endMs])).toEqual([
      ['q1', 24_000, 33_500],
      ['q2', 60_000, 69_500],
    ]);
  });
});

describe('corrections in what gets published', () => {
  it('a word corrected inside a quote the recipe found is in the quote, the show notes and nowhere else', () => {
    // Word 11 is the first "Zoe.", inside q1 only.
    const t = applyEdit(base, { kind: 'replace', from: 11, to: 12, text: 'Zoë Martin.' });
    expect(t.outline?.quotes.map((q) => q.text)).toEqual(['rivers with our Zoë Martin.', 'rivers with our Zoe.']);
    const notes = render(t, 'shownotes');
    expect(notes).toContain('> rivers with our Zoë Martin.');
    expect(notes).toContain('> rivers with our Zoe.');
    // One correction in place is not a change to every title.
    expect(t.outline?.chapters.map((c) => c.title)).toEqual(['Welcome', 'Rivers with Zoe']);
  });

  it('a Replace all of the name reaches every quote, the chapter titles and the quotes the editor typed', () => {
    let layer = record(emptyLayer('h'), { kind: 'addQuote', atMs: 90_000, text: 'Our guest zoe loves rivers' });
    layer = record(layer, replaceAll(base, 'Hélène Dubois.'));
    const t = replay(base, layer);
    expect(t.words.filter((w) => w.text === 'Hélène').length).toBe(4);
    expect(t.outline?.quotes.map((q) => q.text)).toEqual([
      'rivers with our Hélène Dubois.',
      'rivers with our Hélène Dubois.',
      'Our guest Hélène Dubois loves rivers',
    ]);
    expect(t.outline?.chapters.map((c) => c.title)).toEqual(['Welcome', 'Rivers with Hélène Dubois']);
    const notes = render(t, 'shownotes');
    expect(notes).not.toMatch(/Zoe/i);
    expect(notes.match(/Hélène Dubois/g)?.length).toBe(4);
    expect(JSON.parse(render(t, 'chapters')).chapters.map((c: { title: string }) => c.title)).toEqual([
      'Welcome',
      'Rivers with Hélène Dubois',
    ]);
    // Undone, everything says what it said before.
    const back = replay(base, undo(layer));
    expect(back.outline?.chapters.map((c) => c.title)).toEqual(['Welcome', 'Rivers with Zoe']);
    expect(back.outline?.quotes.map((q) => q.text)).toEqual([
      'rivers with our Zoe.',
      'rivers with our Zoe.',
      'Our guest zoe loves rivers',
    ]);
  });
});

describe('the pieces', () => {
  it('reads the words between two times and replaces whole words only, any case', () => {
    expect(wordsBetween(base.words, 24_000, 33_500)).toBe('rivers with our Zoe.');
    expect(wordsBetween(base.words, 24_001, 33_500)).toBe('with our Zoe.');
    expect(replacePhrase('Zoe, zoe and Zoey', 'Zoe.', 'Hélène.')).toBe('Hélène, Hélène and Zoey');
    expect(replacePhrase('the river', '...', 'x')).toBe('the river');
  });
});
