// One watch folder's life: its events (folder-events.ts) plus a periodic walk feed the settle
// checker; the folder going missing and coming back; pause and resume. Whether a reported file is
// new to the history is the engine's call (classifyDetected); here a path+size+mtime is reported once.
import path from 'node:path';
import type { FolderStatus } from '../../../engine/events.js';
import type { WatchFolder } from '../../../engine/settings.js';
import { readsAtOnce, slowToSettle } from '../../../engine/file-system-kind.js';
import { EventBurst } from './event-burst.js';
import { FolderEvents } from './folder-events.js';
import { folderFileSystem } from './file-system-kind.js';
import { folderRules, rootProblem, scanFolder, type FolderRules } from './folder-scan.js';
import type { FolderWatchStatus, FolderWatcherOptions } from './folder-watcher-types.js';
import { ReadAhead } from '../settle/read-ahead.js';
import { SettleChecker } from '../settle/settle-checker.js';
import type { ScannedFile } from '../settle/settle-types.js';

export type { DetectedFile } from '../settle/settle-checker.js';
export type { FolderWatchStatus, FolderWatcherOptions } from './folder-watcher-types.js';

export class FolderWatcher {
  private readonly root: string;
  private readonly rules: FolderRules;
  /** Its settle checks; the manager's Retry asks it to look at a file again (`recheck`). */
  readonly checker: SettleChecker;
  private gen = 0;
  private running = false;
  /** Folder found and being watched in this generation (events attached when enabled, first walk done). */
  private up = false;
  /** Its file-system events (folder-events.ts), set up after the first walk. */
  private readonly events: FolderEvents;
  private timers: NodeJS.Timeout[] = [];
  private scanning: { gen: number; done: Promise<void> } | undefined;
  private polling = false;
  private status: FolderWatchStatus;
  /**
   * What the last complete or partial walk found, kept only while a Rescan waits to say what it
   * was: held after every walk, a 100,000-file folder's list was 9 MB nobody read.
   */
  private lastFiles: ScannedFile[] | undefined;
  private filesWanted = 0;
  private lastDirs: string[] | undefined;
  /** The first walk's reading ahead, stopped at once by a teardown. */
  private ahead: ReadAhead | undefined;
  /** The next walk is the first since the watch was set up: it lists files by name (`namesOnly`). */
  private fresh = false;
  /** Reads the folder again for names not seen after a burst of events that may have overflowed. */
  private readonly burst = new EventBurst(() => void this.lookAgain(this.gen, this.root));

  constructor(
    readonly folder: WatchFolder,
    private readonly o: FolderWatcherOptions,
  ) {
    this.root = path.resolve(folder.path);
    this.rules = folderRules({ ...folder, path: this.root }, o.resultExtensions);
    this.checker = new SettleChecker({
      folderId: folder.id,
      settleMs: o.settleMs,
      ...(o.networkSettleMs !== undefined ? { networkSettleMs: o.networkSettleMs } : {}),
      ...(o.incompleteAfterMs !== undefined ? { incompleteAfterMs: o.incompleteAfterMs } : {}),
      now: o.now,
      onFile: (f) => o.onFile(f),
      onProblem: (p, m, skip) => o.onProblem(folder.id, p, m, skip),
      onWaiting: (p, size) => o.onWaiting?.(folder.id, p, size),
      onDoneWaiting: (which) => o.onDoneWaiting?.(folder.id, which),
      ...(o.fingerprint ? { fingerprint: o.fingerprint } : {}),
    });
    this.status = { folderId: folder.id, state: 'paused', since: o.now() };
    this.events = new FolderEvents({
      root: this.root,
      rules: this.rules,
      usePolling: o.usePolling,
      newDirRereadMs: o.newDirRereadMs,
      checker: this.checker,
      live: (gen) => gen === this.gen && this.up,
      burst: () => this.burst.event(),
      rootGone: (gen) => void this.poll(gen),
      readAgain: (gen, dir) => void this.lookAgain(gen, dir),
      failed: (gen, m) => {
        if (gen !== this.gen) return;
        this.setStatus('error', `Watching is degraded (${m}); new files are still found by the periodic rescan.`);
      },
    });
  }

  get current(): FolderWatchStatus {
    return this.status;
  }

  /** Starts (or resumes) watching; resolves after the first walk, or once the folder is found missing. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const gen = ++this.gen;
    this.every(this.o.existPollMs, () => void this.poll(gen));
    this.every(this.o.rescanIntervalMs, () => void this.rescan(gen));
    await this.poll(gen);
  }

  async stop(state: 'paused' | 'closed', message?: string): Promise<void> {
    this.running = false;
    this.gen++;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.teardown();
    if (state === 'paused') this.setStatus('paused', message);
  }

  /** Walks the folder now (after a pause the caller resumes instead); answers the files the walk found. */
  async rescanNow(): Promise<ScannedFile[] | undefined> {
    if (!this.running) return undefined;
    this.filesWanted++;
    try {
      if (this.up) await this.rescan(this.gen);
      else await this.poll(this.gen);
      // Joined a first walk, which stat'ed nothing: the next one does.
      if (this.up && this.lastFiles === undefined) await this.rescan(this.gen);
      return this.lastFiles;
    } finally {
      if (--this.filesWanted === 0) this.lastFiles = undefined;
    }
  }

  private every(ms: number, fn: () => void): void {
    const t = setInterval(fn, ms);
    t.unref();
    this.timers.push(t);
  }

  /** Existence check: up → (re)attach events and walk; gone → detach and say so. */
  private async poll(gen: number): Promise<void> {
    if (this.polling || gen !== this.gen) return;
    this.polling = true;
    try {
      const problem = await rootProblem(this.root);
      if (gen !== this.gen) return;
      if (problem !== undefined) {
        if (this.up) await this.teardown();
        if (gen === this.gen) this.setStatus(problem.state, problem.message);
      } else if (!this.up) {
        this.up = true;
        this.fresh = true;
        this.setStatus('scanning');
        // Before the first walk: a share's files must not be taken at the local settle time.
        const kind = await (this.o.fileSystem ?? folderFileSystem)(this.root).catch(() => undefined);
        if (kind) {
          this.checker.setSlowVolume(slowToSettle(kind));
          this.checker.setLocalVolume(readsAtOnce(kind));
        }
        // The walk goes first and alone, so files are taken from the first folder read on:
        // chokidar setting up its watches reads (and lstats) the whole tree too, and beside the
        // walk it doubled the work and the garbage of a 100,000-file start. A file landing in a
        // folder after the walk read it but before its watch was set would be missed: once the
        // watches are in place, the folders are read again for names not seen yet (nothing seen
        // is stat'ed twice).
        await this.rescan(gen);
        if (this.o.events && gen === this.gen && this.up) {
          await this.events.attach(gen, this.lastDirs);
          if (gen === this.gen && this.up) await this.lookAgain(gen, this.root);
        }
      }
    } finally {
      this.polling = false;
    }
  }

  private async teardown(): Promise<void> {
    const closing = this.events.detach();
    this.burst.stop();
    void this.ahead?.close();
    this.ahead = undefined;
    this.up = false;
    this.checker.reset();
    await closing();
  }

  private async rescan(gen: number): Promise<void> {
    // A walk of an older generation (before a pause) is discarded, so it is not a reason to skip.
    while (this.scanning) {
      if (this.scanning.gen === gen) return this.scanning.done;
      await this.scanning.done;
    }
    if (!this.up || gen !== this.gen) return;
    const run = (async () => {
      let res;
      // The first walk on a local drive lists files by name: each one's look fstats it anyway.
      const namesOnly = this.fresh && this.checker.onThread.on();
      this.fresh = false;
      // Its files read ahead of their looks when they are found not cached (read-ahead.ts).
      let cold = false;
      const ahead = namesOnly
        ? (this.ahead = new ReadAhead({
            onVerdict: (c) => (cold = c),
            pass: (paths) => {
              if (gen === this.gen) for (const p of paths) this.checker.offerName(p);
            },
          }))
        : undefined;
      try {
        res = await scanFolder(this.root, this.rules, {
          // Offered as each folder is read: the first files settle while the walk goes on.
          onFiles: (files) => {
            if (gen === this.gen) for (const f of files) this.checker.offer(f);
          },
          namesOnly,
          // Passed on to their looks by the read-ahead, once it knows whether they are cached.
          onNames: (paths) => {
            if (gen === this.gen) ahead?.add(paths);
          },
          eager: () => cold,
          // A stop (SIGTERM, pause) ends even a walk of 100,000 files within one folder's read.
          aborted: () => gen !== this.gen,
          atOnce: this.checker.onThread,
          room: () => this.checker.room(),
        });
      } catch {
        if (gen === this.gen) await this.poll(gen).catch(() => undefined);
        return;
      } finally {
        ahead?.end();
      }
      if (gen !== this.gen) return;
      if (this.filesWanted > 0) this.lastFiles = namesOnly ? undefined : res.files;
      this.lastDirs = res.dirs;
      if (res.complete) {
        const seen = new Set([...res.names, ...res.files.map((f) => f.path), ...res.problems.map((p) => p.path)]);
        this.checker.prune(seen);
        this.o.onWalked?.(this.folder.id, seen);
      }
      for (const pr of res.problems)
        this.checker.problem(pr.path, pr.message, pr.message, pr.skip && { reason: pr.skip });
      const state = this.status.state === 'scanning' ? 'watching' : this.status.state;
      const count = res.files.length + res.names.length;
      if (state !== this.status.state || this.status.fileCount !== count)
        this.setStatus(state, this.status.message, count);
    })();
    const mine = { gen, done: run.catch(() => undefined) };
    this.scanning = mine;
    try {
      await run;
    } finally {
      if (this.scanning === mine) this.scanning = undefined;
    }
  }

  /** Reads a folder (and below) for files not seen yet; what it finds is judged like any other. */
  private async lookAgain(gen: number, from: string): Promise<void> {
    if (gen !== this.gen || !this.up) return;
    const res = await scanFolder(this.root, this.rules, {
      from,
      known: (p) => this.checker.knows(p),
      atOnce: this.checker.onThread,
      onFiles: (files) => {
        if (gen === this.gen) for (const f of files) this.checker.offer(f);
      },
      aborted: () => gen !== this.gen,
    }).catch(() => undefined);
    // Folders made inside a new folder before its watch was set are reported by no one.
    for (const d of res?.dirs ?? []) this.events.watchDir(gen, d);
  }

  private setStatus(state: FolderStatus, message?: string, fileCount = this.status.fileCount): void {
    const s = this.status;
    if (s.state === state && s.message === message && s.fileCount === fileCount) return;
    this.status = {
      folderId: this.folder.id,
      state,
      since: s.state === state ? s.since : this.o.now(),
      ...(message !== undefined ? { message } : {}),
      ...(fileCount !== undefined ? { fileCount } : {}),
    };
    this.o.onStatus(this.status);
  }
}
