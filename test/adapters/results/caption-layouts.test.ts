// One transcript, several caption layouts: a folder asking for Broadcast and Vertical gets both
// (`{name}.srt` and `{name}.vertical.srt`), each laid out by its own preset, Vertical without
// speaker names; a layout that is the first one already is not written twice.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseSync, type NodeCue } from 'subtitle';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { createJob, type JobRecord } from '../../../main/engine/job.js';
import { OUTPUT, type OutputSettings } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);
let dir: string;
let source: string;
let staged: string;

function jobFor(output: Partial<OutputSettings>): JobRecord {
  return createJob(
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
}

const cues = (text: string): string[] =>
  parseSync(text)
    .filter((n): n is NodeCue => n.type === 'cue')
    .map((n) => n.data.text);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-layouts-'));
  source = path.join(dir, 'C0001.MP4');
  await writeFile(source, 'media');
  staged = path.join(dir, 'staged-export.json');
  await copyFile(FIXTURE, staged);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('several caption outputs from one folder', () => {
  it('writes a Broadcast .srt/.vtt and a Vertical .vertical.srt/.vertical.vtt, each to its layout', async () => {
    const job = jobFor({
      formats: ['json', 'srt', 'vtt'],
      captions: { preset: 'broadcast' } as OutputSettings['captions'],
      moreCaptions: ['vertical', 'broadcast'],
    });
    const results = await writeResults(job, staged, new ResultOwnership(() => []));
    expect(results.map((r) => [r.format, path.basename(r.path)])).toEqual([
      ['json', 'C0001.json'],
      ['srt', 'C0001.srt'],
      ['vtt', 'C0001.vtt'],
      ['srt', 'C0001.vertical.srt'],
      ['vtt', 'C0001.vertical.vtt'],
    ]);
    const broadcast = cues(await readFile(path.join(dir, 'C0001.srt'), 'utf8'));
    const vertical = cues(await readFile(path.join(dir, 'C0001.vertical.srt'), 'utf8'));
    expect(broadcast.some((c) => /^Speaker 1: /.test(c))).toBe(true);
    expect(broadcast.some((c) => c.includes('\n'))).toBe(true);
    for (const c of vertical) {
      expect(c).not.toMatch(/\n|Speaker \d/);
      if (/\s/.test(c)) expect(Array.from(c).length).toBeLessThanOrEqual(32);
    }
    expect(await readFile(path.join(dir, 'C0001.vertical.vtt'), 'utf8')).not.toMatch(/<v /);
    expect(vertical.length).toBeGreaterThan(broadcast.length);
  });

  it('puts the layout before a language suffix, and writes nothing more without SRT or VTT', async () => {
    const named = await writeResults(
      jobFor({ formats: ['json', 'srt'], languageSuffix: 'en', moreCaptions: ['vertical'] }),
      staged,
      new ResultOwnership(() => []),
    );
    expect(named.map((r) => path.basename(r.path))).toEqual(['C0001.json', 'C0001.en.srt', 'C0001.vertical.en.srt']);
    await rm(path.join(dir, 'C0001.json'));
    const none = await writeResults(
      jobFor({ formats: ['json', 'txt'], moreCaptions: ['vertical'] }),
      staged,
      new ResultOwnership(() => []),
    );
    expect(none.map((r) => path.basename(r.path))).toEqual(['C0001.json', 'C0001.txt']);
  });
});
