// Selects from everywhere over the bridge, on a real runtime and sandbox: a recipe job's search
// moment widened to its sentence and its turn, a marker, a chapter and a pull quote each named by
// the id the review shows, main finding the words; each answer names the select it added (a
// toast's Undo removes it), and an id or payload that names nothing is refused with what to do.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../main/ipc/handlers.js';
import { makeRepeatableToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ events: true });

describe('selects from a moment, a marker, a chapter and a pull quote', () => {
  it('adds the words main finds for each, and refuses what names nothing', async () => {
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: { ...s.defaults, recipe: 'podcast', output: { ...s.defaults.output, formats: ['json', 'chapters'] } },
    }));
    const media = path.join(t.env.dir, 'media');
    await mkdir(media, { recursive: true });
    const file = await makeRepeatableToneWav(media, 'talk.wav', 90);
    const added = value(await t.bridge.handlers['queue:add']({ paths: [file] }));
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);
    const h = t.bridge.handlers;

    let view = value(await h['transcript:open']({ jobId }));
    view = value(
      await h['transcript:edit']({
        jobId,
        revision: view.revision,
        edit: { kind: 'addMarker', atMs: 0, name: 'Opening line', note: '', colour: 'Red' },
      }),
    );
    const { words, paragraphs, outline } = view;
    const marker = view.markers![0]!;
    const chapter = outline!.chapters[0]!;
    const quote = outline!.quotes[0]!;
    expect(words.length).toBeGreaterThan(20);
    const textOf = (r: [number, number] | undefined): string =>
      words
        .slice(r![0], r![1])
        .map((w) => w.text)
        .join(' ');
    /** The first sentence: up to the first word that ends one. */
    const sentenceEnd = Math.min(words.findIndex((w) => /[.?!]$/.test(w.text)) + 1, paragraphs[0]!.end);
    expect(sentenceEnd).toBeGreaterThan(1);

    const from = async (f: Parameters<(typeof h)['selects:addFrom']>[0]['from']) =>
      value(await h['selects:addFrom']({ list: 'From', jobId, from: f }));

    // A moment inside the second word: its sentence, then its speaker's turn (the review's paragraph).
    const hitMs = (words[1]!.start + words[1]!.end) / 2;
    const sentence = await from({ kind: 'moment', ms: hitMs, widen: 'sentence' });
    expect(sentence.added).toMatchObject({ jobId, words: [0, sentenceEnd], fileName: 'talk.wav' });
    expect(sentence.added.text).toBe(textOf([0, sentenceEnd]));
    expect(sentence.list.selects.map((s) => s.id)).toEqual([sentence.added.id]);
    const turn = await from({ kind: 'moment', ms: hitMs, widen: 'turn' });
    expect(turn.added.words).toEqual([paragraphs[0]!.first, paragraphs[0]!.end]);

    // A marker: its moment's sentence, its name and colour.
    const byMarker = await from({ kind: 'marker', id: marker.id });
    expect(byMarker.added).toMatchObject({ words: [0, sentenceEnd], label: 'Opening line', colour: 'Red' });

    // A chapter: its words up to the next chapter, its title as the label.
    const byChapter = await from({ kind: 'chapter', id: chapter.id });
    const nextMs = outline!.chapters[1]?.startMs ?? Infinity;
    const chapterEnd = words.findIndex((w) => w.start >= nextMs);
    expect(byChapter.added).toMatchObject({
      words: [0, chapterEnd < 0 ? words.length : chapterEnd],
      label: chapter.title,
    });

    // A pull quote: the words it quotes, where it is said.
    const byQuote = await from({ kind: 'quote', id: quote.id });
    expect(byQuote.added.text.replace(/[^\p{L}\p{N} ]/gu, '').toLowerCase()).toBe(
      quote.text.replace(/[^\p{L}\p{N} ]/gu, '').toLowerCase(),
    );
    expect(byQuote.added.fromMs).toBe(quote.startMs);

    // Every add is saved and announced; the list holds them in the order they were added.
    expect(byQuote.list.selects.map((s) => s.id)).toEqual(
      [sentence, turn, byMarker, byChapter, byQuote].map((a) => a.added.id),
    );
    await until(() =>
      t.events.find((e) => e.name === 'selects:changed' && e.payload.revision === byQuote.list.revision),
    );
    // The toast's Undo: the select added is removed by its id.
    const undone = value(await h['selects:edit']({ list: 'From', edit: { kind: 'remove', id: byQuote.added.id } }));
    expect(undone.selects).toHaveLength(4);

    // An id the transcript has not, a moment after the last word, a job not done: said, nothing added.
    for (const [f, message] of [
      [{ kind: 'marker', id: 'm99' }, /no marker "m99" in this transcript \(it has 1 marker\)/],
      [{ kind: 'chapter', id: 'c99' }, /no chapter "c99"/],
      [{ kind: 'quote', id: 'q99' }, /no quote "q99"/],
      [{ kind: 'moment', ms: 40 * 3600 * 1000, widen: 'turn' }, /Nothing is said at 40:00:00 or after/],
    ] as const) {
      const r = await h['selects:addFrom']({ list: 'From', jobId, from: f });
      expect(r).toMatchObject({ ok: false, error: { code: 'VALIDATION', fields: [{ path: 'from' }] } });
      expect(!r.ok && r.error.message).toMatch(message);
    }
    const notDone = await h['selects:addFrom']({
      list: 'From',
      jobId: 'no-such-job',
      from: { kind: 'marker', id: marker.id },
    });
    expect(!notDone.ok && notDone.error.message).toMatch(/transcript is in/);
    // The schema stops what no handler should see.
    for (const raw of [
      { list: 'From', jobId, from: { kind: 'moment', ms: -1, widen: 'sentence' } },
      { list: 'From', jobId, from: { kind: 'moment', ms: 10, widen: 'paragraph' } },
      { list: 'From', jobId, from: { kind: 'word', id: 'w1' } },
      { list: 'From', jobId, from: { kind: 'marker', id: 'm1', extra: 1 } },
    ]) {
      expect(await dispatch(h, 'selects:addFrom', raw)).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    }
    expect(value(await h['selects:open']({ list: 'From' })).selects).toHaveLength(4);
  });
});
