// A folder full before Sluice started: on a local drive, a file whose own modification time is at
// least the settle time old has been left alone that long, so the walk's file is looked at at once
// instead of being watched for the settle time first (settle-checker.ts `offer`). Only a container
// that vouches for itself is taken that way; everything else still waits out the settle time.
import { appendFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judgeSettled } from '../../../../main/engine/settle.js';
import { SettleChecker, type DetectedFile } from '../../../../main/adapters/watch/settle/settle-checker.js';
import { pcmWav } from '../../../helpers/media.js';
import { tempDir, waitFor } from '../watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sluice-quiet-'));
});
afterEach(async () => {
  await cleanup();
});

const SETTLE_MS = 1500;
const HOUR_AGO = new Date(Date.now() - 3_600_000);
const later = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function checker(local: boolean): { c: SettleChecker; files: DetectedFile[]; taken: Map<string, number> } {
  const files: DetectedFile[] = [];
  const taken = new Map<string, number>();
  const c = new SettleChecker({
    folderId: 'f',
    settleMs: SETTLE_MS,
    now: Date.now,
    onFile: (f) => {
      files.push(f);
      taken.set(path.basename(f.path), Date.now());
    },
    onProblem: () => undefined,
  });
  c.setLocalVolume(local);
  return { c, files, taken };
}

/** A WAV whose header declares `dataBytes` of samples; `written` of them are in the file. */
const wav = (dataBytes: number, written = dataBytes): Buffer => pcmWav(dataBytes / 2, { written: written / 2 });

/** Writes the file, gives it a modification time, and offers it as the walk does (with its stat). */
async function found(c: SettleChecker, name: string, bytes: Buffer, mtime: Date): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  await utimes(file, mtime, mtime);
  const s = await stat(file);
  c.offer({ path: file, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
  return file;
}

describe('a file the walk finds already left alone for the settle time', () => {
  it('is taken at once on a local drive when its container vouches that it is whole', async () => {
    const { c, files } = checker(true);
    const t0 = Date.now();
    const file = await found(c, 'interview.wav', wav(4000), HOUR_AGO);
    await waitFor(() => files.length === 1, 5000, 'the quiet WAV');
    expect(Date.now() - t0).toBeLessThan(SETTLE_MS / 2);
    expect(files[0]).toMatchObject({ path: file, size: 4044, mtimeMs: (await stat(file)).mtimeMs });
    expect(Date.now() - files[0]!.mtimeMs).toBeGreaterThan(3_000_000);
    c.reset();
  });

  it('waits out the settle time when its container cannot vouch (no header to judge by)', async () => {
    const { c, files, taken } = checker(true);
    const t0 = Date.now();
    await found(c, 'notes.bin', Buffer.alloc(3000, 5), HOUR_AGO);
    await later(SETTLE_MS / 2);
    expect(files).toEqual([]);
    await waitFor(() => files.length === 1, 10_000, 'the unvouched file after its settle time');
    expect(taken.get('notes.bin')! - t0).toBeGreaterThanOrEqual(SETTLE_MS);
    c.reset();
  });

  it('does not take a WAV cut short, and takes it whole once the copy that resumed is done', async () => {
    const { c, files } = checker(true);
    const file = await found(c, 'stalled.wav', wav(8000, 2000), HOUR_AGO);
    await later(SETTLE_MS / 2);
    expect(files).toEqual([]);
    await appendFile(file, Buffer.alloc(6000, 7));
    await waitFor(() => files.length === 1, 4 * SETTLE_MS + 5000, 'the completed WAV');
    expect(files.map((f) => f.size)).toEqual([8044]);
    c.reset();
  });

  it('waits out the settle time on a drive not known to be local, whose clock may not be this one', async () => {
    const { c, files, taken } = checker(false);
    const t0 = Date.now();
    await found(c, 'on a share.wav', wav(4000), HOUR_AGO);
    await waitFor(() => files.length === 1, 10_000, 'the WAV after its settle time');
    expect(taken.get('on a share.wav')! - t0).toBeGreaterThanOrEqual(SETTLE_MS);
    c.reset();
  });

  it('waits out the settle time when it was modified just now or its time is ahead of this clock', async () => {
    const { c, files, taken } = checker(true);
    const t0 = Date.now();
    await found(c, 'just written.wav', wav(4000), new Date());
    await found(c, 'from the future.wav', wav(4000), new Date(Date.now() + 3_600_000));
    await waitFor(() => files.length === 2, 10_000, 'both WAVs after their settle time');
    for (const name of ['just written.wav', 'from the future.wav'])
      expect(taken.get(name)! - t0).toBeGreaterThanOrEqual(SETTLE_MS);
    c.reset();
  });
});

describe('judgeSettled for a file not watched here', () => {
  const facts = { size: 10, whole: true, unchangedMs: 0, mtimeAgeMs: 3_600_000, unwatched: true };
  const local = { slowVolume: false, networkSettleMs: 0 };
  it('takes it only when its container vouches; time alone is not enough', () => {
    expect(judgeSettled({ ...facts, vouched: true }, local)).toEqual({ kind: 'take' });
    expect(judgeSettled({ ...facts, vouched: false }, local)).toEqual({ kind: 'wait' });
    expect(judgeSettled({ ...facts, vouched: false, unwatched: false }, local)).toEqual({ kind: 'take' });
    expect(judgeSettled({ ...facts, whole: false, vouched: true }, local)).toEqual({ kind: 'wait' });
  });
});

describe('a file the first walk on a local drive lists by name alone (settle-checker.ts `offerName`)', () => {
  async function named(c: SettleChecker, name: string, bytes: Buffer, mtime: Date): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    await utimes(file, mtime, mtime);
    c.offerName(file);
    return file;
  }

  it('is taken at once when quiet and whole, with the size, time and inode of its own stat', async () => {
    const { c, files } = checker(true);
    const t0 = Date.now();
    const file = await named(c, 'interview.wav', wav(4000), HOUR_AGO);
    await waitFor(() => files.length === 1, 5000, 'the quiet WAV');
    expect(Date.now() - t0).toBeLessThan(SETTLE_MS / 2);
    const s = await stat(file);
    expect(files[0]).toMatchObject({ path: file, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
    c.reset();
  });

  it('waits out the settle time when it was written a moment ago, whole or not', async () => {
    const { c, files, taken } = checker(true);
    const t0 = Date.now();
    await named(c, 'fresh.wav', wav(4000), new Date());
    await later(SETTLE_MS / 2);
    expect(files).toEqual([]);
    await waitFor(() => files.length === 1, 10_000, 'the fresh WAV after its settle time');
    expect(taken.get('fresh.wav')! - t0).toBeGreaterThanOrEqual(SETTLE_MS);
    c.reset();
  });

  it('once reported before a pause, is taken again only if it changed meanwhile', async () => {
    const { c, files } = checker(true);
    const same = await named(c, 'same.wav', wav(4000), HOUR_AGO);
    const changed = await named(c, 'changed.wav', wav(4000), HOUR_AGO);
    await waitFor(() => files.length === 2, 5000, 'both quiet WAVs');
    // Paused: what was reported stays reported. One file is replaced while the folder is paused.
    c.reset();
    await writeFile(changed, wav(8000));
    const earlier = new Date(Date.now() - 1_800_000);
    await utimes(changed, earlier, earlier);
    c.offerName(same);
    c.offerName(changed);
    await waitFor(() => files.length === 3, 10_000, 'the changed WAV');
    await later(200);
    expect(files.map((f) => path.basename(f.path))).toEqual(['same.wav', 'changed.wav', 'changed.wav']);
    expect(files[2]).toMatchObject({ path: changed, size: 8044 });
    c.reset();
  });
});
