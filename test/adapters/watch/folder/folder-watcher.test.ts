import { execFileSync } from 'node:child_process';
import { appendFile, chmod, mkdir, open, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync, openSync, closeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderFileSystem } from '../../../../main/adapters/watch/folder/file-system-kind.js';
import { folder, lastState, recorder, sleep, tempDir, waitFor, type Recorder } from '../watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let r: Recorder | undefined;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await r?.manager.close();
  r = undefined;
  await cleanup();
});

const isRoot = process.getuid?.() === 0;
/**
 * A slow copy: a chunk every SLOW_COPY_GAP_MS, each gap well inside the settle time (a loaded
 * machine stretches a gap, so the margin is most of the settle time).
 */
const SLOW_COPY_GAP_MS = 150;
const SLOW_COPY_SETTLE_MS = 700;

describe('FolderWatcher via WatchManager', () => {
  it('takes a slow chunked copy once, only after the last chunk', async () => {
    r = recorder({ settleMs: SLOW_COPY_SETTLE_MS });
    await r.manager.set([folder(dir)]);
    const p = path.join(dir, 'slow.mp4');
    const h = await open(p, 'w');
    let lastWrite = 0;
    for (let i = 0; i < 8; i++) {
      // Not zeros from byte 0: those are a reserved copy not written yet (container-layout.ts).
      await h.write(Buffer.alloc(64 * 1024, i + 1));
      lastWrite = Date.now();
      await sleep(SLOW_COPY_GAP_MS);
    }
    await h.close();
    await waitFor(() => r!.files.length > 0, 5000, 'detection');
    await r.quiet();
    expect(r.files).toHaveLength(1);
    const f = r.files[0]!;
    expect(f.size).toBe(8 * 64 * 1024);
    expect(f.at - lastWrite).toBeGreaterThanOrEqual(SLOW_COPY_SETTLE_MS * 0.9);
  });

  it('does not take a pre-allocated file while its mtime still moves', async () => {
    r = recorder({ settleMs: SLOW_COPY_SETTLE_MS });
    await r.manager.set([folder(dir)]);
    const p = path.join(dir, 'prealloc.mov');
    const size = 8 * 64 * 1024;
    const h = await open(p, 'w');
    await h.truncate(size); // Explorer-style: full size first, content later
    let lastWrite = 0;
    for (let i = 0; i < 8; i++) {
      await sleep(SLOW_COPY_GAP_MS);
      await h.write(Buffer.alloc(64 * 1024, 1), 0, 64 * 1024, i * 64 * 1024);
      lastWrite = Date.now();
    }
    await h.close();
    await waitFor(() => r!.files.length > 0, 5000, 'detection');
    await r.quiet();
    expect(r.files).toHaveLength(1);
    expect(r.files[0]!.size).toBe(size);
    expect(r.files[0]!.at - lastWrite).toBeGreaterThanOrEqual(SLOW_COPY_SETTLE_MS * 0.9);
  });

  it('makes duplicate events and rescans harmless, and reports a real change again', async () => {
    r = recorder();
    await r.manager.set([folder(dir)]);
    const p = path.join(dir, 'dup.wav');
    await writeFile(p, 'abc');
    // Whole-millisecond mtimes, so re-setting one below is exact (Date has no sub-ms part).
    let mtime = new Date('2024-05-01T10:00:00Z');
    await utimes(p, mtime, mtime);
    await waitFor(() => r!.count(p) === 1);
    expect((await stat(p)).mtimeMs).toBe(mtime.getTime());
    // Each round: touches that change nothing, then a real change at once after them. chokidar
    // drops an event within 5 ms of the one before, so the change is found by the look that
    // follows any event on a reported file, not by a periodic rescan (one round missed it about
    // 1 in 3 before).
    for (let round = 1; round <= 4; round++) {
      for (let i = 0; i < 5; i++) {
        await utimes(p, new Date(), mtime); // an event without a change of size or mtime
        await r.manager.rescanNow();
      }
      await r.quiet();
      expect(r.count(p)).toBe(round);
      mtime = new Date(mtime.getTime() + 60_000);
      await appendFile(p, 'more');
      await utimes(p, new Date(), mtime);
      await waitFor(() => r!.count(p) === round + 1, 5000, `the file changed in round ${round} reported again`);
      expect([r.files.at(-1)!.size, r.files.at(-1)!.mtimeMs]).toEqual([3 + 4 * round, mtime.getTime()]);
    }
    await r.quiet();
    expect(r.count(p)).toBe(5);
  });

  it('ignores partial downloads, temp, office lock, dot and result files, dot folders and FIFOs', async () => {
    r = recorder();
    await r.manager.set([folder(dir)]);
    const ignored = [
      'a.mp4.part',
      'b.crdownload',
      'c.tmp',
      '~$report.docx',
      '.hidden.mp4',
      'd.json',
      'e.SRT',
      '.x.json.1a2b.sluice-tmp',
    ];
    for (const n of ignored) await writeFile(path.join(dir, n), 'x');
    await mkdir(path.join(dir, '.git'));
    await writeFile(path.join(dir, '.git', 'obj.mp4'), 'x');
    execFileSync('mkfifo', [path.join(dir, 'pipe.mp4')]);
    await writeFile(path.join(dir, 'real.mp4'), 'x');
    await waitFor(() => r!.files.length >= 1);
    // The walk offers only what passes the rules; events pass the same rules.
    const [walked] = await r.manager.rescanNow();
    expect(walked!.files.map((f) => path.basename(f.path))).toEqual(['real.mp4']);
    await r.quiet();
    expect(r.files.map((f) => path.basename(f.path))).toEqual(['real.mp4']);
  });

  it('a Rescan asked during the first walk (which lists names alone) answers every file with its size', async () => {
    for (let d = 0; d < 15; d++) {
      await mkdir(path.join(dir, `roll ${d}`));
      for (let i = 0; i < 100; i++) await writeFile(path.join(dir, `roll ${d}`, `take ${i}.mp4`), Buffer.alloc(700, 1));
    }
    let asked: Promise<Array<{ files: Array<{ size: number }> }>> | undefined;
    let stateWhenAsked: string | undefined;
    r = recorder({
      // The first walk starts as the folder's file system is known: the Rescan is asked right behind it.
      fileSystem: async (d) => {
        const kind = await folderFileSystem(d);
        setImmediate(() => {
          stateWhenAsked = lastState(r!);
          asked = r!.manager.rescanNow();
        });
        return kind;
      },
    });
    await r.manager.set([folder(dir)]);
    await waitFor(() => asked !== undefined, 10_000, 'the walk to start');
    expect(stateWhenAsked).toBe('scanning');
    const [walked] = await asked!;
    expect(walked!.files).toHaveLength(1500);
    expect(walked!.files.every((f) => f.size === 700)).toBe(true);
  });

  it('a partial download renamed to its final name is taken under the final name', async () => {
    r = recorder();
    await r.manager.set([folder(dir)]);
    await writeFile(path.join(dir, 'movie.mkv.crdownload'), 'x'.repeat(1000));
    // Seen by a walk and passed over: the rename below is what brings the file in.
    const [walked] = await r.manager.rescanNow();
    expect(walked!.files).toEqual([]);
    expect(r.files).toEqual([]);
    await rename(path.join(dir, 'movie.mkv.crdownload'), path.join(dir, 'movie.mkv'));
    await waitFor(() => r!.files.length === 1);
    expect(r.files[0]!.path).toBe(path.join(dir, 'movie.mkv'));
  });

  it('applies include and exclude globs relative to the folder', async () => {
    r = recorder();
    await r.manager.set([folder(dir, { include: ['*.mp4', 'audio/**/*.wav'], exclude: ['skip/**', '*-draft.mp4'] })]);
    await mkdir(path.join(dir, 'skip'));
    await mkdir(path.join(dir, 'audio', 'x'), { recursive: true });
    const files = ['a.mp4', 'b.mov', 'skip/c.mp4', 'cut-draft.mp4', 'audio/x/d.wav', 'e.wav', 'audio/f.mp4'];
    for (const f of files) await writeFile(path.join(dir, f), 'x');
    await waitFor(() => r!.files.length >= 3);
    await r.quiet();
    const got = r.files.map((f) => path.relative(dir, f.path)).sort();
    expect(got).toEqual(['a.mp4', 'audio/f.mp4', 'audio/x/d.wav']);
  });

  it('non-recursive: files in subfolders are not taken, by events or by rescan', async () => {
    r = recorder();
    await r.manager.set([folder(dir, { recursive: false })]);
    await mkdir(path.join(dir, 'sub'));
    await writeFile(path.join(dir, 'sub', 'deep.mp4'), 'x');
    await writeFile(path.join(dir, 'top.mp4'), 'x');
    await waitFor(() => r!.files.length >= 1);
    await r.quiet();
    expect(r.files.map((f) => path.basename(f.path))).toEqual(['top.mp4']);
  });

  it('skips the done/failed folders of a move post-action', async () => {
    r = recorder();
    await r.manager.set([folder(dir, { postAction: { kind: 'move', doneDir: 'done', failedDir: 'failed' } })]);
    await mkdir(path.join(dir, 'done'));
    await writeFile(path.join(dir, 'done', 'old.mp4'), 'x');
    await writeFile(path.join(dir, 'new.mp4'), 'x');
    await waitFor(() => r!.files.length >= 1);
    await r.quiet();
    expect(r.files.map((f) => path.basename(f.path))).toEqual(['new.mp4']);
  });

  it('reports a deleted folder as unavailable and picks it up again when it returns', async () => {
    const sub = path.join(dir, 'share');
    await mkdir(sub);
    r = recorder();
    await r.manager.set([folder(sub)]);
    expect(lastState(r)).toBe('watching');
    await rm(sub, { recursive: true });
    await waitFor(() => lastState(r!) === 'unavailable', 3000, 'unavailable');
    expect(r.statuses.at(-1)!.message).toMatch(/not found/i);
    await mkdir(sub);
    await writeFile(path.join(sub, 'back.mp4'), 'x');
    await waitFor(() => r!.files.length === 1, 5000, 'file after return');
    expect(lastState(r)).toBe('watching');
    // Events work again after the return, not only the walk.
    await writeFile(path.join(sub, 'later.mp4'), 'y');
    await waitFor(() => r!.files.length === 2, 3000, 'event after return');
  });

  it('a folder missing at start is reported and watched once it appears', async () => {
    const sub = path.join(dir, 'not-yet');
    r = recorder();
    await r.manager.set([folder(sub)]);
    expect(lastState(r)).toBe('unavailable');
    await mkdir(sub);
    await writeFile(path.join(sub, 'x.mp4'), 'x');
    await waitFor(() => r!.files.length === 1, 5000);
  });

  it('the periodic rescan finds files when no events arrive', async () => {
    r = recorder({ events: false, rescanIntervalMs: 300 });
    await r.manager.set([folder(dir)]);
    await mkdir(path.join(dir, 'a', 'b'), { recursive: true });
    await writeFile(path.join(dir, 'a', 'b', 'net.mp4'), 'x');
    await waitFor(() => r!.files.length === 1, 5000);
    // Two more walks (what the timer runs) find nothing new.
    await r.quiet();
    await r.quiet();
    expect(r.files).toHaveLength(1);
  });

  it('a file created while paused is found on resume, not before', async () => {
    const paused = path.join(dir, 'paused');
    const live = path.join(dir, 'live');
    await mkdir(paused);
    await mkdir(live);
    r = recorder();
    await r.manager.set([folder(paused), folder(live, {}, 'f2')]);
    await r.manager.pause('f1');
    expect(lastState(r)).toBe('paused');
    await writeFile(path.join(paused, 'while-paused.mp4'), 'x');
    // A file written after it in a folder still watched: once that one is taken, the paused
    // folder's would have been too.
    await writeFile(path.join(live, 'meanwhile.mp4'), 'x');
    await waitFor(() => r!.files.length === 1, 5000, "the watched folder's file");
    await r.quiet();
    expect(r.files.map((f) => path.basename(f.path))).toEqual(['meanwhile.mp4']);
    await r.manager.resume('f1');
    await waitFor(() => r!.files.length === 2);
    expect(r.files.at(-1)!.path).toBe(path.join(paused, 'while-paused.mp4'));
    expect(lastState(r)).toBe('watching');
  });

  it.skipIf(isRoot)('an unreadable file is reported once as a problem, and taken once readable', async () => {
    r = recorder({ rescanIntervalMs: 300 });
    await r.manager.set([folder(dir)]);
    const p = path.join(dir, 'locked.mp4');
    await writeFile(p, 'x');
    await chmod(p, 0o000);
    await waitFor(() => r!.problems.length === 1);
    await r.manager.rescanNow();
    await r.manager.rescanNow();
    expect(r.problems).toHaveLength(1);
    expect(r.files).toHaveLength(0);
    await chmod(p, 0o644);
    await waitFor(() => r!.files.length === 1);
  });

  // As root chmod blocks nothing; a write-only sysfs attribute refuses O_RDONLY even to root.
  const sysWriteOnly = '/sys/bus/pci/rescan';
  const sysUnreadable =
    existsSync(sysWriteOnly) &&
    (() => {
      try {
        closeSync(openSync(sysWriteOnly, 'r'));
        return false;
      } catch {
        return true;
      }
    })();
  it.skipIf(!sysUnreadable)(
    'a regular file that refuses reads (via a link) is a problem, not a detection',
    async () => {
      r = recorder({ rescanIntervalMs: 300 });
      await r.manager.set([folder(dir)]);
      await symlink(sysWriteOnly, path.join(dir, 'device.mp4'));
      await writeFile(path.join(dir, 'fine.mp4'), 'x');
      await waitFor(() => r!.problems.length === 1 && r!.files.length === 1, 5000);
      // Several rescans: still one problem.
      await r.manager.rescanNow();
      await r.manager.rescanNow();
      expect(r.problems).toHaveLength(1);
      expect(r.problems[0]!.message).toMatch(/EACCES|permission/i);
      expect(r.files.map((f) => path.basename(f.path))).toEqual(['fine.mp4']);
    },
  );

  it('symlink loops and links to folders do not hang; links to files are taken', async () => {
    const outside = path.join(dir, 'outside');
    const w = path.join(dir, 'w');
    await mkdir(outside);
    await mkdir(w);
    await writeFile(path.join(outside, 'target.mp4'), 'x');
    await symlink(path.join(w, 'l2'), path.join(w, 'l1'));
    await symlink(path.join(w, 'l1'), path.join(w, 'l2'));
    await symlink(w, path.join(w, 'self'));
    await symlink(outside, path.join(w, 'out-dir'));
    await symlink('/', path.join(w, 'root'));
    await symlink(path.join(outside, 'target.mp4'), path.join(w, 'linked.mp4'));
    r = recorder({ rescanIntervalMs: 200 });
    const t0 = Date.now();
    await r.manager.set([folder(w)]);
    await waitFor(() => r!.files.length === 1);
    await r.manager.rescanNow();
    expect(Date.now() - t0).toBeLessThan(5000);
    await r.quiet();
    expect(r.files.map((f) => path.basename(f.path))).toEqual(['linked.mp4']);
    expect(lastState(r)).toBe('watching');
  });

  it('handles names with spaces and non-Latin characters', async () => {
    r = recorder();
    await r.manager.set([folder(dir)]);
    const names = [
      'my holiday clip.mp4',
      'Überraschung ü.wav',
      '日本語のビデオ.mov',
      'Ωmega — final (2).mkv',
      'émoji 🎬.mp4',
    ];
    await mkdir(path.join(dir, 'папка с файлами'));
    for (const n of names) await writeFile(path.join(dir, n), n);
    await writeFile(path.join(dir, 'папка с файлами', 'видео.mp4'), 'x');
    await waitFor(() => r!.files.length === names.length + 1);
    const got = new Set(r.files.map((f) => path.relative(dir, f.path)));
    for (const n of names) expect(got.has(n)).toBe(true);
    expect(got.has(path.join('папка с файлами', 'видео.mp4'))).toBe(true);
  });
  it('keeps one native watch per folder, not per file, and still sees a change in a subfolder by its events', async () => {
    const nativeWatches = (): number => process.getActiveResourcesInfo().filter((x) => x === 'FSEventWrap').length;
    const before = nativeWatches();
    for (let d = 0; d < 3; d++) {
      await mkdir(path.join(dir, `roll-${d}`));
      for (let i = 0; i < 20; i++) await writeFile(path.join(dir, `roll-${d}`, `take ${i}.wav`), `x${i}`);
    }
    r = recorder();
    await r.manager.set([folder(dir)]);
    await waitFor(() => r!.files.length === 60);
    await waitFor(() => nativeWatches() - before === 4, 5000, 'the watches of the root and its three folders');
    // No periodic rescan runs within this test: only a folder's event can report the change.
    const p = path.join(dir, 'roll-1', 'take 3.wav');
    await appendFile(p, 'more');
    await waitFor(() => r!.count(p) === 2, 5000, 'the changed file reported again');
    expect(nativeWatches() - before).toBe(4);
  });
  it('watches folders made inside a new folder, so a file landing deep in a card copied later is seen by its events', async () => {
    const nativeWatches = (): number => process.getActiveResourcesInfo().filter((x) => x === 'FSEventWrap').length;
    // The new folder is read again after 50 and 100 ms (not 300 and 2000): the test waits less.
    r = recorder({ newDirRereadMs: [50, 100] });
    await r.manager.set([folder(dir)]);
    await waitFor(() => r!.statuses.some((s) => s.state === 'watching'), 5000, 'the first walk');
    const before = nativeWatches();
    // A card copied in: its folders appear at once, its clips much later (after the second looks).
    const deep = path.join(dir, 'CARD_A', 'PRIVATE', 'M4ROOT', 'CLIP');
    await mkdir(deep, { recursive: true });
    // Each of the four new folders has its watch (the looks found the ones inside CARD_A)…
    await waitFor(() => nativeWatches() - before === 4, 5000, 'the watches of the four new folders');
    // …and the last look is over (100 ms after CARD_A appeared; a little more for a folder inside).
    await sleep(150);
    const p = path.join(deep, 'C0001.MP4');
    await writeFile(p, 'clip');
    // No periodic rescan runs within this test: only the new folder's own watch can report it.
    await waitFor(() => r!.count(p) === 1, 5000, 'the clip in the new nested folder');
    await appendFile(p, 'more');
    await waitFor(() => r!.count(p) === 2, 5000, 'the changed clip reported again');
  });
});
