// The engine end to end: real files, the real runtime, the sandbox over real HTTP on loopback.
import { captionPreset } from '../../main/engine/captions/presets.js';
import { copyFile, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { jobIds } from '../../main/adapters/queue/intake.js';
import { DEFAULT_CAPTIONS } from '../../main/engine/captions/presets.js';
import type { Runtime } from '../../main/runtime/runtime.js';
import { closeRuntime, closeRuntimes, openRuntime } from '../helpers/runtime.js';
import { makeGarbage, makeMediaDir, makeToneWav } from '../helpers/media.js';
import { allStreams } from '../helpers/service.js';

const KEY = 'test-key';
let dir: string;
let stateDir: string;
let sandbox: Sandbox;
const open = (concurrency = 4): Promise<Runtime> =>
  openRuntime({ stateDir, sandbox: { url: sandbox.url, apiKey: KEY }, concurrency, start: false });

beforeEach(async () => {
  dir = await makeMediaDir('sluice-batch-');
  stateDir = path.join(dir, '.state');
  sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.01 });
});

afterEach(async () => {
  await closeRuntimes();
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('runtime against the sandbox', () => {
  it('processes 200 files with concurrency 4: each once, each with its result beside it', async () => {
    const media = path.join(dir, 'media');
    await mkdir(media);
    const tone = await makeToneWav(dir, 'tone.wav', 1);
    for (let i = 0; i < 200; i++) await copyFile(tone, path.join(media, `take ${String(i).padStart(3, '0')}.wav`));
    const rt = await open(4);
    let maxUploading = 0;
    rt.on(() => {
      const n = rt.queue.activeJobs().filter((j) => j.state === 'uploading').length;
      maxUploading = Math.max(maxUploading, n);
    });
    await rt.start();
    // Queued while paused: each file is judged as media as it is added, which on a loaded machine
    // can take longer than a 1-second tone's upload; the limit is then tested on a full queue.
    rt.queue.pause();
    const outcomes = await rt.queue.addPaths([media]);
    expect(outcomes.filter((o) => o.outcome === 'added')).toHaveLength(200);
    rt.queue.resume();
    const jobs = await rt.queue.whenSettled(outcomes.map((o) => ('jobId' in o ? o.jobId : '')));
    expect(jobs.map((j) => j.state)).toEqual(Array(200).fill('completed'));
    expect(maxUploading).toBeLessThanOrEqual(4);
    expect(maxUploading).toBeGreaterThan(1);
    const files = await readdir(media);
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(200);
    const sample = JSON.parse(await readFile(path.join(media, 'take 007.json'), 'utf8')) as {
      transcription: { text: string };
    };
    expect(sample.transcription.text).toMatch(/sandbox/i);
    expect(sandbox.stats().upload).toBe(200);
    const streams = await allStreams(sandbox.url, KEY);
    expect(streams).toHaveLength(200);
    expect(new Set(streams.map((s) => s.name)).size).toBe(200);
    expect(streams.every((s) => s.state === 'COMPLETED')).toBe(true);
  }, 120_000);

  it('a second run over the same files processes nothing again', async () => {
    const a = await makeToneWav(dir, 'a.wav', 1);
    const rt = await open();
    await rt.start();
    const [first] = await rt.queue.addPaths([a]);
    await rt.queue.whenSettled([first && 'jobId' in first ? first.jobId : '']);
    const again = await rt.queue.addPaths([a]);
    expect(again[0]?.outcome).toBe('already-done');
    expect(sandbox.stats().upload).toBe(1);
  });

  it('a changed file is processed again', async () => {
    const a = await makeToneWav(dir, 'a.wav', 1);
    const rt = await open();
    await rt.start();
    const [first] = await rt.queue.addPaths([a]);
    await rt.queue.whenSettled(['jobId' in first! ? first.jobId : '']);
    await makeToneWav(dir, 'a.wav', 2);
    const [second] = await rt.queue.addPaths([a]);
    expect(second?.outcome).toBe('added');
    await rt.queue.whenSettled(['jobId' in second! ? second.jobId : '']);
    expect(sandbox.stats().upload).toBe(2);
  });

  it('bad input gets a clear reason and does not stop the batch', async () => {
    const good = await makeToneWav(dir, 'good.wav', 1);
    const garbage = await makeGarbage(dir, 'garbage.wav');
    const empty = path.join(dir, 'empty.wav');
    await writeFile(empty, '');
    const loop = path.join(dir, 'loop.wav');
    await symlink(loop, loop);
    const rt = await open();
    await rt.start();
    const outcomes = await rt.queue.addPaths([good, garbage, empty, loop, path.join(dir, 'missing.wav')]);
    const byName = (n: string) => outcomes.find((o) => path.basename(o.path) === n)!;
    expect(byName('empty.wav')).toMatchObject({ outcome: 'rejected', message: expect.stringMatching(/empty/) });
    expect(byName('loop.wav')).toMatchObject({ outcome: 'rejected', message: expect.stringMatching(/link loop/) });
    expect(byName('missing.wav')).toMatchObject({
      outcome: 'rejected',
      message: expect.stringMatching(/does not exist/),
    });
    // Refused up front, with its name and why, instead of being uploaded to fail at the service.
    expect(byName('garbage.wav')).toMatchObject({
      outcome: 'rejected',
      message: expect.stringMatching(/^garbage\.wav cannot be read as audio or video/),
    });
    const ids = jobIds(outcomes);
    expect(ids).toHaveLength(1);
    const jobs = await rt.queue.whenSettled(ids);
    expect(jobs.map((j) => [j.source.path, j.state])).toEqual([[good, 'completed']]);
    expect(sandbox.stats().upload).toBe(1);
  });

  it('a file deleted or changed after it was queued fails with that reason, nothing uploaded', async () => {
    const gone = await makeToneWav(dir, 'gone.wav', 1);
    const changed = await makeToneWav(dir, 'changed.wav', 1);
    const rt = await open();
    rt.queue.pause();
    await rt.start();
    const outcomes = await rt.queue.addPaths([gone, changed]);
    await rm(gone);
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(changed, 'different bytes now');
    rt.queue.resume();
    const jobs = await rt.queue.whenSettled(jobIds(outcomes));
    expect(jobs.find((j) => j.source.path === gone)?.error?.message).toMatch(/deleted or moved/);
    expect(jobs.find((j) => j.source.path === changed)?.error?.message).toMatch(/changed after it was detected/);
    expect(sandbox.stats().upload ?? 0).toBe(0);
  });

  it('never overwrites a file it did not write: uses {name}.{ext}.json and says so', async () => {
    const a = await makeToneWav(dir, 'clip.wav', 1);
    await writeFile(path.join(dir, 'clip.json'), '{"mine": true}');
    const rt = await open();
    await rt.start();
    const [o] = await rt.queue.addPaths([a]);
    const [job] = await rt.queue.whenSettled(['jobId' in o! ? o.jobId : '']);
    expect(job?.results[0]).toMatchObject({ path: path.join(dir, 'clip.wav.json'), collided: true });
    expect(await readFile(path.join(dir, 'clip.json'), 'utf8')).toBe('{"mine": true}');
  });

  it('a second engine on the same state dir re-attaches without uploading again', async () => {
    const files = await Promise.all([1, 2, 3].map((i) => makeToneWav(dir, `r${i}.wav`, 1)));
    await sandbox.close();
    sandbox = await startSandbox({ apiKey: KEY, fixedProcessingMs: 1500 });
    const first = await open();
    await first.start();
    const outcomes = await first.queue.addPaths(files);
    const ids = jobIds(outcomes);
    await new Promise<void>((resolve) => {
      const off = first.on(() => {
        if (ids.every((id) => first.queue.job(id)?.state === 'processing')) {
          off();
          resolve();
        }
      });
    });
    await closeRuntime(first);
    const second = await open();
    await second.start();
    const jobs = await second.queue.whenSettled(ids);
    expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed', 'completed']);
    expect(sandbox.stats().upload).toBe(3);
  });
});

describe('identity with content hashing on', () => {
  it('a file rewritten with the same size and modification time is taken again', async () => {
    const { utimes, stat } = await import('node:fs/promises');
    const a = await makeToneWav(dir, 'same.wav', 1);
    const rt = await open();
    await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, hashContent: true } }));
    await rt.start();
    const [first] = await rt.queue.whenSettled(jobIds(await rt.queue.addPaths([a])));
    expect(first?.source.contentHash).toMatch(/^fp1:[0-9a-f]{64}$/);
    const before = await stat(a);
    const bytes = await readFile(a);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    await writeFile(a, bytes);
    await utimes(a, before.atime, before.mtime);
    const [again] = await rt.queue.addPaths([a]);
    expect(again?.outcome).toBe('added');
  });
});

describe('writing results again from the kept export', () => {
  it('rewrites every format, including a deleted one, without uploading or exporting again', async () => {
    const a = await makeToneWav(dir, 'again.wav', 1);
    const rt = await open();
    await rt.start();
    const [job] = await rt.queue.whenSettled(
      jobIds(
        await rt.queue.addPaths([a], {
          output: {
            formats: ['json', 'srt'],
            pattern: '{name}',
            languageSuffix: null,
            txtTimestamps: false,
            captions: DEFAULT_CAPTIONS,
          },
        }),
      ),
    );
    expect(job?.results.map((r) => path.basename(r.path)).sort()).toEqual(['again.json', 'again.srt']);
    await rm(path.join(dir, 'again.srt'));
    const requests = { ...sandbox.stats() };
    const again = await rt.results.writeAgain(job!.id, ['json', 'srt', 'vtt']);
    expect(again.results.map((r) => path.basename(r.path)).sort()).toEqual(['again.json', 'again.srt', 'again.vtt']);
    expect(await readFile(path.join(dir, 'again.srt'), 'utf8')).toMatch(/-->/);
    expect(sandbox.stats()).toEqual(requests);

    // Laid out anew in another preset, still from the kept export: one line of 32, and it sticks.
    const vertical = await rt.results.writeAgain(job!.id, undefined, { captions: captionPreset('vertical') });
    expect(vertical.output?.captions).toMatchObject({ preset: 'vertical', lines: 1, speakerLabels: false });
    const cues = (await readFile(path.join(dir, 'again.srt'), 'utf8')).trim().split(/\n\n+/);
    for (const cue of cues) {
      expect(cue.split('\n')).toHaveLength(3);
      expect(Array.from(cue.split('\n')[2]!).length).toBeLessThanOrEqual(32);
    }
    expect(sandbox.stats()).toEqual(requests);
  });
});

describe('the same file reported twice at once', () => {
  it('becomes one job, even while its content is being hashed', async () => {
    const a = await makeToneWav(dir, 'twice.wav', 1);
    const rt = await open();
    await rt.updateSettings((s) => ({ ...s, queue: { ...s.queue, hashContent: true } }));
    rt.queue.pause();
    await rt.start();
    const [x, y] = await Promise.all([rt.queue.addPaths([a]), rt.queue.addPaths([a])]);
    expect(x?.[0]).toMatchObject({ outcome: 'added' });
    expect(y?.[0]).toMatchObject({ outcome: 'added', jobId: (x?.[0] as { jobId: string }).jobId });
    expect(rt.queue.jobs()).toHaveLength(1);
  });
});

describe('reordering the queue', () => {
  it('moves (up, down, top, bottom) change the order uploads reach the service, any number of times', async () => {
    // A clock that never repeats a millisecond, so the service's creation times give the order.
    await sandbox.close();
    let last = 0;
    sandbox = await startSandbox({
      apiKey: KEY,
      speedFactor: 0.01,
      now: () => (last = Math.max(last + 1, Date.now())),
    });
    const tone = await makeToneWav(dir, 'tone.wav', 1);
    const names = ['a', 'b', 'c', 'd', 'e'];
    const files: string[] = [];
    for (const n of names) {
      files.push(path.join(dir, `${n}.wav`));
      await copyFile(tone, files.at(-1)!);
    }
    const rt = await open(1);
    rt.queue.pause();
    await rt.start();
    const ids = jobIds(await rt.queue.addPaths(files));
    const id = (n: string): string => ids[names.indexOf(n)]!;
    rt.queue.move(id('e'), 'up'); // a b c e d
    rt.queue.move(id('e'), 'up'); // a b e c d
    rt.queue.move(id('e'), 'up'); // a e b c d
    rt.queue.move(id('a'), 'down'); // e a b c d
    rt.queue.move(id('c'), 'down'); // e a b d c
    rt.queue.move(id('d'), 'top'); // d e a b c
    rt.queue.move(id('e'), 'bottom'); // d a b c e
    rt.queue.move(id('b'), 'up'); // d b a c e
    rt.queue.resume();
    await rt.queue.whenSettled(ids);
    const streams = await allStreams(sandbox.url, KEY);
    const order = streams
      .sort((x, y) => Date.parse(x.createdTimestamp) - Date.parse(y.createdTimestamp))
      .map((s) => path.basename(s.name, '.wav'));
    expect(order).toEqual(['d', 'b', 'a', 'c', 'e']);
  });
});
