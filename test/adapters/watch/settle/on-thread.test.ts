// On a local drive a watch folder's walk and settle checks call the file system on the watcher's
// own thread (folder-scan.ts `atOnce`, SettleChecker.setLocalVolume): they must find exactly what
// the thread-pool path finds, give way between folders, hand the slow-drive verdict on, and let a
// walk wait while the files it found are still being taken in.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintFile, fingerprintHandle } from '../../../../main/adapters/queue/fingerprint.js';
import { folderRules, scanFolder, type ScanResult } from '../../../../main/adapters/watch/folder/folder-scan.js';
import { SettleChecker, type DetectedFile } from '../../../../main/adapters/watch/settle/settle-checker.js';
import { STALL_MS, ThreadJudge, WINDOW_CALLS, WINDOW_MS } from '../../../../main/adapters/watch/settle/thread-judge.js';
import { readsAtOnce } from '../../../../main/engine/file-system-kind.js';
import { folder, tempDir, waitFor } from '../watcher-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('sluice-on-thread-'));
});
afterEach(async () => {
  await cleanup();
});

async function tree(): Promise<void> {
  for (const d of ['day 1/roll A', 'day 1/roll B', 'day 2', '.hidden', 'Ünïcode フォルダ']) {
    await mkdir(path.join(dir, d), { recursive: true });
  }
  for (const f of ['day 1/roll A/take 1.wav', 'day 1/roll B/take 2.mov', 'day 2/clip.mp3', 'day 2/clip.mp3.json']) {
    await writeFile(path.join(dir, f), Buffer.alloc(300, 1));
  }
  await writeFile(path.join(dir, '.hidden/secret.wav'), Buffer.alloc(10));
  await writeFile(path.join(dir, 'Ünïcode フォルダ/インタビュー.m4a'), Buffer.alloc(20, 2));
  await symlink(path.join(dir, 'day 2/clip.mp3'), path.join(dir, 'linked.mp3'));
  await symlink(path.join(dir, 'day 1'), path.join(dir, 'linked folder'));
  await symlink(path.join(dir, 'nowhere.wav'), path.join(dir, 'dangling.wav'));
}

const sorted = (r: ScanResult): unknown => ({
  files: r.files.map((f) => ({ ...f })).sort((a, b) => a.path.localeCompare(b.path)),
  dirs: [...r.dirs].sort(),
  complete: r.complete,
  problems: r.problems,
});

describe('a walk on this thread', () => {
  it('finds exactly what the thread-pool walk finds: links to files followed, to folders not, hidden folders and results left out', async () => {
    await tree();
    const rules = folderRules(folder(dir), ['json']);
    const pooled = await scanFolder(dir, rules);
    let asked = 0;
    const now = await scanFolder(dir, rules, {
      atOnce: {
        on: () => {
          asked++;
          return true;
        },
        took: () => undefined,
      },
    });
    expect(sorted(now)).toEqual(sorted(pooled));
    expect(now.files.map((f) => path.relative(dir, f.path)).sort()).toEqual([
      'day 1/roll A/take 1.wav',
      'day 1/roll B/take 2.mov',
      'day 2/clip.mp3',
      'linked.mp3',
      'Ünïcode フォルダ/インタビュー.m4a',
    ]);
    // Asked before each folder it read, so a slow-drive verdict reached mid-walk applies to the rest.
    expect(asked).toBe(now.dirs.length);
  });

  it('lists regular files by name alone when asked (a first walk), and still stats links to learn what they are', async () => {
    await tree();
    const rules = folderRules(folder(dir), ['json']);
    const stated = await scanFolder(dir, rules);
    const told: string[] = [];
    const named = await scanFolder(dir, rules, { namesOnly: true, onNames: (p) => told.push(...p) });
    expect([...named.names, ...named.files.map((f) => f.path)].sort()).toEqual(stated.files.map((f) => f.path).sort());
    expect(named.files.map((f) => path.relative(dir, f.path))).toEqual(['linked.mp3']);
    expect(named.names.map((p) => path.relative(dir, p)).sort()).toEqual([
      'day 1/roll A/take 1.wav',
      'day 1/roll B/take 2.mov',
      'day 2/clip.mp3',
      'Ünïcode フォルダ/インタビュー.m4a',
    ]);
    expect(told.sort()).toEqual([...named.names].sort());
    expect([...named.dirs].sort()).toEqual([...stated.dirs].sort());
    expect(stated.names).toEqual([]);
  });

  it('reads on between turns while eager (files read ahead), one folder a turn otherwise', async () => {
    for (let d = 0; d < 60; d++) {
      await mkdir(path.join(dir, `roll ${d}`));
      await writeFile(path.join(dir, `roll ${d}`, 'take.wav'), Buffer.alloc(10));
    }
    const rules = folderRules(folder(dir), ['json']);
    const turnsOf = async (eager: boolean): Promise<number> => {
      let turns = 0;
      let walking = true;
      const tick = (): void => {
        turns++;
        if (walking) setImmediate(tick);
      };
      setImmediate(tick);
      const res = await scanFolder(dir, rules, {
        namesOnly: true,
        atOnce: { on: () => true, took: () => undefined },
        eager: () => eager,
      });
      walking = false;
      expect(res.names).toHaveLength(60);
      return turns;
    };
    expect(await turnsOf(false)).toBeGreaterThanOrEqual(61);
    expect(await turnsOf(true)).toBeLessThan(30);
  });

  it('waits for room before each folder', async () => {
    await tree();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let rooms = 0;
    const seen: string[] = [];
    const walk = scanFolder(dir, folderRules(folder(dir), ['json']), {
      room: () => (++rooms === 1 ? Promise.resolve() : gate),
      onFiles: (files) => seen.push(...files.map((f) => f.path)),
    });
    // The first folder (the root) is read; then the walk asks for room again and waits there.
    await waitFor(() => rooms === 2, 10_000, 'the walk to ask for room a second time');
    await new Promise((r) => setTimeout(r, 100));
    expect(rooms).toBe(2);
    expect(seen.map((p) => path.relative(dir, p))).toEqual(['linked.mp3']);
    release();
    expect((await walk).files).toHaveLength(5);
  });
});

describe('settle checks on this thread', () => {
  function settle(file: string, local: boolean): Promise<DetectedFile> {
    return new Promise((resolve, reject) => {
      const checker = new SettleChecker({
        folderId: 'f',
        settleMs: 30,
        now: Date.now,
        fingerprint: (_f, h, s) => fingerprintHandle(h, s),
        onFile: resolve,
        onProblem: (_p, m) => reject(new Error(m)),
      });
      checker.setLocalVolume(local);
      checker.enqueue(file);
    });
  }

  it('report a file, its size and fingerprint exactly as the thread-pool checks do', async () => {
    for (const [name, size] of [
      ['small.bin', 900],
      ['large.bin', 5 * (1 << 20) + 17],
    ] as const) {
      const file = path.join(dir, name);
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7 + 1) & 0xff;
      await writeFile(file, bytes);
      const now = await settle(file, true);
      const pooled = await settle(file, false);
      expect(now).toEqual(pooled);
      expect(now.contentHash).toBe(await fingerprintFile(file));
    }
  });

  it('are made on this thread only on a drive known to be local, and never again once the drive shows it is slow', () => {
    expect(readsAtOnce({ verdict: 'local', label: 'ext4' })).toBe(true);
    expect(readsAtOnce({ verdict: 'network', label: 'SMB' })).toBe(false);
    expect(readsAtOnce({ verdict: 'maybe', label: 'FUSE' })).toBe(false);
    expect(readsAtOnce({ verdict: 'unknown' })).toBe(false);
    const checker = new SettleChecker({
      folderId: 'f',
      settleMs: 30,
      now: Date.now,
      onFile: () => undefined,
      onProblem: () => undefined,
    });
    expect(checker.onThread.on()).toBe(false);
    checker.setLocalVolume(true);
    checker.onThread.took(3);
    // A cache miss that waited on the disk's queue: not a slow drive.
    checker.onThread.took(26);
    expect(checker.onThread.on()).toBe(true);
    checker.onThread.took(STALL_MS + 1);
    expect(checker.onThread.on()).toBe(false);
    // The folder comes up again on a drive read as local: a new verdict, as slow calls turn off again.
    checker.setLocalVolume(true);
    checker.onThread.took(0.01);
    expect(checker.onThread.on()).toBe(true);
    checker.onThread.took(STALL_MS + 1);
    expect(checker.onThread.on()).toBe(false);
  });

  it('keep a walk waiting while 40,000 files wait to settle, and let it go when they are gone', async () => {
    const checker = new SettleChecker({
      folderId: 'f',
      settleMs: 60_000,
      now: Date.now,
      onFile: () => undefined,
      onProblem: () => undefined,
    });
    await checker.room();
    for (let i = 0; i <= 40_000; i++) {
      checker.offer({ path: path.join(dir, `${i}.wav`), size: 1, mtimeMs: 1, ino: i });
    }
    let free = false;
    const room = checker.room().then(() => (free = true));
    await new Promise((r) => setTimeout(r, 150));
    expect(free).toBe(false);
    checker.drop(path.join(dir, '0.wav'));
    checker.drop(path.join(dir, '1.wav'));
    await room;
    expect(free).toBe(true);
    checker.reset();
  });
});

describe('the slow-drive verdict', () => {
  const judge = (): { j: ThreadJudge; told: () => number } => {
    let n = 0;
    return { j: new ThreadJudge(() => n++), told: () => n };
  };

  it('is not reached by cache misses: a cold first look of 100,000 calls, one of them 26 ms', () => {
    const { j, told } = judge();
    for (let i = 0; i < 100_000; i++) j.took(i === 2995 ? 26 : i % 3 === 0 ? 0.08 : 0.006);
    expect(told()).toBe(0);
  });

  it('is reached by one stall, and told once', () => {
    const { j, told } = judge();
    j.took(0.01);
    j.took(STALL_MS + 0.5);
    j.took(STALL_MS * 3);
    expect(told()).toBe(1);
  });

  it('is reached by calls that each wait on the disk (a spinning disk seeking), within one window', () => {
    const { j, told } = judge();
    const each = (WINDOW_MS / WINDOW_CALLS) * 1.25;
    let calls = 0;
    while (told() === 0 && calls < 10 * WINDOW_CALLS) {
      j.took(each);
      calls++;
    }
    expect(told()).toBe(1);
    expect(calls).toBeLessThanOrEqual(WINDOW_CALLS);
  });

  it('forgets calls older than its window: slow ones spread among fast ones stay on this thread', () => {
    const { j, told } = judge();
    // Every WINDOW_CALLS-th call waits 60 ms: never more than one of them inside a window.
    for (let i = 0; i < 20 * WINDOW_CALLS; i++) j.took(i % WINDOW_CALLS === 0 ? 60 : 0.01);
    expect(told()).toBe(0);
    // Two of them within one window are over its budget (the last window's has just left it).
    j.took(60);
    expect(told()).toBe(0);
    j.took(60);
    expect(told()).toBe(1);
  });
});
