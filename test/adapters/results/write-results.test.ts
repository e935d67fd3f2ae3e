import { copyFile, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mammoth from 'mammoth';
import { parseSync, type NodeCue } from 'subtitle';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';
import { createJob, type JobRecord } from '../../../main/engine/job.js';
import { OUTPUT, RESULT_FORMATS, SETTINGS, type OutputSettings } from '../../../main/engine/settings.js';
import { startSandbox, type Sandbox } from '../../../main/sandbox/index.js';
import { makeMediaDir, makeSpeechWav } from '../../helpers/media.js';
import { exportJson, upload, waitFinished } from '../../sandbox/client.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);
const ALL = [...RESULT_FORMATS];

let dir: string;
let source: string;
let staged: string;

function jobFor(sourcePath: string, output: Partial<OutputSettings>, params: JobRecord['params'] = {}): JobRecord {
  return createJob(
    {
      id: 'job-1',
      source: { path: sourcePath, size: 1000, mtimeMs: 5 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.diarization,
      params,
      output: OUTPUT.parse(output),
    },
    0,
  );
}

const cueCount = (text: string): number => parseSync(text).filter((n): n is NodeCue => n.type === 'cue').length;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-formats-'));
  source = path.join(dir, 'call.mp4');
  await writeFile(source, 'media');
  staged = path.join(dir, 'staged-export.json');
  await copyFile(FIXTURE, staged);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('settings', () => {
  it('existing output settings still parse; the new option defaults off', () => {
    expect(OUTPUT.parse({ formats: ['json'], pattern: '{name}', languageSuffix: null })).toMatchObject({
      txtTimestamps: false,
    });
    expect(SETTINGS.parse({}).defaults.output.txtTimestamps).toBe(false);
    expect(OUTPUT.parse({ formats: ALL }).formats).toEqual([...RESULT_FORMATS]);
  });
});

describe('writeResults with every format', () => {
  it('writes each format beside the source; md is skipped (and not recorded) without intelligence', async () => {
    const results = await writeResults(jobFor(source, { formats: ALL }), staged, new ResultOwnership(() => []));
    expect(results.map((r) => [r.format, path.basename(r.path)])).toEqual([
      ['json', 'call.json'],
      ['srt', 'call.srt'],
      ['vtt', 'call.vtt'],
      ['txt', 'call.txt'],
      ['csv', 'call.csv'],
      ['docx', 'call.docx'],
      ['fcpxml', 'call.fcpxml'],
      ['itt', 'call.itt'],
      ['ttml', 'call.ttml'],
      ['edl', 'call.edl'],
      ['premiere', 'call.premiere.xml'],
      ['avid', 'call.avid.txt'],
    ]);
    expect((await readdir(dir)).sort()).toEqual(
      [
        'call.avid.txt',
        'call.edl',
        'call.fcpxml',
        'call.itt',
        'call.premiere.xml',
        'call.ttml',
        'call.csv',
        'call.docx',
        'call.json',
        'call.mp4',
        'call.srt',
        'call.txt',
        'call.vtt',
        'staged-export.json',
      ].sort(),
    );
    expect(await readFile(path.join(dir, 'call.json'), 'utf8')).toBe(await readFile(FIXTURE, 'utf8'));
    expect(cueCount(await readFile(path.join(dir, 'call.srt'), 'utf8'))).toBe(5);
  });

  it('a deleted .srt is written again on the next run even though the .json exists', async () => {
    const job = jobFor(source, { formats: ['json', 'srt'] });
    const owned = new ResultOwnership(() => []);
    const first = await writeResults(job, staged, owned);
    owned.record(first);
    const srt = path.join(dir, 'call.srt');
    const before = await readFile(srt, 'utf8');
    await unlink(srt);
    const second = await writeResults(job, staged, owned);
    expect(second.map((r) => [r.format, r.path, r.collided ?? false])).toEqual([
      ['json', path.join(dir, 'call.json'), false],
      ['srt', srt, false],
    ]);
    expect(await readFile(srt, 'utf8')).toBe(before);
  });

  it('languageSuffix: {name}.en.srt beside {name}.mp4, as players auto-load; JSON keeps the plain name', async () => {
    const results = await writeResults(
      jobFor(source, { formats: ['srt', 'vtt'], languageSuffix: 'en' }),
      staged,
      new ResultOwnership(() => []),
    );
    expect(results.map((r) => path.basename(r.path))).toEqual(['call.json', 'call.en.srt', 'call.en.vtt']);
  });

  it('never overwrites a subtitle file Sluice did not write: the fallback name is used', async () => {
    const theirs = path.join(dir, 'call.srt');
    await writeFile(theirs, 'hand-made subtitles');
    const results = await writeResults(
      jobFor(source, { formats: ['srt', 'txt'] }),
      staged,
      new ResultOwnership(() => []),
    );
    expect(await readFile(theirs, 'utf8')).toBe('hand-made subtitles');
    const srt = results.find((r) => r.format === 'srt');
    expect(srt).toMatchObject({ path: path.join(dir, 'call.mp4.srt'), collided: true });
    expect(results.find((r) => r.format === 'txt')?.path).toBe(path.join(dir, 'call.txt'));
  });

  it('txtTimestamps from the output settings reaches the .txt', async () => {
    await writeResults(
      jobFor(source, { formats: ['txt'], txtTimestamps: true }),
      staged,
      new ResultOwnership(() => []),
    );
    expect(await readFile(path.join(dir, 'call.txt'), 'utf8')).toMatch(/^\[00:00:00\] Speaker 1: Good morning,/);
  });

  it('an empty transcript keeps its JSON, marked as no speech, and writes no empty caption or text file', async () => {
    await writeFile(staged, JSON.stringify({ transcription: { text: '', words: [] } }));
    const results = await writeResults(jobFor(source, { formats: ALL }), staged, new ResultOwnership(() => []));
    expect(results.map((r) => [r.format, r.noSpeech])).toEqual([['json', true]]);
    expect((await readdir(dir)).sort()).toEqual(['call.json', 'call.mp4', 'staged-export.json']);
  });

  it('a transcript with words is not marked as no speech', async () => {
    const results = await writeResults(jobFor(source, { formats: ['srt'] }), staged, new ResultOwnership(() => []));
    expect(results.map((r) => [r.format, r.noSpeech])).toEqual([
      ['json', undefined],
      ['srt', undefined],
    ]);
  });
});

describe('integration: a real sandbox export through writeResults', () => {
  let sb: Sandbox;
  let media: string;
  beforeAll(async () => {
    sb = await startSandbox({ fixedProcessingMs: 60 });
    media = await makeMediaDir();
  });
  afterAll(async () => {
    await sb.close();
    await rm(media, { recursive: true, force: true });
  });

  it('diarized speech with summary, sentiment and a question → every format, parseable, md with the summary', async () => {
    const wav = await makeSpeechWav(
      media,
      'meeting.wav',
      'Good morning everyone. Thanks for joining the call today. Let us review the budget and the shipping plan. ' +
        'The release went out on Tuesday. Sales grew by twelve percent. We will meet again on Friday. ' +
        'A few users reported that the login screen is too slow, and the team is already working on a fix. ' +
        'Please send me the slides when you have a moment. Thanks everyone, talk to you soon.',
    );
    const params = { summary: 'true', sentimentAnalysis: 'true', ask0: 'What is discussed?' };
    const up = await upload(sb.url, wav, { template: TEMPLATE_IDS.diarization, params });
    expect(up.status).toBe(200);
    expect((await waitFinished(sb.url, up.body.streamId)).state).toBe('COMPLETED');
    const exported = await exportJson(sb.url, up.body.streamId);
    expect(exported.status).toBe(200);
    const kept = path.join(media, 'kept-export.json');
    await writeFile(kept, exported.text);

    const job = jobFor(wav, { formats: ALL }, { ask0: 'What is discussed?' });
    const results = await writeResults(job, kept, new ResultOwnership(() => []));
    expect(results.map((r) => path.basename(r.path))).toEqual(
      [
        ...['json', 'srt', 'vtt', 'txt', 'csv', 'md', 'docx', 'fcpxml', 'itt', 'ttml', 'edl'],
        ...['premiere.xml', 'avid.txt', 'shownotes.md'],
      ].map((f) => `meeting.${f}`),
    );
    expect(results[0]!.notes).toEqual([
      'No chapters came back for this file, so chapters, youtube, ffmetadata were not written.',
    ]);
    const docx = (await mammoth.extractRawText({ path: path.join(media, 'meeting.docx') })).value;
    expect(docx).toMatch(/^meeting\.wav\n+\[00:00:00\] Speaker 1: This transcript was produced by the Sluice sandbox/);
    expect(docx).toContain('Speaker 2: ');
    const read = (ext: string): Promise<string> => readFile(path.join(media, `meeting.${ext}`), 'utf8');

    const words = (exported.body as { transcription: { words: unknown[] } }).transcription.words;
    const srt = await read('srt');
    const vtt = await read('vtt');
    expect(cueCount(srt)).toBeGreaterThan(0);
    expect(cueCount(vtt)).toBe(cueCount(srt));
    const cues = parseSync(srt).filter((n): n is NodeCue => n.type === 'cue');
    cues.forEach((c, i) => {
      expect(c.data.end).toBeGreaterThan(c.data.start);
      if (i > 0) expect(c.data.start).toBeGreaterThanOrEqual(cues[i - 1]!.data.end);
    });
    // Every spoken word is in the subtitles, once.
    const subtitleWords = cues.flatMap((c) => c.data.text.replace(/Speaker \d+: /g, '').split(/\s+/));
    expect(subtitleWords).toHaveLength(words.length);
    expect(srt).toMatch(/^1\n[\d:,]+ --> [\d:,]+\nSpeaker 1: /);
    expect(vtt).toMatch(/^WEBVTT\n\n[\d:.]+ --> [\d:.]+\n<v Speaker 1>/);
    expect(await read('txt')).toMatch(/^Speaker 1: This transcript was produced by the Sluice sandbox/);
    expect((await read('csv')).split('\r\n')[0]).toBe('start,end,speaker,text');

    const md = await read('md');
    const summary = (exported.body as { summary: { content: string } }).summary.content;
    expect(md).toContain('# meeting.wav');
    expect(md).toContain(summary.trim());
    expect(md).toMatch(/## Sentiment\n\nOverall: \*\*(positive|neutral|negative)\*\*/);
    expect(md).toContain('### What is discussed?');
  });
});
