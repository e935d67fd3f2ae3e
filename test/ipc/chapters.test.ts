// A recipe job's chapters and pull quotes over the bridge on a real runtime and sandbox: shown
// beside the transcript, renamed and deleted like corrections, and chapters.json, youtube.txt, the
// show notes and the EDL's chapter markers beside the source follow within a second, undo included.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../main/ipc/handlers.js';
import { makeRepeatableToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ mediaUrl: true, events: true });

// Within a second on a quiet machine. The bound only proves the files do not wait for the next
// rescan (every 60 s by default), so it is a third of that: beside other heavy jobs on two cores
// one change once took 5.5 s.
const FOLLOWS_MS = 20_000;

type Edit = Parameters<Bridge['handlers']['transcript:edit']>[0]['edit'];

describe('chapters and quotes of a recipe job in the review', () => {
  it('follow every change into chapters.json, youtube.txt and the show notes within a second, undo included', async () => {
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: {
        ...s.defaults,
        recipe: 'podcast',
        output: {
          ...s.defaults.output,
          formats: ['json', 'chapters', 'youtube', 'shownotes', 'srt', 'edl'],
          markers: ['chapters'],
        },
      },
    }));
    const media = path.join(t.env.dir, 'media');
    await mkdir(media, { recursive: true });
    const added = value(
      await t.bridge.handlers['queue:add']({ paths: [await makeRepeatableToneWav(media, 'talk.wav', 200)] }),
    );
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);
    const read = (ext: string): Promise<string> => readFile(path.join(media, `talk.${ext}`), 'utf8');
    const titles = async (): Promise<string[]> =>
      (JSON.parse(await read('chapters.json')) as { chapters: Array<{ title: string }> }).chapters.map((c) => c.title);
    // 200 s: the simulated answer has as many chapters as the transcript has sentences, up to six;
    // a 90 s talk sometimes had two, and YouTube takes three or more (no youtube.txt then).
    const chaptersBefore = await read('chapters.json');
    const youtubeBefore = await read('youtube.txt');
    const srtBefore = await read('srt');

    let view = value(await t.bridge.handlers['transcript:open']({ jobId }));
    const outline = view.outline!;
    expect(outline.chapters.length).toBeGreaterThanOrEqual(3);
    expect(outline.chapters[0]!.startMs).toBe(0);
    expect(outline.chapters.map((c) => c.title)).toEqual(await titles());
    expect(outline.quotes.length).toBeGreaterThan(0);
    const second = outline.chapters[1]!;

    const change = async (edit: Edit): Promise<number> => {
      const started = Date.now();
      view = value(await t.bridge.handlers['transcript:edit']({ jobId, revision: view.revision, edit }));
      await until(() =>
        t.events.find(
          (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === view.revision,
        ),
      );
      return Date.now() - started;
    };

    expect(await change({ kind: 'updateChapter', id: second.id, title: 'Renamed in the review' })).toBeLessThan(
      FOLLOWS_MS,
    );
    expect(view.outline?.chapters[1]).toEqual({ ...second, title: 'Renamed in the review' });
    expect((await titles())[1]).toBe('Renamed in the review');
    expect((await read('youtube.txt')).split('\n')[1]).toMatch(/^\d+:\d\d Renamed in the review$/);
    expect(await read('shownotes.md')).toContain('Renamed in the review');
    // The chapters are the EDL's markers when the folder asks for them.
    expect(await read('edl')).toContain('|M:Renamed in the review |D:1');
    // Media-time formats do not change for a chapter.
    expect(await read('srt')).toBe(srtBefore);

    const quote = view.outline!.quotes[0]!;
    expect(await change({ kind: 'removeQuote', id: quote.id })).toBeLessThan(FOLLOWS_MS);
    expect(view.outline?.quotes.map((q) => q.id)).not.toContain(quote.id);

    view = value(await t.bridge.handlers['transcript:undo']({ jobId }));
    view = value(await t.bridge.handlers['transcript:undo']({ jobId }));
    const started = Date.now();
    await until(() =>
      t.events.find(
        (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === view.revision,
      ),
    );
    expect(Date.now() - started).toBeLessThan(FOLLOWS_MS);
    expect(view.outline?.chapters).toEqual(outline.chapters);
    expect(view.outline?.quotes).toEqual(outline.quotes);
    expect(await read('chapters.json')).toBe(chaptersBefore);
    expect(await read('youtube.txt')).toBe(youtubeBefore);
    expect(await read('edl')).not.toContain('Renamed in the review');

    // An edit on a stale id says what happened and changes nothing.
    const refused = await t.bridge.handlers['transcript:edit']({
      jobId,
      revision: view.revision,
      edit: { kind: 'removeChapter', id: 'c99' },
    });
    expect(refused.ok).toBe(false);

    // A chapter less than 10 s after another would merge away: refused as it is made, saying why,
    // rather than recorded and dropped from the files without a word.
    const near = view.outline!.chapters[1]!;
    const tooClose = await t.bridge.handlers['transcript:edit']({
      jobId,
      revision: view.revision,
      edit: { kind: 'addChapter', atMs: near.startMs + 4000, title: 'Too close' },
    });
    expect(tooClose.ok).toBe(false);
    if (!tooClose.ok) {
      expect(tooClose.error.code).toBe('VALIDATION');
      expect(tooClose.error.message).toMatch(
        new RegExp(
          `^“Too close” would start 4\\.0 s after “${near.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” .*at least 10 s apart`,
        ),
      );
    }
    expect(value(await t.bridge.handlers['transcript:open']({ jobId })).revision).toBe(view.revision);
    expect(await read('chapters.json')).toBe(chaptersBefore);
  }, 60_000);
});
