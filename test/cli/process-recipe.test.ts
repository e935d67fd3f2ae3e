// `sluice process talk.wav --recipe podcast --formats json,chapters,youtube,shownotes` against the
// sandbox, on a three-minute spoken talk with six topics: the three recipe files are written, the
// saved export holds the service's answers, every chapter starts on a word, and the YouTube lines
// say what chapters.json says.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { youtubeTime } from '../../main/engine/recipes/chapter-formats.js';
import { ANSWER_IDS } from '../../main/engine/recipes/recipes.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import type { ExportResult } from '../../main/service/types.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';
import { buildCli, runCli, startCli } from './run-cli.js';

const run = promisify(execFile);
const KEY = 'process-recipe-key';
let dir: string;
let sandbox: Sandbox;
let talk: string;

const TOPICS = [
  'Welcome to the show. Today we talk about rivers, bridges, bread, music, sleep and the sea.',
  'First, rivers. A river carries water from the hills to the sea, and it shapes every valley it runs through.',
  'Second, bridges. The oldest bridges were stones laid across a stream, and the newest hang from steel cables.',
  'Third, bread. Bread needs flour, water, salt and time; the time is what most bakers forget.',
  'Fourth, music. A song stays in the head because it repeats, and because it surprises us just once.',
  'Fifth, sleep. Adults need seven to nine hours, and a dark, cool room helps more than any pill.',
  'Finally, the sea. It covers most of the planet, and we have mapped less of its floor than of the moon.',
];

beforeAll(async () => {
  buildCli();
  dir = await makeMediaDir('sluice-process-recipe-');
  // Each topic spoken three times, slowly: about three minutes of speech.
  const text = TOPICS.map((t) => `${t} ${t} ${t}`).join(' ');
  talk = path.join(dir, 'talk.wav');
  await run('espeak-ng', ['-s', '140', '-w', talk, text]);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sluice process --recipe podcast', () => {
  it('writes chapters, YouTube chapters and show notes that agree with each other and with the words', async () => {
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      talk,
    ]);
    expect(Number(stdout)).toBeGreaterThan(150);
    const r = await runCli(
      [
        'process',
        talk,
        '--recipe',
        'podcast',
        '--formats',
        'json,chapters,youtube,shownotes',
        '--base-url',
        sandbox.url,
        '--state-dir',
        path.join(dir, 'state'),
      ],
      { SLUICE_API_KEY: KEY },
      undefined,
      120_000,
    );
    expect(r.code, r.out).toBe(0);
    const read = (ext: string): Promise<string> => readFile(path.join(dir, `talk.${ext}`), 'utf8');

    const saved = JSON.parse(await read('json')) as ExportResult;
    expect(Object.keys(saved.askAnything ?? {}).sort()).toEqual(
      [ANSWER_IDS.chapters, ANSWER_IDS.keywords, ANSWER_IDS.quotes].sort(),
    );
    expect(saved.summary?.content).toBeTruthy();
    const starts = new Set(saved.transcription!.words.map((w) => w.start));

    const chapters = JSON.parse(await read('chapters.json')) as {
      version: string;
      chapters: Array<{ startTime: number; title: string }>;
    };
    expect(chapters.version).toBe('1.2.0');
    expect(chapters.chapters.length).toBeGreaterThanOrEqual(3);
    expect(chapters.chapters[0]!.startTime).toBe(0);
    chapters.chapters.forEach((c, i) => {
      if (i === 0) return;
      expect(starts.has(Math.round(c.startTime * 1000)), `${c.title} at ${c.startTime}`).toBe(true);
      expect(c.startTime - chapters.chapters[i - 1]!.startTime).toBeGreaterThanOrEqual(10);
    });

    const youtube = (await read('youtube.txt')).trimEnd().split('\n');
    expect(youtube).toEqual(chapters.chapters.map((c) => `${youtubeTime(c.startTime * 1000)} ${c.title}`));
    expect(youtube[0]).toMatch(/^0:00 /);

    const notes = await read('shownotes.md');
    expect(notes).toContain('## Summary');
    for (const c of chapters.chapters) expect(notes).toContain(`\`${youtubeTime(c.startTime * 1000)}\` ${c.title}`);
    expect(notes).toContain('## Pull quotes');
    expect(notes).toContain('## Keywords');
  }, 180_000);

  it('refuses an unknown recipe before anything is sent', async () => {
    const r = await runCli(['process', talk, '--recipe', 'cooking', '--base-url', sandbox.url], {
      SLUICE_API_KEY: KEY,
    });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/--recipe.*must be one of podcast, interview, meeting or none \(got cooking\)/);
  });
});

describe('sluice watch --recipe podcast', () => {
  it('writes the recipe files for a file landing in the folder, with no one at the screen', async () => {
    const media = path.join(dir, 'inbox');
    await mkdir(media);
    const cli = startCli(
      [
        'watch',
        media,
        '--recipe',
        'podcast',
        '--formats',
        'json,chapters,youtube,shownotes',
        '--base-url',
        sandbox.url,
        '--state-dir',
        path.join(dir, 'state-watch'),
      ],
      { SLUICE_API_KEY: KEY },
    );
    try {
      await cli.waitFor(/Watching/);
      // Copied beside the folder, then moved in whole, as a finished export lands.
      await copyFile(talk, path.join(dir, 'landed.wav'));
      await rename(path.join(dir, 'landed.wav'), path.join(media, 'landed.wav'));
      await cli.waitFor(/completed .*landed\.wav/, 90_000);
    } finally {
      const r = await cli.stop();
      expect(r.code, r.out).toBe(0);
    }
    const chapters = JSON.parse(await readFile(path.join(media, 'landed.chapters.json'), 'utf8')) as {
      chapters: Array<{ startTime: number; title: string }>;
    };
    const youtube = (await readFile(path.join(media, 'landed.youtube.txt'), 'utf8')).trimEnd().split('\n');
    expect(youtube).toEqual(chapters.chapters.map((c) => `${youtubeTime(c.startTime * 1000)} ${c.title}`));
    expect(await readFile(path.join(media, 'landed.shownotes.md'), 'utf8')).toContain('## Chapters');
  }, 150_000);
});

describe('sluice process --glossary', () => {
  it('sends the file’s terms as the vocabulary, with the enhancement on', async () => {
    const media = path.join(dir, 'names');
    await mkdir(media);
    const tone = await makeToneWav(media, 'names.wav', 2);
    const terms = path.join(dir, 'terms.csv');
    await writeFile(terms, 'term,note\nMoveFlow,product\n"Zoë Ødegaard",host\n');
    const before = new Set((await allStreams(sandbox.url, KEY)).map((s) => s.streamId));
    const r = await runCli(
      ['process', tone, '--glossary', terms, '--base-url', sandbox.url, '--state-dir', path.join(dir, 'state-names')],
      { SLUICE_API_KEY: KEY },
      undefined,
      60_000,
    );
    expect(r.code, r.out).toBe(0);
    const stream = (await allStreams(sandbox.url, KEY)).find((s) => !before.has(s.streamId))!;
    const llm = stream.configuration.processors.find((p) => p.id === 'llm');
    expect(llm?.properties).toMatchObject({
      enhancedTranscription: { enabled: true, vocabulary: 'MoveFlow, Zoë Ødegaard' },
    });
    const missing = await runCli(['process', tone, '--glossary', path.join(dir, 'none.txt')], { SLUICE_API_KEY: KEY });
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/cannot read .*none\.txt \(ENOENT\): give a text or CSV file, one term per line/);
  }, 90_000);
});

describe('sluice process --param ask<N>Format / ask<N>Id: what the service refuses is refused before sending', () => {
  it('exits 2 naming the slot, and uploads nothing', async () => {
    const media = path.join(dir, 'refused');
    await mkdir(media);
    const tone = await makeToneWav(media, 'refused.wav', 1);
    const before = (await allStreams(sandbox.url, KEY)).length;
    const cases: Array<[string[], RegExp]> = [
      [
        ['ask0=Who spoke?', 'ask0Format={"type":"object"}'],
        /ask0Format: \/ is a free-form object: list its properties/,
      ],
      [
        [
          'ask0=Who spoke?',
          'ask0Format={"type":"object","properties":{"a":{"type":"strnig"}},"additionalProperties":false}',
        ],
        /ask0Format: is not a valid JSON Schema/,
      ],
      [['ask0=Who?', 'ask1=Why?', 'ask0Id=same', 'ask1Id=same'], /ask1Id: the answer key "same" is also question 1's/],
    ];
    for (const [params, message] of cases) {
      const r = await runCli(
        [
          'process',
          tone,
          ...params.flatMap((p) => ['--param', p]),
          '--base-url',
          sandbox.url,
          '--state-dir',
          path.join(dir, 'state-refused'),
        ],
        { SLUICE_API_KEY: KEY },
      );
      expect(r.code, r.out).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(await allStreams(sandbox.url, KEY)).toHaveLength(before);
    expect(await readdir(media)).toEqual(['refused.wav']);
  }, 90_000);
});
