// Shared fixtures for the watcher tests: a real temp folder, a manager that records what it says,
// and polling waits (real file systems, real timers).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WATCH_FOLDER, type WatchFolder } from '../../../main/engine/settings.js';
import {
  WatchManager,
  type DetectedFile,
  type FolderWatchStatus,
  type WatchManagerOptions,
} from '../../../main/adapters/watch/folder/watch-manager.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export async function tempDir(prefix = 'sluice-watch-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function folder(p: string, extra: Partial<WatchFolder> = {}, id = 'f1'): WatchFolder {
  return WATCH_FOLDER.parse({ id, path: p, ...extra });
}

export interface Recorder {
  files: Array<DetectedFile & { at: number }>;
  statuses: FolderWatchStatus[];
  problems: Array<{ folderId: string; path: string; message: string }>;
  /** Files seen and not yet settled (reported waiting, not yet taken, gone or dropped). */
  waiting: Set<string>;
  manager: WatchManager;
  count(p: string): number;
  /**
   * Walks the folders once more and waits until no file is left being judged: what a test waits
   * for before saying "nothing more was reported", instead of a fixed sleep.
   */
  quiet(timeoutMs?: number): Promise<void>;
}

export function recorder(opts: Partial<Omit<WatchManagerOptions, 'onFile' | 'onStatus' | 'onProblem'>> = {}): Recorder {
  const r: Omit<Recorder, 'manager'> & { manager?: WatchManager } = {
    files: [],
    statuses: [],
    problems: [],
    waiting: new Set(),
    count: (p) => r.files.filter((f) => f.path === p).length,
    quiet: async (timeoutMs = 5000) => {
      await r.manager!.rescanNow();
      await waitFor(() => r.waiting.size === 0, timeoutMs, 'the settle checks to finish');
    },
  };
  r.manager = new WatchManager({
    settleMs: 200,
    // The stand-in files here show no container; how long such a file waits has its own tests
    // (settle.test.ts, stalled-copy.test.ts).
    networkSettleMs: 0,
    existPollMs: 200,
    resultExtensions: ['json', 'srt', 'vtt'],
    ...opts,
    onFile: (f) => r.files.push({ ...f, at: Date.now() }),
    onStatus: (s) => r.statuses.push(s),
    onProblem: (folderId, p, message) => r.problems.push({ folderId, path: p, message }),
    onWaiting: (id, p, size) => {
      r.waiting.add(p);
      opts.onWaiting?.(id, p, size);
    },
    onDoneWaiting: (id, which) => {
      opts.onDoneWaiting?.(id, which);
      if ('path' in which) r.waiting.delete(which.path);
      else if ('under' in which) {
        for (const p of r.waiting) if (p.startsWith(which.under)) r.waiting.delete(p);
      } else r.waiting.clear();
    },
  });
  return r as Recorder;
}

export const lastState = (r: Recorder, id = 'f1'): string | undefined =>
  r.statuses.filter((s) => s.folderId === id).at(-1)?.state;
