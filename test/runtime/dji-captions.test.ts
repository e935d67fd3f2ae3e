// A DJI card in a watch folder, results beside the clips (walkthrough S3-10): the drone writes its
// telemetry as `DJI_0001.SRT` beside `DJI_0001.MP4`, which holds `DJI_0001.srt` wherever case is
// ignored. Sluice's captions are named `DJI_0001.en.srt`, the clip's name with the language, which
// players load by themselves, and the telemetry stays byte for byte as the drone wrote it.
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeMp4 } from '../helpers/media.js';
import { until } from '../ipc/helpers.js';

let dir: string;
let card: string;
let sandbox: Sandbox;
let rt: Runtime;

/** What a Mavic or Osmo writes per frame: a cue of camera settings and position. */
function telemetry(frames: number): string {
  return Array.from({ length: frames }, (_, i) => {
    const at = (ms: number) => `00:00:00,${String(ms).padStart(3, '0')}`;
    return [
      String(i + 1),
      `${at(i * 33)} --> ${at((i + 1) * 33)}`,
      `<font size="28">FrameCnt: ${i + 1}, DiffTime: 33ms`,
      `2026-12-07 10:15:0${i}.000`,
      '[iso: 100] [shutter: 1/640.0] [fnum: 2.8] [ev: 0] [ct: 5600] [color_md: default] [focal_len: 24.00] [latitude: 46.20451] [longitude: 6.14316] [rel_alt: 42.300 abs_alt: 418.912] </font>',
      '',
    ].join('\r\n');
  }).join('\r\n');
}

beforeEach(async () => {
  dir = await makeMediaDir('sluice-dji-');
  card = path.join(dir, 'DJI_CARD');
  await mkdir(path.join(card, 'DCIM', 'DJI_001'), { recursive: true });
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
    watchFolders: [WATCH_FOLDER.parse({ id: 'dji', path: card })],
  }));
});
afterEach(async () => {
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a DJI card, results beside the clips', () => {
  it('captions named so players load them; the telemetry .SRT untouched', async () => {
    const clips = path.join(card, 'DCIM', 'DJI_001');
    const mp4 = await makeMp4(dir, 'flight.mp4', 2);
    const flight = telemetry(9);
    // DJI_0001 with its telemetry; DJI_0002 recorded with subtitles off (no .SRT).
    await copyFile(mp4, path.join(clips, 'DJI_0001.MP4'));
    await writeFile(path.join(clips, 'DJI_0001.SRT'), flight);
    await copyFile(mp4, path.join(clips, 'DJI_0002.MP4'));
    const before = await stat(path.join(clips, 'DJI_0001.SRT'));
    await rt.start({ watch: true });

    const jobs = await until(() => {
      const all = rt.queue.jobs();
      return all.length === 2 && all.every((j) => j.state === 'completed') && all;
    }, 60_000);
    const srtOf = (name: string) =>
      jobs.find((j) => path.basename(j.source.path) === name)?.results.find((r) => r.format === 'srt');
    // Beside the telemetry: the clip's name and the language (mpv, IINA and VLC load it).
    expect(srtOf('DJI_0001.MP4')).toMatchObject({ path: path.join(clips, 'DJI_0001.en.srt'), collided: true });
    // No telemetry, no clash: the plain name.
    expect(srtOf('DJI_0002.MP4')?.path).toBe(path.join(clips, 'DJI_0002.srt'));
    expect(srtOf('DJI_0002.MP4')?.collided).toBeFalsy();
    expect((await readdir(clips)).sort()).toEqual([
      'DJI_0001.MP4',
      'DJI_0001.SRT',
      'DJI_0001.en.srt',
      'DJI_0001.json',
      'DJI_0001.txt',
      'DJI_0001.vtt',
      'DJI_0002.MP4',
      'DJI_0002.json',
      'DJI_0002.srt',
      'DJI_0002.txt',
      'DJI_0002.vtt',
    ]);
    expect(await readFile(path.join(clips, 'DJI_0001.SRT'), 'utf8')).toBe(flight);
    const after = await stat(path.join(clips, 'DJI_0001.SRT'));
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    const captions = await readFile(path.join(clips, 'DJI_0001.en.srt'), 'utf8');
    expect(captions).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /);
    expect(captions).not.toMatch(/FrameCnt/);

    // Written again (a re-flow beside, then the same layout again), the names hold.
    const dji1 = jobs.find((j) => path.basename(j.source.path) === 'DJI_0001.MP4')!;
    const again = await rt.results.writeAgain(dji1.id);
    expect(again.results.find((r) => r.format === 'srt')?.path).toBe(path.join(clips, 'DJI_0001.en.srt'));
    expect(await readFile(path.join(clips, 'DJI_0001.SRT'), 'utf8')).toBe(flight);
  }, 120_000);
});
