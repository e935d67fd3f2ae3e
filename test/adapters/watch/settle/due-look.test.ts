// A file the walk found is looked at again once its settle time is up: that look opens the file at
// once and judges it by the descriptor's own stat (settle-checker.ts `checkOpened`). What a stat
// first used to catch must still be caught: a file that grew, one that went, one whose name is now
// a folder or a FIFO (which, opened for reading without O_NONBLOCK, would hang the thread for good).
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReader, openReaderNow } from '../../../../main/media/byte-reader.js';
import { SettleChecker, type DetectedFile } from '../../../../main/adapters/watch/settle/settle-checker.js';
import { tempDir, waitFor } from '../watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sluice-due-look-'));
});
afterEach(async () => {
  await cleanup();
});

const SETTLE_MS = 150;
const fifoOk = process.platform !== 'win32';

function checker(local: boolean): { c: SettleChecker; files: DetectedFile[]; problems: string[]; done: string[] } {
  const files: DetectedFile[] = [];
  const problems: string[] = [];
  const done: string[] = [];
  const c = new SettleChecker({
    folderId: 'f',
    settleMs: SETTLE_MS,
    now: Date.now,
    onFile: (f) => files.push(f),
    onProblem: (p, m) => problems.push(`${path.basename(p)}: ${m}`),
    onDoneWaiting: (w) => {
      if ('path' in w) done.push(path.basename(w.path));
    },
  });
  c.setLocalVolume(local);
  return { c, files, problems, done };
}

/** Offers the file as the walk does: with the stat it made. */
async function offer(c: SettleChecker, file: string): Promise<void> {
  const s = await stat(file);
  c.offer({ path: file, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
}

const wav = (bytes: number): Buffer => Buffer.alloc(bytes, 3);
const later = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.each([
  ['on this thread', true],
  ['through the thread pool', false],
])('the look when a file’s settle time is up (%s)', (_name, local) => {
  it('takes an unchanged file once, with the size and inode the open file has', async () => {
    const file = path.join(dir, 'take 1.bin');
    await writeFile(file, wav(700));
    const { c, files } = checker(local);
    await offer(c, file);
    await waitFor(() => files.length === 1, 5000, 'the file to be taken');
    await later(SETTLE_MS * 2);
    const s = await stat(file);
    expect(files).toEqual([{ folderId: 'f', path: file, size: 700, mtimeMs: s.mtimeMs, ino: s.ino }]);
    c.reset();
  });

  it('does not take a file that grew meanwhile at its old size: it waits again and takes the whole file', async () => {
    const file = path.join(dir, 'growing.bin');
    await writeFile(file, wav(500));
    const { c, files } = checker(local);
    await offer(c, file);
    await later(SETTLE_MS / 3);
    await appendFile(file, wav(250));
    await waitFor(() => files.length === 1, 5000, 'the grown file to be taken');
    await later(SETTLE_MS * 2);
    expect(files.map((f) => f.size)).toEqual([750]);
    c.reset();
  });

  it('drops a file that went, and one whose name is now a folder', async () => {
    const gone = path.join(dir, 'gone.bin');
    const folder = path.join(dir, 'now a folder.bin');
    const kept = path.join(dir, 'kept.bin');
    for (const f of [gone, folder, kept]) await writeFile(f, wav(300));
    const { c, files, problems, done } = checker(local);
    for (const f of [gone, folder, kept]) await offer(c, f);
    await rm(gone);
    await rm(folder);
    await mkdir(folder);
    await waitFor(() => files.length === 1 && done.length >= 3, 5000, 'the looks to end');
    await later(SETTLE_MS * 2);
    expect(files.map((f) => path.basename(f.path))).toEqual(['kept.bin']);
    expect(problems).toEqual([]);
    expect(c.knows(gone)).toBe(false);
    expect(c.knows(folder)).toBe(false);
    c.reset();
  });

  it.skipIf(!fifoOk)('does not hang on a name that became a FIFO, and goes on with the other files', async () => {
    const pipe = path.join(dir, 'pipe.bin');
    const after = path.join(dir, 'after.bin');
    await writeFile(pipe, wav(300));
    await writeFile(after, wav(300));
    const { c, files } = checker(local);
    await offer(c, pipe);
    await offer(c, after);
    await rm(pipe);
    execFileSync('mkfifo', [pipe]);
    await waitFor(() => files.length === 1, 5000, 'the other file to be taken');
    await later(SETTLE_MS * 2);
    expect(files.map((f) => path.basename(f.path))).toEqual(['after.bin']);
    c.reset();
  });
});

describe.skipIf(!fifoOk)('opening a FIFO to read', () => {
  it('returns at once with no writer, and its stat says it is not a file', async () => {
    const pipe = path.join(dir, 'p');
    execFileSync('mkfifo', [pipe]);
    const now = openReaderNow(pipe);
    expect((await now.fileStat()).isFile()).toBe(false);
    await now.close();
    const pooled = await openReader(pipe);
    expect((await pooled.fileStat()).isFile()).toBe(false);
    await pooled.close();
  });
});
