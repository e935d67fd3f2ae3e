// Camera cards and recorders copied into a watch folder, as generated layouts: each take is
// processed once (counted at the sandbox), and each proxy or single input skipped says which file won.
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CARD_RULE_LIST } from '../../preload/contract.js';
import { CARD_RULES } from '../../main/engine/card-rules.js';
import type { EngineEvent } from '../../main/engine/events.js';
import { toFolderStatusViews } from '../../main/ipc/views.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeMp4, makeToneWav } from '../helpers/media.js';
import { until } from '../ipc/helpers.js';

let dir: string;
let folder: string;
let sandbox: Sandbox;
let rt: Runtime;
const messages: string[] = [];

async function open(cardRules?: 'mix' | 'tracks'): Promise<void> {
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: 'k' },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
  });
  rt.on((e: EngineEvent) => {
    if (e.type === 'folder:status' && e.message) messages.push(e.message);
  });
  await rt.updateSettings((s) => ({
    ...s,
    queue: { ...s.queue, settleMs: 300, rescanIntervalMs: 3_600_000 },
    watchFolders: [
      {
        id: 'cards',
        path: folder,
        enabled: true,
        templateId: s.defaults.templateId,
        params: {},
        include: [],
        exclude: [],
        recursive: true,
        output: s.defaults.output,
        postAction: { kind: 'none' },
        ...(cardRules ? { cardRules } : {}),
      },
    ],
  }));
  await rt.start({ watch: true });
}

beforeEach(async () => {
  dir = await makeMediaDir('sluice-cards-');
  folder = path.join(dir, 'Harbour_Doc');
  await mkdir(folder);
  sandbox = await startSandbox({ apiKey: 'k', speedFactor: 0.01 });
  messages.length = 0;
});
afterEach(async () => {
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** Writes `files` (relative path → source file or text) under the folder. */
async function lay(files: Record<string, string>): Promise<void> {
  for (const [rel, src] of Object.entries(files)) {
    const to = path.join(folder, rel);
    await mkdir(path.dirname(to), { recursive: true });
    if (src.startsWith('/')) await copyFile(src, to);
    else await writeFile(to, src);
  }
}

/** How many files were said to be skipped (each once, however often it was looked at). */
const skipsSaid = (): number =>
  new Set(messages.filter((m) => / is skipped: /.test(m)).map((m) => m.split(' ')[0])).size;

const settledTakes = async (n: number) =>
  until(() => {
    const jobs = rt.queue.jobs();
    return jobs.length >= n && jobs.every((j) => j.state === 'completed') && jobs;
  }, 40_000);

describe('camera cards in a watch folder', () => {
  it('Sony, Canon, DJI, GoPro, Zoom, iPhone, Blackmagic: each take once, proxies and inputs skipped', async () => {
    await open();
    const media = path.join(dir, 'src');
    await mkdir(media);
    const clip = (name: string, s: number) => makeMp4(media, name, s);
    await lay({
      'SONY_FX6/PRIVATE/M4ROOT/CLIP/C0001.MP4': await clip('sony.mp4', 2),
      'SONY_FX6/PRIVATE/M4ROOT/CLIP/C0001M01.XML': '<NonRealTimeMeta/>',
      'SONY_FX6/PRIVATE/M4ROOT/SUB/C0001S03.MP4': await clip('sony-proxy.mp4', 3),
      'SONY_FX6/PRIVATE/M4ROOT/THMBNL/C0001T01.JPG': 'jpeg',
      'CANON_R6/DCIM/100CANON/MVI_0042.MOV': await clip('canon.mov', 4),
      'CANON_R6/DCIM/100CANON/MVI_0042.THM': 'thumb',
      'DJI/DCIM/DJI_001/DJI_20261121_0001_D.MP4': await clip('dji.mp4', 5),
      'DJI/DCIM/DJI_001/DJI_20261121_0001_D.LRF': await clip('dji-proxy.mp4', 6),
      'DJI/DCIM/DJI_001/DJI_20261121_0001_D.SRT': '1\n00:00:00,000 --> 00:00:01,000\nF/2.8\n',
      'GOPRO/DCIM/100GOPRO/GX010234.MP4': await clip('gopro.mp4', 7),
      'GOPRO/DCIM/100GOPRO/GL010234.LRV': await clip('gopro-proxy.mp4', 8),
      'ZOOM_H6/ZOOM0007/ZOOM0007_LR.WAV': await makeToneWav(media, 'lr.wav', 2, 2),
      'ZOOM_H6/ZOOM0007/ZOOM0007_Tr1.WAV': await makeToneWav(media, 'tr1.wav', 3),
      'ZOOM_H6/ZOOM0007/ZOOM0007_Tr2.WAV': await makeToneWav(media, 'tr2.wav', 4),
      'ZOOM_H6/ZOOM0007/ZOOM0007.hprj': 'project',
      'IPHONE/DCIM/100APPLE/IMG_4821.MOV': await clip('iphone.mov', 9),
      'IPHONE/DCIM/100APPLE/IMG_4821.AAE': '<?xml version="1.0"?><plist/>',
      'BMPCC/A001_11211423/A001_11211423_C002.mov': await clip('bm.mov', 10),
      'BMPCC/A001_11211423/Proxy/A001_11211423_C002.mov': await clip('bm-proxy.mov', 11),
      // An editing application's cache kept in the project beside the cards.
      'Resolve/CacheClip/1f2e3d4c.mov': path.join(media, 'bm-proxy.mov'),
    });
    const jobs = await settledTakes(7);
    // Every media file laid has had its decision once the five skips are said too (the .LRV,
    // .LRF and other side files are not media the folder looks at), so no late job can come.
    await expect.poll(skipsSaid, { timeout: 30_000 }).toBe(5);
    const names = rt.queue
      .jobs()
      .map((j) => path.basename(j.source.path))
      .sort();
    expect(names).toEqual([
      'A001_11211423_C002.mov',
      'C0001.MP4',
      'DJI_20261121_0001_D.MP4',
      'GX010234.MP4',
      'IMG_4821.MOV',
      'MVI_0042.MOV',
      'ZOOM0007_LR.WAV',
    ]);
    expect(jobs.every((j) => !j.results.some((r) => r.path.includes(`${path.sep}SUB${path.sep}`)))).toBe(true);
    expect(sandbox.stats().upload).toBe(7);
    // The folder editor's list: each skipped file with its rule and the file that won.
    const view = toFolderStatusViews(rt.settings.get(), rt.folders.statuses()).find((f) => f.folderId === 'cards');
    const sony = path.join('SONY_FX6', 'PRIVATE', 'M4ROOT');
    expect(view?.cardSkips).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: path.join(sony, 'SUB', 'C0001S03.MP4'),
          rule: 'sony-proxy',
          winner: path.join(sony, 'CLIP', 'C0001.MP4'),
        }),
        expect.objectContaining({ path: path.join('ZOOM_H6', 'ZOOM0007', 'ZOOM0007_Tr2.WAV'), rule: 'zoom-track' }),
        expect.objectContaining({
          rule: 'proxy-folder',
          winner: path.join('BMPCC', 'A001_11211423', 'A001_11211423_C002.mov'),
        }),
        expect.objectContaining({
          path: path.join('Resolve', 'CacheClip', '1f2e3d4c.mov'),
          rule: 'nle-cache',
          winner: null,
        }),
      ]),
    );
    // Every rule the engine applies is one the editor can list.
    expect(CARD_RULE_LIST.map((r) => r.id)).toEqual(CARD_RULES.map((r) => r.id));
    // Each skip is said where the folder's skipped files are, naming the file that won.
    expect(messages).toEqual(
      expect.arrayContaining([
        'C0001S03.MP4 is skipped: it is a Sony proxy; PRIVATE/M4ROOT/CLIP/C0001.MP4 is processed instead.'.replace(
          'PRIVATE',
          path.join('SONY_FX6', 'PRIVATE'),
        ),
        expect.stringMatching(/^ZOOM0007_Tr1\.WAV is skipped: .*ZOOM0007_LR\.WAV is processed instead\.$/),
        expect.stringMatching(/^ZOOM0007_Tr2\.WAV is skipped/),
        expect.stringMatching(
          /^A001_11211423_C002\.mov is skipped: it is a proxy .*A001_11211423_C002\.mov is processed instead\.$/,
        ),
        "1f2e3d4c.mov is skipped: it is an editing application's cache, a copy of footage processed from its original.",
      ]),
    );
  }, 90_000);

  it('a folder that chose the tracks processes each input and skips the mix', async () => {
    await open('tracks');
    const media = path.join(dir, 'src');
    await mkdir(media);
    await lay({
      'ZOOM0009/ZOOM0009_LR.WAV': await makeToneWav(media, 'lr.wav', 2, 2),
      'ZOOM0009/ZOOM0009_Tr1.WAV': await makeToneWav(media, 'tr1.wav', 3),
      'ZOOM0009/ZOOM0009_Tr2.WAV': await makeToneWav(media, 'tr2.wav', 4),
    });
    await settledTakes(2);
    // The third file's decision, said: nothing more can be taken.
    await expect.poll(skipsSaid, { timeout: 30_000 }).toBe(1);
    expect(
      rt.queue
        .jobs()
        .map((j) => path.basename(j.source.path))
        .sort(),
    ).toEqual(['ZOOM0009_Tr1.WAV', 'ZOOM0009_Tr2.WAV']);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ZOOM0009_LR\.WAV is skipped: .*ZOOM0009_Tr1\.WAV is processed instead/),
      ]),
    );
  }, 60_000);

  it('a card folder added by hand skips its proxies too, saying which file won; a proxy chosen by name is taken', async () => {
    await open();
    const media = path.join(dir, 'src');
    await mkdir(media);
    const byHand = path.join(dir, 'Dropped', 'SONY_FX6');
    for (const [rel, src] of Object.entries({
      'PRIVATE/M4ROOT/CLIP/C0001.MP4': await makeMp4(media, 'sony.mp4', 2),
      'PRIVATE/M4ROOT/SUB/C0001S03.MP4': await makeMp4(media, 'sony-proxy.mp4', 3),
    })) {
      await mkdir(path.dirname(path.join(byHand, rel)), { recursive: true });
      await copyFile(src, path.join(byHand, rel));
    }
    const outcomes = await rt.queue.addPaths([byHand]);
    expect(outcomes.filter((o) => o.outcome === 'added').map((o) => path.basename(o.path))).toEqual(['C0001.MP4']);
    expect(outcomes).toContainEqual({
      card: { rule: 'sony-proxy', winner: path.join('PRIVATE', 'M4ROOT', 'CLIP', 'C0001.MP4') },
      path: path.join(byHand, 'PRIVATE', 'M4ROOT', 'SUB', 'C0001S03.MP4'),
      outcome: 'rejected',
      message: `C0001S03.MP4 is skipped: it is a Sony proxy; ${path.join('PRIVATE', 'M4ROOT', 'CLIP', 'C0001.MP4')} is processed instead.`,
    });
    const proxy = await rt.queue.addPaths([path.join(byHand, 'PRIVATE', 'M4ROOT', 'SUB', 'C0001S03.MP4')]);
    expect(proxy[0]?.outcome).toBe('added');
  }, 60_000);
});
