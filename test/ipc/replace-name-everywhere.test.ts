// A guest's name fixed once in the review, with Replace all, is fixed in everything published: the
// captions (SRT, VTT), the plain text, the Word document, the editor formats (FCPXML, TTML, the
// Premiere XML and EDL markers), the show notes' pull quotes and the chapters. A speaker's new name
// (another speaker's) is found by History's transcript search, accents or not. Real runtime and sandbox over HTTP.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { asciiText } from '../../main/engine/captions/editors/ascii.js';
import type { Bridge } from '../../main/ipc/handlers.js';
import { searchTokens } from '../../main/engine/transcript/search-text.js';
import { TEMPLATE_IDS } from '../../main/service/templates.js';
import { makeRepeatableToneWav } from '../helpers/media.js';
import { value } from '../helpers/result.js';
import { until, useBridgeEnv } from './helpers.js';

const t = useBridgeEnv({ mediaUrl: true, events: true });

type Edit = Parameters<Bridge['handlers']['transcript:edit']>[0]['edit'];

const NAME = 'Hélène Dubois';
const FORMATS = [
  ...['json', 'srt', 'vtt', 'txt', 'docx', 'fcpxml', 'ttml', 'premiere', 'edl'],
  ...['chapters', 'youtube', 'shownotes'],
] as const;

/** Whole words of a text, folded (what the review's Find compares). */
const has = (text: string, word: string): boolean => searchTokens(text).includes(searchTokens(word)[0] ?? '');

describe('a name fixed with Replace all', () => {
  it('reaches SRT, VTT, TXT, DOCX, the editor formats, the show notes quotes and the chapters', async () => {
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: {
        ...s.defaults,
        templateId: TEMPLATE_IDS.diarization,
        params: { ...s.defaults.params, speakersNumber: 2 },
        recipe: 'podcast',
        output: { ...s.defaults.output, formats: [...FORMATS], markers: ['chapters', 'quotes'] },
      },
    }));
    const media = path.join(t.env.dir, 'media');
    await mkdir(media, { recursive: true });
    const added = value(
      await t.bridge.handlers['queue:add']({ paths: [await makeRepeatableToneWav(media, 'episode.wav', 200)] }),
    );
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);
    const read = (ext: string): Promise<string> => readFile(path.join(media, `episode.${ext}`), 'utf8');

    let view = value(await t.bridge.handlers['transcript:open']({ jobId }));
    const outline = view.outline!;
    // The misspelt name: a word the service wrote in a chapter title and in a pull quote, as the
    // recipe quotes the transcript. Every time it is said is replaced, as Find's Replace all does.
    const words = view.words.map((w) => w.text);
    const wrong = [...new Set(words)].find(
      (w) =>
        /^\p{L}{4,}$/u.test(w) &&
        outline.chapters.some((c) => has(c.title, w)) &&
        outline.quotes.some((q) => has(q.text, w)),
    );
    expect(wrong, `a word in a title and a quote of ${JSON.stringify(outline)}`).toBeDefined();
    // (Said at the start of a sentence or before a comma too: the punctuation around it stays.)
    const replacements = words.flatMap((w, i) =>
      searchTokens(w).join(' ') === searchTokens(wrong!).join(' ')
        ? [{ from: i, to: i + 1, text: w.replace(new RegExp(wrong!, 'i'), NAME) }]
        : [],
    );
    expect(replacements.length).toBeGreaterThan(0);

    const change = async (edit: Edit): Promise<void> => {
      view = value(await t.bridge.handlers['transcript:edit']({ jobId, revision: view.revision, edit }));
      await until(() =>
        t.events.find(
          (e) => e.name === 'transcript:changed' && e.payload.jobId === jobId && e.payload.revision === view.revision,
        ),
      );
    };
    await change({ kind: 'replaceMany', replacements });

    const said = replacements.length;
    const count = (text: string): number => text.split(NAME).length - 1;
    for (const ext of ['srt', 'vtt', 'txt', 'fcpxml', 'ttml']) {
      const text = await read(ext);
      expect(count(text), ext).toBeGreaterThanOrEqual(said);
      expect(has(text, wrong!), ext).toBe(false);
    }
    const docx = (await mammoth.extractRawText({ path: path.join(media, 'episode.docx') })).value;
    expect(count(docx)).toBeGreaterThanOrEqual(said);
    expect(has(docx, wrong!)).toBe(false);

    // The review's panel, and every published text of the chapters and quotes.
    const titled = outline.chapters.filter((c) => has(c.title, wrong!)).length;
    const quoted = outline.quotes.filter((q) => has(q.text, wrong!)).length;
    expect(view.outline!.chapters.filter((c) => c.title.includes(NAME))).toHaveLength(titled);
    expect(view.outline!.quotes.filter((q) => q.text.includes(NAME))).toHaveLength(quoted);
    expect([...view.outline!.chapters.map((c) => c.title), ...view.outline!.quotes.map((q) => q.text)]).not.toContain(
      wrong,
    );
    const chapters = (JSON.parse(await read('chapters.json')) as { chapters: Array<{ title: string }> }).chapters;
    expect(chapters.filter((c) => c.title.includes(NAME))).toHaveLength(titled);
    expect(chapters.some((c) => has(c.title, wrong!))).toBe(false);
    const notes = await read('shownotes.md');
    const quotes = notes.slice(
      notes.indexOf('## Pull quotes'),
      notes.indexOf('\n## ', notes.indexOf('## Pull quotes') + 1),
    );
    expect(quotes.split('\n').filter((l) => l.startsWith('> ') && l.includes(NAME))).toHaveLength(quoted);
    expect(has(quotes.replaceAll(NAME, ''), wrong!)).toBe(false);
    const chapterList = notes.slice(notes.indexOf('## Chapters'), notes.indexOf('## Pull quotes'));
    expect(chapterList.split(NAME).length - 1).toBe(titled);
    // The chapters and quotes are the markers of the Premiere XML and the EDL (in ASCII there, as
    // Resolve reads it), and of the FCPXML beside its captions (chapter markers, a marker per quote).
    for (const [ext, name] of [
      ['premiere.xml', NAME],
      ['edl', asciiText(NAME)],
    ] as const) {
      const text = await read(ext);
      expect(text.split(name).length - 1, ext).toBeGreaterThanOrEqual(titled + quoted);
      expect(has(text.replaceAll(name, ''), wrong!), ext).toBe(false);
    }
    expect(count(await read('fcpxml'))).toBeGreaterThanOrEqual(said + titled + quoted);
    // The transcript JSON: its text, and its words (the name two words where one was said).
    const json = JSON.parse(await read('json')) as { transcription: { text: string; words: Array<{ word: string }> } };
    expect(count(json.transcription.text)).toBe(said);
    expect(has(json.transcription.text, wrong!)).toBe(false);
    expect(count(json.transcription.words.map((w) => w.word).join(''))).toBe(said);
    if (chapters.length >= 3) expect((await read('youtube.txt')).split(NAME).length - 1).toBe(titled);
  }, 90_000);
});

describe('a renamed speaker', () => {
  it("is found by History's transcript search, with or without accents, playing from where they speak", async () => {
    await t.env.rt.updateSettings((s) => ({
      ...s,
      defaults: {
        ...s.defaults,
        templateId: TEMPLATE_IDS.diarization,
        params: { ...s.defaults.params, speakersNumber: 2 },
        output: { ...s.defaults.output, formats: ['json', 'srt'] },
      },
    }));
    const media = path.join(t.env.dir, 'media');
    await mkdir(media, { recursive: true });
    const added = value(
      await t.bridge.handlers['queue:add']({ paths: [await makeRepeatableToneWav(media, 'C0001.wav', 60)] }),
    );
    const jobId = added[0]?.outcome === 'added' ? added[0].jobId : '';
    await until(() => t.env.rt.queue.job(jobId)?.state === 'completed', 30_000);
    let view = value(await t.bridge.handlers['transcript:open']({ jobId }));
    const speaker = view.speakers[1] ?? view.speakers[0]!;
    const search = async (q: string) =>
      value(await t.bridge.handlers['history:list']({ search: q, includeExternal: false })).entries.find(
        (e) => e.jobId === jobId,
      );
    // The job is searchable (its words are in), and the name is not yet anywhere in it.
    const firstWord = view.words[0]!.text;
    await eventually(async () => (await search(firstWord))?.match);
    expect(await search('dubois')).toBeUndefined();

    view = value(
      await t.bridge.handlers['transcript:edit']({
        jobId,
        revision: view.revision,
        edit: { kind: 'renameSpeaker', speaker: speaker.id, name: 'Hélène Dubois' },
      }),
    );
    for (const q of ['hélène dubois', 'helene', 'DUBOIS Hélène']) {
      const found = await eventually(async () => (await search(q))?.match);
      expect(found.text, q).toBe('Hélène Dubois');
      expect(found.atMs, q).toBe(view.words.find((w) => w.speaker === speaker.id)?.start);
    }
    // Undone, the name is no longer found.
    await t.bridge.handlers['transcript:undo']({ jobId });
    await eventually(async () => (await search('dubois')) === undefined);
  }, 60_000);
});

/** Polls `f` until it answers something (the index follows the change in the background). */
async function eventually<T>(f: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
