// A full disk under the state folder: the journal's writes fail with ENOSPC (injected at the
// journal's own write calls, so the test runs anywhere without mounting a small volume), after half
// of a line already went out. No exception escapes, the queue pauses naming the folder, the journal
// keeps every line whole and loses nothing, and the work resumes by itself when space returns.
import fs from 'node:fs';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobStore } from '../../main/adapters/store/journal/job-store.js';
import { WATCH_FOLDER } from '../../main/engine/settings.js';
import { jobIds } from '../../main/adapters/queue/intake.js';
import type { EngineEvent } from '../../main/engine/events.js';
import type { JobRecord } from '../../main/engine/job.js';
import { Runtime } from '../../main/runtime/runtime.js';
import { startSandbox, type Sandbox } from '../../main/sandbox/index.js';
import { allStreams } from '../helpers/service.js';
import { makeMediaDir, makeToneWav } from '../helpers/media.js';

const KEY = 'disk-full-key';
let dir: string;
let sandbox: Sandbox | undefined;
let rt: Runtime | undefined;

beforeEach(async () => {
  dir = await makeMediaDir('sluice-disk-full-');
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rt?.close().catch(() => undefined);
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every line of the journal is whole (ends in a newline) and parses. */
function journalLines(file: string): unknown[] {
  const text = fs.readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
}

/** Makes the journal's writes fail with ENOSPC while `full()`; the first failing write gets half a line out. */
function diskFullAt(journal: string, full: () => boolean): { failures: () => number } {
  const realWrite = fs.writeSync.bind(fs) as (...a: unknown[]) => number;
  const ino = fs.statSync(journal).ino;
  let failures = 0;
  vi.spyOn(fs, 'writeSync').mockImplementation(((...args: unknown[]) => {
    const [fd, buf, offset, length] = args as [number, Buffer, number | undefined, number | undefined];
    if (full() && typeof fd === 'number' && fs.fstatSync(fd).ino === ino) {
      failures++;
      if (failures === 1 && Buffer.isBuffer(buf)) {
        const len = length ?? buf.length - (offset ?? 0);
        return realWrite(fd, buf, offset ?? 0, Math.floor(len / 2));
      }
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
    }
    return realWrite(...args);
  }) as typeof fs.writeSync);
  return { failures: () => failures };
}

describe('a full disk under the state folder', () => {
  it('pauses the queue naming the folder, keeps the journal whole and complete, and resumes when space returns', async () => {
    sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.05 });
    const media = path.join(dir, 'media');
    await mkdir(media);
    const tone = await makeToneWav(dir, 'tone.wav', 2);
    for (let i = 0; i < 6; i++) await copyFile(tone, path.join(media, `f${i}.wav`));
    const stateDir = path.join(dir, '.state');
    rt = await Runtime.open({
      stateDir,
      connection: { baseUrl: sandbox.url },
      credentials: { kind: 'apiKey', apiKey: KEY },
      concurrency: 2,
      ctx: {
        poll: { initialMs: 30, maxMs: 150, factor: 1.5, flatMs: 0 },
        backoff: { baseMs: 20, capMs: 300, maxRetryAfterMs: 1500 },
      },
    });
    const events: EngineEvent[] = [];
    rt.on((e) => events.push(e));
    await rt.start();
    const journal = path.join(stateDir, 'jobs.jsonl');
    let full = false;
    const disk = diskFullAt(journal, () => full);

    const ids = jobIds(await rt.queue.addPaths([media]));
    expect(ids).toHaveLength(6);
    const settled = rt.queue.whenSettled(ids);
    // The disk fills while work is in flight: uploads, polls and exports all run into it.
    await expect.poll(() => rt?.queue.jobs().some((j) => j.state === 'processing'), { timeout: 20_000 }).toBe(true);
    full = true;
    await expect.poll(() => rt?.queue.pauseState?.reason, { timeout: 20_000 }).toBe('storage');
    expect(rt.queue.pauseState?.message).toContain(stateDir);
    expect(rt.queue.pauseState?.message).toMatch(/disk is full/);
    // What was in flight runs into the full disk too; the retry keeps failing meanwhile.
    await expect.poll(() => disk.failures(), { timeout: 20_000 }).toBeGreaterThan(1);
    expect(rt.queue.jobs().filter((j) => j.state === 'failed')).toEqual([]);
    const whileFull = journalLines(journal); // the half-written line was cut off

    full = false;
    const jobs = await settled;
    expect(jobs.map((j) => j.state)).toEqual(Array(6).fill('completed'));
    expect(events.some((e) => e.type === 'queue:resumed')).toBe(true);
    expect(rt.queue.pauseState).toBeUndefined();

    // One result per file, one completed stream per file: nothing lost, nothing done twice.
    const results = (await readdir(media)).filter((f) => f.endsWith('.json')).sort();
    expect(results).toEqual(['f0.json', 'f1.json', 'f2.json', 'f3.json', 'f4.json', 'f5.json']);
    const completed = (await allStreams(sandbox.url, KEY)).filter((s) => s.state === 'COMPLETED');
    expect(completed.map((s) => s.name).sort()).toEqual(results.map((r) => r.replace(/\.json$/, '.wav')));

    await rt.close();
    rt = undefined;
    expect(journalLines(journal).length).toBeGreaterThan(whileFull.length);
    const reopened = JobStore.snapshot<JobRecord>(stateDir);
    expect(reopened.filter((j) => j.state === 'completed')).toHaveLength(6);
  }, 90_000);

  it('takes the files a watch folder found while the disk was full once it frees, without waiting for a rescan', async () => {
    sandbox = await startSandbox({ apiKey: KEY, speedFactor: 0.05 });
    const inbox = path.join(dir, 'inbox');
    await mkdir(inbox);
    const stateDir = path.join(dir, '.state');
    rt = await Runtime.open({
      stateDir,
      connection: { baseUrl: sandbox.url },
      credentials: { kind: 'apiKey', apiKey: KEY },
      ctx: { poll: { initialMs: 30, maxMs: 150, factor: 1.5, flatMs: 0 } },
    });
    const folder = WATCH_FOLDER.parse({ id: 'inbox', path: inbox });
    // An hour between rescans: only being offered again can take the refused files in time.
    await rt.updateSettings((s) => ({
      ...s,
      queue: { ...s.queue, settleMs: 200, rescanIntervalMs: 3_600_000 },
      watchFolders: [folder],
    }));
    const events: EngineEvent[] = [];
    rt.on((e) => events.push(e));
    await rt.start({ watch: true });
    const journal = path.join(stateDir, 'jobs.jsonl');
    // A first job makes the journal, the guard's test write once the disk frees.
    const tone = await makeToneWav(dir, 'tone.wav', 1);
    await copyFile(tone, path.join(inbox, 'first.wav'));
    await expect
      .poll(() => rt?.queue.jobs().filter((j) => j.state === 'completed').length, { timeout: 20_000 })
      .toBe(1);
    let full = true;
    diskFullAt(journal, () => full);
    for (const name of ['a.wav', 'b.wav']) await copyFile(tone, path.join(inbox, name));
    const refused = (): number =>
      events.filter((e) => e.type === 'folder:status' && /was not queued/.test(e.message ?? '')).length;
    // A file found as the disk filled is held in the Queue until its line is written (its late
    // write is what pauses the queue); one found once the queue waits for storage is refused.
    // Either way, each file is one or the other, and no line is half written.
    await expect.poll(() => rt?.queue.pauseState?.reason, { timeout: 20_000 }).toBe('storage');
    await expect.poll(() => refused() + rt!.queue.jobs().length - 1, { timeout: 20_000 }).toBe(2);
    // Found while the queue waits for storage: refused, and taken again only by being offered again.
    await copyFile(tone, path.join(inbox, 'c.wav'));
    const refusedC = (): boolean =>
      events.some((e) => e.type === 'folder:status' && /c\.wav was not queued/.test(e.message ?? ''));
    await expect.poll(refusedC, { timeout: 20_000 }).toBe(true);
    expect(rt.queue.jobs().some((j) => j.source.path.endsWith('c.wav'))).toBe(false);
    journalLines(journal);

    full = false;
    await expect
      .poll(() => rt?.queue.jobs().filter((j) => j.state === 'completed').length, { timeout: 20_000 })
      .toBe(4);
    expect((await readdir(inbox)).filter((f) => f.endsWith('.json')).sort()).toEqual([
      'a.json',
      'b.json',
      'c.json',
      'first.json',
    ]);
  }, 60_000);
});
