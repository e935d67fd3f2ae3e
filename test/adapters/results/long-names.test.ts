// Result names and the file system's limit of 255 bytes per name (bytes: multibyte names reach it
// with far fewer characters). A result whose name fits is written under that name, whatever its
// temporary file is called; a name that cannot fit is shortened, keeps its extension, stays unique,
// and the job says so.
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fitName, NAME_MAX, truncateUtf8 } from '../../../main/adapters/results/name-fit.js';
import { TEMP_SUFFIX, tempPathFor, writeFileAtomic } from '../../../main/adapters/results/result-writer.js';
import { ResultOwnership, writeResults } from '../../../main/adapters/results/write-results.js';
import { describeJob } from '../../../main/cli/progress.js';
import { createJob, type JobRecord } from '../../../main/engine/job.js';
import { OUTPUT, type OutputSettings } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

let dir: string;
let staged: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-names-'));
  staged = path.join(dir, '.staged-export.json');
  await copyFile(FIXTURE, staged);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function source(name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, 'media');
  return file;
}

function jobFor(sourcePath: string, output: Partial<OutputSettings>): JobRecord {
  return createJob(
    {
      id: '0123abcd-job',
      source: { path: sourcePath, size: 5, mtimeMs: 5 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.diarization,
      params: {},
      output: OUTPUT.parse(output),
    },
    0,
  );
}

const results = async (): Promise<string[]> =>
  (await readdir(dir)).filter((f) => !f.endsWith('.wav') && !f.startsWith('.staged')).sort();

describe('fitName', () => {
  it('counts bytes, cuts whole characters, keeps the suffix and marks the cut with a hash', () => {
    expect(fitName('short', '.json')).toEqual({ name: 'short.json', shortened: false });
    const stem = '語'.repeat(90); // 270 bytes, 90 characters
    const fit = fitName(stem, '.en.srt');
    expect(fit.shortened).toBe(true);
    expect(bytes(fit.name)).toBeLessThanOrEqual(NAME_MAX);
    expect(fit.name).toMatch(/^語+~[0-9a-f]{8}\.en\.srt$/);
    expect(fitName(stem, '.en.srt')).toEqual(fit);
    expect(fitName(`${stem}x`, '.en.srt').name).not.toBe(fit.name);
    expect(truncateUtf8('aé語🎧', 6)).toBe('aé語');
    expect(truncateUtf8('aé語🎧', 9)).toBe('aé語');
    expect(truncateUtf8('aé語🎧', 10)).toBe('aé語🎧');
  });

  it('a temporary name fits whenever its target does', () => {
    const target = path.join(dir, `${'é'.repeat(125)}.json`); // 255 bytes: the longest name there is
    const tmp = path.basename(tempPathFor(target, '0123abcd'));
    expect(bytes(tmp)).toBeLessThanOrEqual(NAME_MAX);
    expect(tmp.startsWith('.é')).toBe(true);
    expect(tmp.endsWith(`.0123abcd${TEMP_SUFFIX}`)).toBe(true);
    // Two targets that differ only at the end still get their own temporary files.
    const other = path.join(dir, `${'é'.repeat(125)}.jsox`);
    expect(tempPathFor(other, '0123abcd')).not.toBe(tempPathFor(target, '0123abcd'));
    expect(path.basename(tempPathFor(path.join(dir, 'a.json'), 'w'))).toBe(`.a.json.w${TEMP_SUFFIX}`);
  });
});

describe('writing results under long names', () => {
  it('a 255-byte result name of 2-byte characters is written under exactly that name', async () => {
    const stem = 'é'.repeat(125); // 250 bytes; + ".json" = 255 bytes
    const src = await source(`${stem}.wav`);
    const other = path.join(dir, `${stem}.data`);
    expect((await writeFileAtomic(other, '{}', '0123abcd')).size).toBe(2);
    await rm(other);
    const written = await writeResults(jobFor(src, { formats: ['json'] }), staged, new ResultOwnership(() => []));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ path: path.join(dir, `${stem}.json`) });
    expect(written[0]?.shortened).toBeUndefined();
    expect(await results()).toEqual([`${stem}.json`]);
  });

  it("one clip's results keep one shortened stem, whatever their formats (a 251-byte name)", async () => {
    const stem = `${'会议记录第二部分'.repeat(10)}${'x'.repeat(11)}`; // 240 + 11 = 251 bytes
    expect(bytes(stem)).toBe(251);
    const src = await source(`${stem}.mp4`);
    const written = await writeResults(
      jobFor(src, { formats: ['json', 'srt', 'vtt', 'txt', 'docx'], languageSuffix: 'en' }),
      staged,
      new ResultOwnership(() => []),
    );
    const stems = new Set(written.map((r) => path.basename(r.path).replace(/\.(en\.)?[a-z]+$/, '')));
    expect(written).toHaveLength(5);
    expect(stems.size).toBe(1);
    expect([...stems][0]).toMatch(/~[0-9a-f]{8}$/);
    for (const r of written) expect(bytes(path.basename(r.path))).toBeLessThanOrEqual(NAME_MAX);
    // Written again with another format: the same stem still.
    const more = await writeResults(jobFor(src, { formats: ['json', 'md'] }), staged, new ResultOwnership(() => []));
    expect(path.basename(more[0]!.path)).toBe(`${[...stems][0]}.json`);
  });

  it('a name past the limit is shortened: extension kept, unique, the same on every write, and said', async () => {
    // Sources of 255 bytes: their results (.json, .en.srt) cannot carry the whole name.
    const a = await source(`${'語'.repeat(83)}ab.wav`);
    const b = await source(`${'語'.repeat(83)}ac.wav`);
    const owned = new ResultOwnership(() => []);
    const output = { formats: ['json', 'srt'] as const, languageSuffix: 'en' };
    const first = await writeResults(jobFor(a, { ...output, formats: [...output.formats] }), staged, owned);
    const second = await writeResults(jobFor(b, { ...output, formats: [...output.formats] }), staged, owned);
    owned.record([...first, ...second]);
    const names = await results();
    expect(names).toHaveLength(4);
    for (const n of names) {
      expect(bytes(n)).toBeLessThanOrEqual(NAME_MAX);
      expect(n).toMatch(/^語+~[0-9a-f]{8}\.(json|en\.srt)$/);
    }
    expect(first.map((r) => r.shortened)).toEqual([true, true]);
    expect(new Set(names).size).toBe(4);
    expect(await readFile(first[0]!.path, 'utf8')).toBe(await readFile(FIXTURE, 'utf8'));
    // Written again (rewrite): the same shortened names, no new files.
    const again = await writeResults(jobFor(a, { ...output, formats: [...output.formats] }), staged, owned);
    expect(again.map((r) => r.path)).toEqual(first.map((r) => r.path));
    expect(await results()).toEqual(names);
    const done = { ...jobFor(a, {}), state: 'completed' as const, results: first };
    expect(describeJob(done)).toMatch(/~[0-9a-f]{8}\.json \(name too long: shortened\)/);
  });
});
