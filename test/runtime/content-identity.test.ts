// Content identity, on by default: a finished clip renamed while logging keeps its results (moved to
// the new name) and is not processed again; the same file added twice is one job; a copy made
// under another name beside the first is its own job. Real files, the sandbox over loopback.
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { DEFAULT_CAPTIONS } from '../../main/engine/captions/presets.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeMp4 } from '../helpers/media.js';

const KEY = 'k';
let dir: string;
let sandbox: Sandbox;
let rt: Runtime;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-identity-');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.01 });
  rt = await Runtime.open({
    stateDir: path.join(dir, '.state'),
    connection: { baseUrl: sandbox.url },
    credentials: { kind: 'apiKey', apiKey: KEY },
    ctx: { poll: { initialMs: 50, maxMs: 200, factor: 1.5, flatMs: 0 } },
  });
  await rt.start();
});
afterEach(async () => {
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

const output = {
  formats: ['json', 'srt', 'vtt'] as const,
  pattern: '{name}',
  languageSuffix: null,
  txtTimestamps: false,
  captions: DEFAULT_CAPTIONS,
};

describe('content identity', () => {
  it('is on by default, with the fast fingerprint', () => {
    expect(rt.settings.get().queue).toMatchObject({ hashContent: true, fullHash: false });
  });

  it('a finished clip renamed: its results follow the new name, nothing is processed again', async () => {
    const clip = path.join(dir, 'CLIP');
    await mkdir(clip);
    const src = await makeMp4(clip, 'C0002.MP4', 2);
    const [job] = await rt.queue.whenSettled(
      jobIds(await rt.queue.addPaths([src], { output: { ...output, formats: [...output.formats] } })),
    );
    expect(job?.state).toBe('completed');
    const uploads = sandbox.stats().upload;
    const renamed = path.join(clip, 'C0002_Mueller_Strassenumfrage.MP4');
    await rename(src, renamed);
    const [again] = await rt.queue.addPaths([renamed]);
    expect(again).toMatchObject({ outcome: 'already-done', jobId: job!.id });
    expect(sandbox.stats().upload).toBe(uploads);
    expect((await readdir(clip)).sort()).toEqual([
      'C0002_Mueller_Strassenumfrage.MP4',
      'C0002_Mueller_Strassenumfrage.json',
      'C0002_Mueller_Strassenumfrage.srt',
      'C0002_Mueller_Strassenumfrage.vtt',
    ]);
    const moved = rt.queue.jobs().find((j) => j.id === job!.id)!;
    expect(moved.movedTo).toBe(renamed);
    expect(moved.results.map((r) => path.basename(r.path)).sort()).toEqual([
      'C0002_Mueller_Strassenumfrage.json',
      'C0002_Mueller_Strassenumfrage.srt',
      'C0002_Mueller_Strassenumfrage.vtt',
    ]);
    // Asked again (a rescan, a restart's walk), it is known by its new name.
    expect((await rt.queue.addPaths([renamed]))[0]).toMatchObject({ outcome: 'already-done', jobId: job!.id });
  });

  it('the same file added twice from two places is one job, one upload', async () => {
    const a = path.join(dir, 'inbox', 'u1');
    const b = path.join(dir, 'inbox', 'u2');
    await mkdir(a, { recursive: true });
    await mkdir(b, { recursive: true });
    const first = await makeMp4(a, 'zoom_lr.mp4', 2);
    const second = path.join(b, 'zoom_lr.mp4');
    await copyFile(first, second);
    rt.queue.pause();
    const [x] = await rt.queue.addPaths([first]);
    const [y] = await rt.queue.addPaths([second]);
    expect(y).toMatchObject({ outcome: 'already-queued', jobId: (x as { jobId: string }).jobId });
    rt.queue.resume();
    await rt.queue.whenSettled(jobIds([x!]));
    expect(rt.queue.jobs()).toHaveLength(1);
    expect(sandbox.stats().upload).toBe(1);
  });

  it('a copy under another name beside the first is its own job', async () => {
    const first = await makeMp4(dir, 'take1.mp4', 1);
    const second = path.join(dir, 'take1 copy for client.mp4');
    await copyFile(first, second);
    const outcomes = await rt.queue.addPaths([first, second]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['added', 'added']);
  });
});
