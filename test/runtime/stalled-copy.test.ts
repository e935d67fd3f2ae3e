// A copy that stalls longer than the settle time (a NAS, an SMB share, a card reader) is not taken
// half-written: the container is not whole, so the file goes on waiting for its copy. Each file is
// uploaded once, whole, and no job fails. Real watch folder, real sandbox over loopback.
import { copyFile, open, readFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../main/api/client.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { makeMediaDir, makeMp3, makeMp4, makeToneWav } from '../helpers/media.js';
import { until } from '../ipc/helpers.js';
import type { EngineEvent } from '../../main/engine/events.js';

const SETTLE_MS = 400;
let dir: string;
let folder: string;
let sandbox: Sandbox;
let rt: Runtime;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-stall-');
  folder = path.join(dir, 'NAS_Dump');
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
    queue: { ...s.queue, settleMs: SETTLE_MS, rescanIntervalMs: 3_600_000 },
    watchFolders: [
      {
        id: 'nas',
        path: folder,
        enabled: true,
        templateId: s.defaults.templateId,
        params: {},
        include: [],
        exclude: [],
        recursive: true,
        output: s.defaults.output,
        postAction: { kind: 'none' },
      },
    ],
  }));
  await rt.start({ watch: true });
});
afterEach(async () => {
  delete process.env.SLUICE_TEST_FS_TYPE;
  await rt.close();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

/** Copies `src` to `target`: the first half, a stall of `stallMs`, then the rest. */
async function stalledCopy(src: string, target: string, stallMs: number): Promise<void> {
  const data = await readFile(src);
  const half = Math.floor(data.length / 2);
  const fh = await open(target, 'w');
  await fh.write(data, 0, half, 0);
  await fh.sync();
  await new Promise((r) => setTimeout(r, stallMs));
  await fh.write(data, half, data.length - half, half);
  await fh.close();
}

describe('a copy that stalls', () => {
  it('an MP4 and a WAV stalled halfway for 8× the settle time: one stream each, whole, no failure', async () => {
    const mp4 = await makeMp4(dir, 'interview.mp4', 6);
    const wav = await makeToneWav(dir, 'mix.wav', 6);
    const targets = [path.join(folder, 'A002_C014_interview.mp4'), path.join(folder, 'ZOOM0009_LR.WAV')];
    await Promise.all([stalledCopy(mp4, targets[0]!, SETTLE_MS * 8), stalledCopy(wav, targets[1]!, SETTLE_MS * 8)]);

    const done = await until(() => {
      const jobs = rt.queue.jobs();
      return jobs.length === 2 && jobs.every((j) => j.state === 'completed') && jobs;
    }, 30_000);
    // What a late event or rescan would find, found now: both files taken already, nothing new.
    const [summary] = await rt.folders.rescan();
    expect(summary).toMatchObject({ newFiles: 0, stillCopying: 0, inQueue: 0, alreadyProcessed: 2 });
    expect(rt.queue.jobs()).toHaveLength(2);
    expect(rt.queue.jobs().filter((j) => j.state === 'failed')).toEqual([]);
    expect(sandbox.stats().upload).toBe(2);
    const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey: 'k' } });
    try {
      for (const target of targets) {
        const job = done.find((j) => j.source.path === target)!;
        const size = (await readFile(target)).length;
        expect(job.totalBytes).toBe(size);
        const usage = await client.streamUsage(job.streamId!);
        expect(usage.processors.reduce((n, p) => n + p.ingressSize, 0)).toBe(size);
      }
    } finally {
      await client.close();
    }
  }, 60_000);

  it('an MP3 (a container that cannot tell) whose copy goes on while its upload runs: the stream is canceled, the finished file taken once', async () => {
    // The longer settle would hold the half file back (next tests); without it, this is the last
    // line of defence: a file that changes while its upload runs.
    await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, networkSettleMs: 0 } }));
    const mp3 = await makeMp3(dir, 'podcast.mp3', 30);
    const target = path.join(folder, 'Podcast Ep 12.mp3');
    // Slow enough that the half file is still being sent when the copy goes on.
    sandbox.setFaults({ uploadThrottle: { bytesPerSecond: 20_000, buffered: false } });
    const data = await readFile(mp3);
    const half = Math.floor(data.length / 2);
    const fh = await open(target, 'w');
    await fh.write(data, 0, half, 0);
    await fh.sync();
    const started = await until(() => rt.queue.jobs().find((j) => j.state === 'uploading'), 10_000);
    // The half file is well on its way to the service when the copy goes on. (Going on at its
    // first byte, a third upload was seen once in 3 runs under Node 24: kept at 1 s until that
    // is understood.)
    await new Promise((r) => setTimeout(r, 1000));
    expect(started.totalBytes).toBe(half);
    await fh.write(data, half, data.length - half, half);
    await fh.close();
    // Found changed by the watcher while the half is sent, or at the latest when its upload ends
    // (the half takes some 12 s on this line): either way its stream is given up.
    const waiting = await until(() => rt.queue.jobs().find((j) => j.previousStreamIds.length >= 1), 30_000);
    sandbox.setFaults({});
    const done = await until(() => {
      const j = rt.queue.jobs().find((x) => x.id === waiting.id);
      return j?.state === 'completed' && j;
    }, 30_000);
    // What a late event or rescan would find, found now: the job took the finished file, nothing is
    // new (the summary once counted it new, from the half file's size the job was added with).
    const [summary] = await rt.folders.rescan();
    expect(summary).toMatchObject({ newFiles: 0, stillCopying: 0, inQueue: 0, alreadyProcessed: 1 });
    expect(rt.queue.jobs()).toHaveLength(1);
    expect(done.totalBytes).toBe(data.length);
    // One stream per upload the job began: the half file's, and the finished file's. (On a loaded
    // machine the watcher may meet the second half mid-write once more: that stream is canceled
    // too; and an upload request cut off on its way is sent again to the same stream, so the
    // service's streams are counted here, not its upload requests.)
    expect(done.previousStreamIds.length).toBeGreaterThanOrEqual(1);
    const client = createClient({ baseUrl: sandbox.url, credentials: { kind: 'apiKey', apiKey: 'k' } });
    try {
      const streams = await client.listStreams({ page: 0, size: 50 });
      expect(streams.content.map((x) => x.streamId).sort()).toEqual([...done.previousStreamIds, done.streamId!].sort());
      for (const id of done.previousStreamIds) {
        // Canceled (the service ends a canceled stream FAILED): never processed, nothing billed.
        expect((await client.findStream(id)).state).toBe('FAILED');
        expect((await client.streamUsage(id)).processors).toEqual([]);
      }
      const usage = await client.streamUsage(done.streamId!);
      expect(usage.processors.reduce((n, p) => n + p.ingressSize, 0)).toBe(data.length);
    } finally {
      await client.close();
    }
  }, 90_000);

  it('a copy that stalls before its first byte: the empty file is not taken, the finished one once, no failure', async () => {
    const said: string[] = [];
    rt.on((e: EngineEvent) => {
      if (e.type === 'folder:status' && e.message) said.push(e.message);
    });
    const wav = await readFile(await makeToneWav(dir, 'take.wav', 3));
    const target = path.join(folder, 'ZOOM0010_LR.WAV');
    await writeFile(target, '');
    // Said once the settle check has judged the file settled and empty: it is known as it is, not taken.
    await until(() => said.find((m) => m.startsWith('ZOOM0010_LR.WAV: empty (0 bytes)')), 10_000);
    // A walk that meets it again takes it no more than the events did.
    await rt.folders.rescan();
    expect(rt.queue.jobs()).toEqual([]);
    await writeFile(target, wav);
    const [job] = await until(() => {
      const jobs = rt.queue.jobs();
      return jobs.length === 1 && jobs[0]!.state === 'completed' && jobs;
    }, 30_000);
    expect(job!.totalBytes).toBe(wav.length);
    const [summary] = await rt.folders.rescan();
    expect(summary).toMatchObject({ newFiles: 0, alreadyProcessed: 1 });
    expect(rt.queue.jobs()).toHaveLength(1);
    expect(sandbox.stats().upload).toBe(1);
  }, 60_000);

  it('a card copied to a second place: no job, and a rescan counts the copy as a second copy, not as queued', async () => {
    const skipped: string[] = [];
    rt.on((e: EngineEvent) => void (e.type === 'folder:skipped' && skipped.push(e.path)));
    const card = path.join(folder, 'Day1', 'iPhone');
    await mkdir(card, { recursive: true });
    await writeFile(path.join(card, 'IMG_4821.WAV'), await readFile(await makeToneWav(dir, 'take.wav', 2)));
    await until(() => rt.queue.jobs()[0]?.state === 'completed', 30_000);
    const backup = path.join(folder, 'Backup_Day1', 'iPhone');
    await mkdir(backup, { recursive: true });
    await copyFile(path.join(card, 'IMG_4821.WAV'), path.join(backup, 'IMG_4821.WAV'));
    // The watcher has decided on the copy: the same clip, already processed, listed as its second copy.
    await until(() => skipped.includes(path.join(backup, 'IMG_4821.WAV')), 30_000);
    const [summary] = await rt.folders.rescan();
    expect(summary).toMatchObject({ newFiles: 0, alreadyProcessed: 1, stillCopying: 0, skipped: { 'second-copy': 1 } });
    expect(rt.queue.jobs()).toHaveLength(1);
    expect(sandbox.stats().upload).toBe(1);
  }, 60_000);

  it.each(['a network drive', 'a local drive'])(
    'on %s, an MP3 (a container that cannot tell) waits the longer settle; an MP4 beside it does not',
    async (drive) => {
      const NETWORK_SETTLE_MS = 5000;
      // The folder reads as NFS (statfs's magic, through the file-system seam): a share that stalls.
      // On the local drive the MP3's own modification time counts, and it is as fresh as the copy.
      if (drive === 'a network drive') process.env.SLUICE_TEST_FS_TYPE = String(0x6969);
      // A changed settle applies to the watched folder without a restart (its watcher is made anew).
      await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, networkSettleMs: NETWORK_SETTLE_MS } }));
      const mp3 = await makeMp3(dir, 'podcast.mp3', 20);
      const mp4 = await readFile(await makeMp4(dir, 'clip.mp4', 3));
      const target = path.join(folder, 'Podcast Ep 13.mp3');
      const copied = Date.now();
      await writeFile(path.join(folder, 'C0003.MP4'), mp4);
      // Stalled halfway for 6× the settle time, well under the network settle.
      await stalledCopy(mp3, target, SETTLE_MS * 6);
      const clip = await until(() => rt.queue.jobs().find((j) => j.source.path.endsWith('C0003.MP4')), 10_000);
      expect(clip.createdAt - copied).toBeLessThan(NETWORK_SETTLE_MS - 1000);
      const done = await until(() => {
        const jobs = rt.queue.jobs();
        return jobs.length === 2 && jobs.every((j) => j.state === 'completed') && jobs;
      }, 40_000);
      const podcast = done.find((j) => j.source.path === target)!;
      const size = (await readFile(target)).length;
      expect(podcast.totalBytes).toBe(size);
      // Never taken half-written: one stream, none canceled, nothing failed.
      expect(podcast.previousStreamIds).toEqual([]);
      expect(sandbox.stats().upload).toBe(2);
    },
    90_000,
  );
});
