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
} from '../../../main/adapters/watch/watch-manager.js';

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
  manager: WatchManager;
  count(p: string): number;
}

export function recorder(opts: Partial<Omit<WatchManagerOptions, 'onFile' | 'onStatus' | 'onProblem'>> = {}): Recorder {
  const r: Omit<Recorder, 'manager'> & { manager?: WatchManager } = {
    files: [],
    statuses: [],
    problems: [],
    count: (p) => r.files.filter((f) => f.path === p).length,
  };
  r.manager = new WatchManager({
    settleMs: 200,
    existPollMs: 200,
    resultExtensions: ['json', 'srt', 'vtt'],
    ...opts,
    onFile: (f) => r.files.push({ ...f, at: Date.now() }),
    onStatus: (s) => r.statuses.push(s),
    onProblem: (folderId, p, message) => r.problems.push({ folderId, path: p, message }),
  });
  return r as Recorder;
}

export const lastState = (r: Recorder, id = 'f1'): string | undefined =>
  r.statuses.filter((s) => s.folderId === id).at(-1)?.state;
