// Names as editors' footage carries them, in a watch folder with nothing but its path given: many
// scripts, emoji, a decomposed (macOS) name, a QuickTime file named .mp4, a 251-byte name and a
// drone clip beside its own telemetry .SRT. Each clip is processed once (counted at the sandbox),
// with the default formats (JSON, SRT, VTT, TXT) beside it under one stem, and no file that is not
// Sluice's is touched.
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeMp4, makeToneWav } from '../helpers/media.js';
import { until } from '../ipc/helpers.js';

let dir: string;
let folder: string;
let sandbox: Sandbox;
let rt: Runtime;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-names-');
  folder = path.join(dir, 'Harbour_Doc');
  await mkdir(folder);
  sandbox = await startSandbox({ apiKey: 'k', speedFactor: 0.01 });
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: 'k' },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
  });
  await rt.updateSettings((s) => ({
    ...s,
    queue: { ...s.queue, settleMs: 300, rescanIntervalMs: 3_600_000 },
    // A folder as a new one is made: its path, every other field the default.
    watchFolders: [WATCH_FOLDER.parse({ id: 'names', path: folder })],
  }));
  await rt.start({ watch: true });
});
afterEach(async () => {
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
const stemOf = (file: string): string => file.replace(/(\.[a-z]{2,3})?\.(json|srt|vtt|txt)$/, '');

describe('names that clash or run long on real file systems', () => {
  it('each clip once, its four default results under one stem; the drone’s own .SRT untouched', async () => {
    const src = path.join(dir, 'src');
    await mkdir(src);
    const mp4 = await makeMp4(src, 'clip.mp4', 2);
    const mov = await makeMp4(src, 'clip.mov', 2);
    const wav = await makeToneWav(src, 'tone.wav', 2);
    const long = `${'会议记录第二部分'.repeat(10)}${'x'.repeat(11)}`; // 251 bytes
    expect(bytes(long)).toBe(251);
    const telemetry = '1\n00:00:00,000 --> 00:00:00,033\n[iso: 100] [shutter: 1/50.0] [fnum: 280]\n';
    const files: Record<string, string> = {
      'Entretien – Hélène Dubois (prise 2).mov': mov,
      'Straßenumfrage Köln Ü-Wagen.mp4': mp4,
      '会议记录 第二部分.mp4': mov, // QuickTime inside, named .mp4
      'B-roll 🎬 Brücke ✨.mp4': mp4,
      ['Interview Jürgen Köln.mp4'.normalize('NFD')]: mp4,
      'مقابلة صوتية.wav': wav,
      'Интервью с мэром.wav': wav,
      [`${long}.mp4`]: mp4,
      'DJI_20261121_0001_D.MP4': mp4,
    };
    await writeFile(path.join(folder, 'DJI_20261121_0001_D.SRT'), telemetry);
    for (const [name, from] of Object.entries(files)) await copyFile(from, path.join(folder, name));
    const n = Object.keys(files).length;

    const jobs = await until(() => {
      const all = rt.queue.jobs();
      return all.length === n && all.every((j) => j.state === 'completed') && all;
    }, 60_000);
    const [summary] = await rt.folders.rescan();
    expect(summary).toMatchObject({ newFiles: 0, inQueue: 0, alreadyProcessed: n });
    expect(rt.queue.jobs()).toHaveLength(n);
    expect(sandbox.stats().upload).toBe(n);
    expect(jobs.map((j) => path.basename(j.source.path)).sort()).toEqual(Object.keys(files).sort());

    const onDisk = await readdir(folder);
    for (const job of jobs) {
      const name = path.basename(job.source.path);
      const results = job.results.map((r) => path.basename(r.path));
      expect(job.results.map((r) => r.format).sort(), name).toEqual(['json', 'srt', 'txt', 'vtt']);
      // One stem for all of a clip's results, and every name within the file system's 255 bytes.
      expect(new Set(results.map(stemOf)).size, name).toBe(1);
      for (const r of results) {
        expect(bytes(r), r).toBeLessThanOrEqual(255);
        expect(onDisk).toContain(r);
      }
      if (name === `${long}.mp4`) expect(stemOf(results[0]!)).toMatch(/~[0-9a-f]{8}$/);
      else expect(stemOf(results[0]!)).toBe(name.replace(/\.[^.]+$/, ''));
    }
    // The drone's telemetry holds DJI_…_D.srt whatever the case: Sluice's captions take the name
    // with the language, which players load by themselves (caption-names.ts).
    const dji = jobs.find((j) => path.basename(j.source.path).startsWith('DJI_'))!;
    expect(dji.results.find((r) => r.format === 'srt')?.path).toMatch(/DJI_20261121_0001_D\.[a-z]{2,3}\.srt$/);
    expect(await readFile(path.join(folder, 'DJI_20261121_0001_D.SRT'), 'utf8')).toBe(telemetry);
    expect(onDisk.filter((f) => f.toLowerCase() === 'dji_20261121_0001_d.srt')).toEqual(['DJI_20261121_0001_D.SRT']);
  }, 120_000);
});
