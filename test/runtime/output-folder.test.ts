// Results where the watch folder says: an output folder that mirrors the folders below the watch
// folder, so a card backup stays byte for byte as it was copied (nothing written inside it, not
// even a temporary file); a pattern with `/` makes subfolders; a rename inside the card moves the
// results within the output folder; writing again finds them there. Real files, the sandbox.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OUTPUT, type WatchFolder } from '../../main/engine/settings.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeMp4 } from '../helpers/media.js';
import { until } from '../ipc/helpers.js';

let dir: string;
let card: string;
let out: string;
let sandbox: Sandbox;
let rt: Runtime;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-output-');
  card = path.join(dir, 'SONY_FX6');
  out = path.join(dir, 'Transcripts');
  await mkdir(card);
  await mkdir(out);
  sandbox = await startSandbox({ apiKey: 'k', speedFactor: 0.01 });
});
afterEach(async () => {
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(folder: Partial<WatchFolder>): Promise<void> {
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: 'k' },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
  });
  await rt.updateSettings((s) => ({
    ...s,
    queue: { ...s.queue, settleMs: 300, rescanIntervalMs: 3_600_000 },
    watchFolders: [
      {
        id: 'card',
        path: card,
        enabled: true,
        templateId: s.defaults.templateId,
        params: {},
        include: [],
        exclude: [],
        recursive: true,
        output: s.defaults.output,
        postAction: { kind: 'none' },
        ...folder,
      },
    ],
  }));
  await rt.start({ watch: true });
}

/** Every file below `root`, relative, with a hash of its bytes. */
async function tree(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    found[path.relative(root, full)] = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
  }
  return found;
}

const completed = (n: number) =>
  until(() => {
    const jobs = rt.queue.jobs();
    return jobs.length >= n && jobs.every((j) => j.state === 'completed') && jobs;
  }, 40_000);

describe('an output folder per watch folder', () => {
  it('mirrors the card below it and writes nothing inside the card', async () => {
    const media = path.join(dir, 'src');
    await mkdir(media);
    const clip = path.join(card, 'PRIVATE', 'M4ROOT', 'CLIP');
    await mkdir(clip, { recursive: true });
    await open({ outputDir: out });
    const before = await (async () => {
      await copyFile(await makeMp4(media, 'a.mp4', 2), path.join(clip, 'C0001.MP4'));
      await copyFile(await makeMp4(media, 'b.mp4', 3), path.join(card, 'ROOT_CLIP.MP4'));
      return tree(card);
    })();
    const jobs = await completed(2);
    const mirrored = path.join(out, 'PRIVATE', 'M4ROOT', 'CLIP');
    expect((await readdir(mirrored)).sort()).toEqual(['C0001.json', 'C0001.srt', 'C0001.txt', 'C0001.vtt']);
    expect((await readdir(out)).filter((f) => f.startsWith('ROOT_CLIP')).sort()).toEqual([
      'ROOT_CLIP.json',
      'ROOT_CLIP.srt',
      'ROOT_CLIP.txt',
      'ROOT_CLIP.vtt',
    ]);
    // The card is byte for byte what was copied: no result, no temporary file, no folder made.
    expect(await tree(card)).toEqual(before);
    expect(jobs.flatMap((j) => j.results).every((r) => r.path.startsWith(out + path.sep))).toBe(true);

    // Writing again (the Queue's "save results again", `sluice rewrite`) finds them there.
    const job = jobs.find((j) => j.source.path.endsWith('C0001.MP4'))!;
    const again = await rt.results.writeAgain(job.id);
    expect(again.results.map((r) => r.path).sort()).toEqual(job.results.map((r) => r.path).sort());
    expect(await tree(card)).toEqual(before);

    // A rename inside the card (logging): the results move within the output folder, nothing is sent.
    const uploads = sandbox.stats().upload;
    await rename(path.join(clip, 'C0001.MP4'), path.join(clip, 'C0001_Mueller.MP4'));
    await until(() => rt.queue.jobs().find((j) => j.id === job.id)?.movedTo !== undefined, 20_000);
    // Whatever names the media is written again for the new name (none of these); wait for it all the same.
    await rt.results.settled();
    expect((await readdir(mirrored)).sort()).toEqual([
      'C0001_Mueller.json',
      'C0001_Mueller.srt',
      'C0001_Mueller.txt',
      'C0001_Mueller.vtt',
    ]);
    expect(sandbox.stats().upload).toBe(uploads);
    expect(Object.keys(await tree(card)).filter((f) => !f.endsWith('.MP4'))).toEqual([]);
  }, 90_000);

  it('a pattern with / makes a subfolder beside the source', async () => {
    await open({ output: OUTPUT.parse({ pattern: 'Transcripts/{name}' }) });
    const media = path.join(dir, 'src');
    await mkdir(media);
    await copyFile(await makeMp4(media, 'a.mp4', 2), path.join(card, 'IMG_5001.MOV'));
    const [job] = await completed(1);
    expect((await readdir(path.join(card, 'Transcripts'))).sort()).toEqual([
      'IMG_5001.json',
      'IMG_5001.srt',
      'IMG_5001.txt',
      'IMG_5001.vtt',
    ]);
    expect(job!.results.every((r) => path.dirname(r.path) === path.join(card, 'Transcripts'))).toBe(true);
    expect((await readdir(card)).some((f) => f.startsWith('Transcripts-'))).toBe(false);
  }, 60_000);

  it('a pattern that leads out of the results folder is refused with the reason', async () => {
    await open({});
    const base = rt.settings.get();
    for (const [pattern, why] of [
      ['../{name}', /leads out of the results folder/],
      ['/tmp/{name}', /root of a drive/],
      ['C:\\Subs\\{name}', /root of a drive/],
      ['Transcripts//{name}', /empty folder name/],
    ] as const) {
      await expect(
        rt.updateSettings(() => ({
          ...base,
          defaults: { ...base.defaults, output: { ...base.defaults.output, pattern } },
        })),
      ).rejects.toThrow(why);
    }
  });

  it('an output folder that is not there is said, and nothing is written beside the source', async () => {
    const gone = path.join(dir, 'Unplugged');
    await open({ outputDir: gone });
    const media = path.join(dir, 'src');
    await mkdir(media);
    await copyFile(await makeMp4(media, 'a.mp4', 2), path.join(card, 'C0009.MP4'));
    const job = await until(
      () => rt.queue.jobs().find((j) => j.resultWarning !== undefined || j.state === 'failed'),
      40_000,
    );
    expect(job.resultWarning ?? job.error?.message).toMatch(/output folder .*Unplugged is not there/);
    expect(await stat(gone).catch(() => undefined)).toBeUndefined();
    expect(await readdir(card)).toEqual(['C0009.MP4']);
  }, 60_000);
});
