// The editor formats as results: written beside the source under their names, anchored at the
// job's source timecode (or the folder's fixed start), and following the editor's corrections.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import Timecode from 'smpte-timecode';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResultOwnership, resultExtensions, writeResults } from '../../../main/adapters/results/write-results.js';
import { normalizeExport } from '../../../main/engine/captions/normalize.js';
import { createJob, type JobRecord } from '../../../main/engine/job.js';
import type { MediaFacts } from '../../../main/engine/media-facts.js';
import { OUTPUT, type OutputSettings } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);
const DTD = fileURLToPath(new URL('../../fixtures/fcpxml/FCPXMLv1_8.dtd', import.meta.url));
const EDITOR = ['fcpxml', 'itt', 'ttml', 'edl', 'premiere', 'avid'] as const;
const r23 = { num: 24000, den: 1001, dropFrame: false };
const MOV: MediaFacts = {
  durationMs: 12_000,
  hasAudio: true,
  videoRate: r23,
  start: {
    kind: 'frames',
    frames: new Timecode('01:00:00:00', [24000, 1001], false).frameCount,
    rate: r23,
    from: 'tmcd',
  },
};
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (n) => n === 'marker' || n === 'caption',
});

let dir: string;
let source: string;
let staged: string;

function jobFor(output: Partial<OutputSettings>, mediaFacts?: MediaFacts): JobRecord {
  const job = createJob(
    {
      id: 'job-1',
      source: { path: source, size: 1000, mtimeMs: 5 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.diarization,
      params: {},
      output: OUTPUT.parse(output),
    },
    0,
  );
  return mediaFacts ? { ...job, mediaFacts } : job;
}

/** The first EDL event's record-in and its marker name. */
function firstEdlEvent(text: string): { recIn: string; name: string } {
  const m = /^001 +\S+ +V +C +\S+ \S+ (\S+) \S+ *\n \|C:\S+ \|M:(.+) \|D:1$/m.exec(text);
  if (!m) throw new Error(`no event in\n${text}`);
  return { recIn: m[1]!, name: m[2]! };
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-editor-results-'));
  source = path.join(dir, 'interview.mov');
  await writeFile(source, 'media');
  staged = path.join(dir, 'staged-export.json');
  await copyFile(FIXTURE, staged);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('editor formats beside the source', () => {
  it('are written under their own names and anchored at the job’s source timecode', async () => {
    const results = await writeResults(jobFor({ formats: [...EDITOR] }, MOV), staged, new ResultOwnership(() => []));
    expect(results.map((r) => path.basename(r.path))).toEqual([
      'interview.json',
      'interview.fcpxml',
      'interview.itt',
      'interview.ttml',
      'interview.edl',
      'interview.premiere.xml',
      'interview.avid.txt',
    ]);
    const fcpxml = path.join(dir, 'interview.fcpxml');
    execFileSync('xmllint', ['--noout', '--dtdvalid', DTD, fcpxml], { stdio: 'pipe' });
    const asset = (xml.parse(await readFile(fcpxml, 'utf8')) as { fcpxml: { resources: { asset: { start: string } } } })
      .fcpxml.resources.asset;
    // 01:00:00:00 at 23.976 is frame 86,400: 86,400 × 1001/24000 s.
    expect(asset.start).toBe(`${86_400 * 1001}/24000s`);
    const edl = await readFile(path.join(dir, 'interview.edl'), 'utf8');
    const first = new Timecode(firstEdlEvent(edl).recIn, [24000, 1001], false).frameCount;
    // The first word starts at 420 ms: frame ⌊0.42 × 24000/1001⌋ = 10 after the start.
    expect(first).toBe(86_400 + 10);
    expect(firstEdlEvent(edl).name).toBe('Speaker 1');
    // The SRT stays in media time.
    await writeResults(jobFor({ formats: ['srt'] }, MOV), staged, new ResultOwnership(() => []));
    expect(await readFile(path.join(dir, 'interview.srt'), 'utf8')).toMatch(/^1\n00:00:00,420 --> /);
  });

  it('each editor format records the start and rate it was written at, for the job’s detail', async () => {
    const results = await writeResults(
      jobFor({ formats: ['srt', 'edl', 'fcpxml'] }, MOV),
      staged,
      new ResultOwnership(() => []),
    );
    const used = Object.fromEntries(results.map((r) => [r.format, r.timeline]));
    expect(used.edl).toEqual({ start: '01:00:00:00', rate: '23.976', origin: 'tmcd' });
    expect(used.fcpxml).toEqual(used.edl);
    // Media-time formats sit on no timeline.
    expect(used.srt).toBeUndefined();
    expect(used.json).toBeUndefined();
    const fixed = await writeResults(
      jobFor({ formats: ['edl'], timeline: { start: '00:59:50;00', defaultRate: '29.97df' } }),
      staged,
      new ResultOwnership(() => []),
    );
    expect(fixed.find((r) => r.format === 'edl')?.timeline).toEqual({
      start: '00:59:50;00',
      rate: '29.97 DF',
      origin: 'fixed',
    });
  });

  it('a job without media facts starts at the folder’s fixed timecode on its default rate', async () => {
    await writeResults(
      jobFor({ formats: ['edl', 'avid'], timeline: { start: '01:00:00;00', defaultRate: '29.97df' } }),
      staged,
      new ResultOwnership(() => []),
    );
    const edl = await readFile(path.join(dir, 'interview.edl'), 'utf8');
    expect(edl).toContain('FCM: DROP FRAME');
    const df = (tc: string): number => new Timecode(tc, [30000, 1001], true).frameCount;
    // 420 ms at 29.97 is frame 12.
    expect(df(firstEdlEvent(edl).recIn)).toBe(df('01:00:00;00') + 12);
    const avid = await readFile(path.join(dir, 'interview.avid.txt'), 'utf8');
    expect(df(/^(\d\d:\d\d:\d\d[:;]\d\d) /m.exec(avid)![1]!)).toBe(df('01:00:00;00') + 12);
  });

  it('follow the editor’s corrections: a renamed speaker and a changed word reach every one', async () => {
    const corrected = normalizeExport(await readFile(FIXTURE, 'utf8'));
    corrected.words = corrected.words.map((w) => ({
      ...w,
      ...(w.speaker === 'Speaker 1' ? { speaker: 'Front desk' } : {}),
      ...(w.text === 'morning,' ? { text: 'evening,' } : {}),
    }));
    await writeResults(jobFor({ formats: [...EDITOR] }, MOV), staged, new ResultOwnership(() => []), new Date(), {
      exportText: await readFile(FIXTURE, 'utf8'),
      transcript: corrected,
    });
    const read = (name: string): Promise<string> => readFile(path.join(dir, name), 'utf8');
    expect(firstEdlEvent(await read('interview.edl')).name).toBe('Front desk');
    const seq = xml.parse(await read('interview.premiere.xml')) as {
      xmeml: { sequence: { marker: Array<{ name: string; comment: string }> } };
    };
    expect(seq.xmeml.sequence.marker[0]).toMatchObject({
      name: 'Front desk',
      comment: expect.stringContaining('evening,'),
    });
    for (const name of ['interview.fcpxml', 'interview.itt', 'interview.ttml', 'interview.avid.txt']) {
      const text = await read(name);
      expect(text, name).toContain('Front desk: Good evening,');
      expect(text, name).not.toContain('morning,');
    }
  });

  it('captions carry the language the transcript is in: the caption role’s subrole and xml:lang', async () => {
    // Most words in Brazilian Portuguese, one in English: the words' language wins over nothing asked.
    const exported = JSON.parse(await readFile(FIXTURE, 'utf8')) as {
      transcription: { words: Array<{ language: string }> };
    };
    exported.transcription.words.forEach((w, i) => (w.language = i === 0 ? 'en' : 'pt_br'));
    await writeFile(staged, JSON.stringify(exported));
    await writeResults(jobFor({ formats: ['fcpxml', 'itt', 'ttml'] }, MOV), staged, new ResultOwnership(() => []));
    const read = async (name: string): Promise<Record<string, unknown>> =>
      xml.parse(await readFile(path.join(dir, name), 'utf8')) as Record<string, unknown>;
    type Clip = { caption: Array<{ role: string }> };
    const fcp = (await read('interview.fcpxml')) as {
      fcpxml: { library: { event: { project: { sequence: { spine: { 'asset-clip': Clip } } } } } };
    };
    const roles = new Set(fcp.fcpxml.library.event.project.sequence.spine['asset-clip'].caption.map((c) => c.role));
    expect([...roles]).toEqual(['iTT?captionFormat=ITT.pt-BR']);
    for (const name of ['interview.itt', 'interview.ttml']) {
      expect(((await read(name)) as { tt: Record<string, string> }).tt['xml:lang'], name).toBe('pt-BR');
    }
  });

  it('the watcher never takes these files for media', () => {
    expect(resultExtensions()).toEqual(
      expect.arrayContaining(['fcpxml', 'itt', 'ttml', 'edl', 'premiere.xml', 'avid.txt']),
    );
  });
});
