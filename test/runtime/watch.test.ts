// Watch folders through the runtime: a new file is taken once, a restart or rescan does not take
// it again, and the folder's post-action moves the source and its results into done/ or failed/.
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { closeRuntime, closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

const KEY = 'k';
let dir: string;
let folder: string;
let sandbox: Sandbox;
/** Files the watch folder looked at and left as they were (already queued or processed). */
const skipped: string[] = [];
async function open(postAction: 'none' | 'move' = 'none'): Promise<Runtime> {
  const rt = await openRuntime({
    stateDir: path.join(dir, 'state'),
    sandbox: { url: sandbox.url, apiKey: KEY },
    ctx: { poll: { initialMs: 30, maxMs: 100, factor: 1.5, flatMs: 0 } },
    start: false,
  });
  const watched = WATCH_FOLDER.parse({
    id: 'w1',
    path: folder,
    postAction: postAction === 'move' ? { kind: 'move', doneDir: 'done', failedDir: 'failed' } : { kind: 'none' },
  });
  await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, settleMs: 200 }, watchFolders: [watched] }));
  rt.on((e) => void (e.type === 'folder:skipped' && skipped.push(e.path)));
  await rt.start({ watch: true });
  return rt;
}

beforeEach(async () => {
  skipped.length = 0;
  dir = await makeMediaDir('sluice-watch-rt-');
  folder = path.join(dir, 'inbox');
  await mkdir(folder);
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.02 });
});

afterEach(async () => {
  await closeRuntimes();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const completed = (rt: Runtime): number => rt.queue.jobs().filter((j) => j.state === 'completed').length;

describe('watch folders in the runtime', () => {
  it('takes a new file once, and neither a rescan nor a restart takes it again', async () => {
    let rt = await open();
    await copyFile(await makeToneWav(dir, 'tone.wav', 1), path.join(folder, 'a.wav'));
    await expect.poll(() => completed(rt), { timeout: 15_000 }).toBe(1);
    expect((await readdir(folder)).sort()).toEqual(['a.json', 'a.srt', 'a.txt', 'a.vtt', 'a.wav']);
    await rt.folders.rescan();
    await closeRuntime(rt);
    skipped.length = 0;
    rt = await open();
    // The restarted watch looks at the file again and says it leaves it: processed already.
    await expect.poll(() => skipped, { timeout: 30_000 }).toContain(path.join(folder, 'a.wav'));
    expect(rt.queue.jobs()).toHaveLength(1);
    expect(sandbox.stats().upload).toBe(1);
  });

  it('moves the source and its results into done/ and failed/, and never takes them from there', async () => {
    const rt = await open('move');
    await copyFile(await makeToneWav(dir, 'tone.wav', 1), path.join(folder, 'good.wav'));
    // A WAV header that says the file is whole, over bytes that are no audio.
    const junk = Buffer.from('WAVEnot audio at all');
    await writeFile(path.join(folder, 'bad.wav'), Buffer.concat([Buffer.from('RIFF'), u32(junk.length), junk]));
    await expect.poll(() => rt.queue.jobs().filter((j) => j.movedTo).length, { timeout: 15_000 }).toBe(2);
    expect((await readdir(path.join(folder, 'done'))).sort()).toEqual([
      'good.json',
      'good.srt',
      'good.txt',
      'good.vtt',
      'good.wav',
    ]);
    expect(await readdir(path.join(folder, 'failed'))).toEqual(['bad.wav']);
    expect((await readdir(folder)).sort()).toEqual(['done', 'failed']);
    // The walk found nothing to take: done/ and failed/ are not looked into.
    const [summary] = await rt.folders.rescan();
    expect(summary).toMatchObject({ newFiles: 0, inQueue: 0, alreadyProcessed: 0, stillCopying: 0 });
    expect(rt.queue.jobs()).toHaveLength(2);
  });

  it("takes what cameras and recorders write: upper-case extensions in their cards' folder layouts", async () => {
    const rt = await open();
    const tone = await makeToneWav(dir, 'tone.wav', 1);
    const card = [
      'DCIM/100GOPRO/GX010234.MP4',
      'PRIVATE/M4ROOT/CLIP/C0001.MP4',
      'CLIPS001/A001_C003_0412.MOV',
      'ZOOM0001/ZOOM0001_LR.WAV',
    ];
    // Sidecars the cameras write next to the clips are not media and stay untouched.
    const sidecars = ['DCIM/100GOPRO/GX010234.THM', 'PRIVATE/M4ROOT/CLIP/C0001M01.XML'];
    for (const rel of [...card, ...sidecars]) {
      await mkdir(path.dirname(path.join(folder, rel)), { recursive: true });
      await copyFile(tone, path.join(folder, rel));
    }
    await expect.poll(() => completed(rt), { timeout: 20_000 }).toBe(card.length);
    expect(
      rt.queue
        .jobs()
        .map((j) => path.relative(folder, j.source.path))
        .sort(),
    ).toEqual([...card].sort());
  });
});

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
