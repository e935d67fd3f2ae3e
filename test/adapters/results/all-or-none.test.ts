// A job's formats are delivered all or none: every file goes to a temporary file first and only
// when all are ready are they renamed into place; a rename that fails part-way puts back what the
// write had already replaced. Real failures: a name held by a folder, a disk that fills up part-way
// (a small tmpfs, mounted when running as root).
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomic } from '../../../main/adapters/results/result-writer.js';
import { writeResults } from '../../../main/adapters/results/write-results.js';
import { createJob, type JobRecord } from '../../../main/engine/job.js';
import { OUTPUT } from '../../../main/engine/settings.js';
import { TEMPLATE_IDS } from '../../../main/service/templates.js';

const FIXTURE = new URL('../../fixtures/captions/two-speakers.json', import.meta.url);

let dir: string;
let staged: string;
let src: string;
let mounted: string | undefined;

const canMount = ((): boolean => {
  if (process.getuid?.() !== 0) return false;
  const probe = path.join(tmpdir(), `sluice-mount-probe-${process.pid}`);
  execFileSync('mkdir', ['-p', probe]);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    execFileSync('rmdir', [probe]);
  }
})();

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-all-or-none-'));
  staged = path.join(dir, '.staged-export.json');
  await copyFile(FIXTURE, staged);
  src = path.join(dir, 'call.mp4');
  await writeFile(src, 'media');
});
afterEach(async () => {
  if (mounted) execFileSync('umount', ['-l', mounted], { stdio: 'ignore' });
  mounted = undefined;
  await rm(dir, { recursive: true, force: true });
});

function job(): JobRecord {
  return createJob(
    {
      id: 'abcdef01-job',
      source: { path: src, size: 5, mtimeMs: 5 },
      origin: { kind: 'manual' },
      seq: 1,
      templateId: TEMPLATE_IDS.diarization,
      params: {},
      output: OUTPUT.parse({ formats: ['json', 'srt', 'txt'] }),
    },
    0,
  );
}

const listing = async (): Promise<string[]> => (await readdir(dir)).filter((f) => !f.startsWith('.staged')).sort();

describe('a job’s formats are written all or none', () => {
  it('one format with no name to go to: nothing is written, not even the JSON', async () => {
    // Both the usual name and the fallback of the .srt are folders (not Sluice's).
    await mkdir(path.join(dir, 'call.srt'));
    await mkdir(path.join(dir, 'call.mp4.srt'));
    await expect(writeResults(job(), staged, { isOurs: () => false })).rejects.toThrow(/belong to other files/);
    expect(await listing()).toEqual(['call.mp4', 'call.mp4.srt', 'call.srt']);
  });

  it('a rename failing part-way puts back the file the JSON replaced and removes the new ones', async () => {
    // The JSON of an earlier write is there (Sluice's), and the .srt's name is held by a folder
    // that the history wrongly counts as Sluice's: its rename fails after the JSON's succeeded.
    const json = path.join(dir, 'call.json');
    await writeFile(json, '{"earlier":true}');
    const srtDir = path.join(dir, 'call.srt');
    await mkdir(srtDir);
    await writeFile(path.join(srtDir, 'inside'), 'x');
    const owned = { isOurs: (p: string) => p === json || p === srtDir };
    await expect(writeResults(job(), staged, owned)).rejects.toThrow(/call\.srt/);
    expect(await readFile(json, 'utf8')).toBe('{"earlier":true}');
    expect(await listing()).toEqual(['call.json', 'call.mp4', 'call.srt']);
  });

  it('without an earlier file, what was renamed into place is removed', async () => {
    const a = path.join(dir, 'a.json');
    const blocked = path.join(dir, 'b.srt');
    await mkdir(blocked);
    await writeFile(path.join(blocked, 'inside'), 'x');
    await expect(
      writeFilesAtomic(
        [
          { target: a, data: 'A' },
          { target: blocked, data: 'B' },
        ],
        'abcdef01',
      ),
    ).rejects.toThrow(/b\.srt/);
    expect(await listing()).toEqual(['b.srt', 'call.mp4']);
  });

  it.skipIf(!canMount)('a disk that fills up after the JSON: no JSON left behind, nothing temporary', async () => {
    const media = path.join(dir, 'small');
    await mkdir(media);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', media]);
    mounted = media;
    src = path.join(media, 'call.mp4');
    await writeFile(src, 'media');
    // Leave room for the JSON (6.6 kB: two pages) and not one byte more.
    const json = (await stat(staged)).size;
    const free = Math.ceil(json / 4096) * 4096;
    await writeFile(path.join(media, 'filler'), Buffer.alloc(256 * 1024 - 4096 - free)).catch(() => undefined);
    await expect(writeResults(job(), staged, { isOurs: () => false })).rejects.toThrow(/full/);
    expect((await readdir(media)).sort()).toEqual(['call.mp4', 'filler']);
  });

  it('all ready: every file in place, nothing temporary left', async () => {
    const written = await writeResults(job(), staged, { isOurs: () => false });
    expect(written.map((r) => path.basename(r.path))).toEqual(['call.json', 'call.srt', 'call.txt']);
    expect(await listing()).toEqual(['call.json', 'call.mp4', 'call.srt', 'call.txt']);
  });
});
