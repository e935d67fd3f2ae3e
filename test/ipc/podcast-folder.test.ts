// The hands-off promise of the Podcast recipe: a watch folder saved in Settings with the recipe and
// the chapter formats, the app running with no one at the screen, and two recordings landing in it.
// Each gets chapters.json, youtube.txt and show notes beside it, from the service's askAnything
// answers kept in the saved export, every chapter on a word's start and YouTube agreeing with the
// chapters. Over HTTP against a sandbox of its own.
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { youtubeTime } from '../../main/engine/recipes/chapter-formats.js';
import { ANSWER_IDS } from '../../main/engine/recipes/recipes.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { SANDBOX } from '../../main/service/policy.js';
import type { ExportResult } from '../../main/service/types.js';
import { makeRepeatableToneWav } from '../helpers/media.js';
import { closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { until } from './helpers.js';

let sb: Sandbox;
let dir: string;

beforeEach(async () => {
  sb = await startSandbox({ fixedProcessingMs: 60 });
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-podcast-folder-'));
});
afterEach(async () => {
  await closeRuntimes();
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a watch folder with the Podcast recipe', () => {
  it('writes the chapter files for every recording landing in it, with no one at the screen', async () => {
    const watched = path.join(dir, 'episodes');
    // Made before the app starts, in a folder of their own, then moved in whole as a finished copy lands.
    // Repeatable bytes: the simulated answers are seeded by the content, so the chapters asked for
    // are the same on every run (with dithered tones, a run could get three chapters of which two
    // open with the same words and merge, leaving two).
    const staging = await mkdtemp(path.join(dir, 'staging-'));
    const made = [
      await makeRepeatableToneWav(staging, 'ep1.wav', 200),
      await makeRepeatableToneWav(staging, 'ep2.wav', 240),
    ];
    const rt = await openRuntime({
      stateDir: path.join(dir, 'state'),
      sandbox: { url: sb.url, apiKey: SANDBOX.apiKey },
      start: false,
    });
    await rt.updateSettings((s) => ({
      ...s,
      queue: { ...s.queue, settleMs: 200 },
      watchFolders: [
        {
          id: 'episodes',
          path: watched,
          enabled: true,
          templateId: s.defaults.templateId,
          params: {},
          recipe: 'podcast',
          include: [],
          exclude: [],
          recursive: true,
          output: { ...s.defaults.output, formats: ['json', 'chapters', 'youtube', 'shownotes'] },
          postAction: { kind: 'none' },
        },
      ],
    }));
    await mkdir(watched);
    await rt.start({ watch: true });
    for (const f of made) await rename(f, path.join(watched, path.basename(f)));
    await until(() => rt.queue.jobs().filter((j) => j.state === 'completed').length === 2, 60_000);

    for (const name of ['ep1', 'ep2']) {
      const job = rt.queue.jobs().find((j) => j.source.path.endsWith(`${name}.wav`))!;
      expect(job.origin).toEqual({ kind: 'watch', folderId: 'episodes' });
      const read = (ext: string): Promise<string> => readFile(path.join(watched, `${name}.${ext}`), 'utf8');
      const saved = JSON.parse(await read('json')) as ExportResult;
      expect(Object.keys(saved.askAnything ?? {}).sort()).toEqual(
        [ANSWER_IDS.chapters, ANSWER_IDS.keywords, ANSWER_IDS.quotes].sort(),
      );
      const starts = new Set(saved.transcription!.words.map((w) => w.start));
      const { version, chapters } = JSON.parse(await read('chapters.json')) as {
        version: string;
        chapters: Array<{ startTime: number; title: string }>;
      };
      expect(version).toBe('1.2.0');
      expect(chapters.length).toBeGreaterThanOrEqual(3);
      // Every chapter written is one the service gave, in its order.
      const asked = (
        JSON.parse(saved.askAnything![ANSWER_IDS.chapters]!.content) as { chapters: Array<{ title: string }> }
      ).chapters.map((c) => c.title);
      let at = 0;
      for (const c of chapters) {
        at = asked.indexOf(c.title, at) + 1;
        expect(at, c.title).toBeGreaterThan(0);
      }
      expect(chapters[0]!.startTime).toBe(0);
      for (const c of chapters.slice(1)) expect(starts.has(Math.round(c.startTime * 1000)), c.title).toBe(true);
      const youtube = (await read('youtube.txt')).trimEnd().split('\n');
      expect(youtube).toEqual(chapters.map((c) => `${youtubeTime(c.startTime * 1000)} ${c.title}`));
      const notes = await read('shownotes.md');
      for (const part of ['## Summary', '## Chapters', '## Pull quotes', '## Keywords']) expect(notes).toContain(part);
    }
  }, 90_000);
});
