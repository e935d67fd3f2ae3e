// The set of watch folders, kept in step with the settings without a restart: `set` diffs the list
// and only restarts a folder whose watching-relevant fields changed (template or output changes
// touch nothing here). A user pause is separate from `enabled`, so a settings save keeps it.
import type { WatchFolder } from '../../../engine/settings.js';
import { DEFAULT_NETWORK_SETTLE_MS, DEFAULT_SETTLE_MS } from '../../../engine/settle.js';
import type { ScannedFile } from '../settle/settle-types.js';
import { FolderWatcher, type FolderWatchStatus } from './folder-watcher.js';
import type { FolderWatcherOptions } from './folder-watcher-types.js';
import type { DetectedFile, Fingerprinter, WaitingDone } from '../settle/settle-checker.js';
import type { ProblemSkip } from '../settle/settle-types.js';
import { DEFAULT_INCOMPLETE_AFTER_MS } from '../settle/settled-memory.js';

export type { FolderWatchStatus } from './folder-watcher.js';
export type { DetectedFile, WaitingDone } from '../settle/settle-checker.js';

/** The times a folder's watcher is made with; a change makes the folder's watcher anew. */
export interface WatchTiming {
  settleMs?: number;
  networkSettleMs?: number;
  rescanIntervalMs?: number;
  /** A file unchanged this long and not whole is said never to be whole (settled-memory.ts). */
  incompleteAfterMs?: number;
}

export interface WatchManagerOptions extends WatchTiming {
  /**
   * The times as the settings say now, read on every `set`: a settle time changed in Settings
   * applies without a restart (the fixed fields above are the fallback).
   */
  timing?: () => WatchTiming;
  existPollMs?: number;
  /** When a folder that just appeared is read again (tests; the default suits a loaded machine). */
  newDirRereadMs?: readonly number[];
  /** What kind of file system a folder is on (default: asked of the system, file-system-kind.ts). */
  fileSystem?: FolderWatcherOptions['fileSystem'];
  resultExtensions: readonly string[];
  now?: () => number;
  usePolling?: boolean;
  /** false = no file-system events, only the periodic rescan. */
  events?: boolean;
  onFile(f: DetectedFile): void;
  onStatus(s: FolderWatchStatus): void;
  onProblem?(folderId: string, path: string, message: string, skip?: ProblemSkip): void;
  onWalked?: FolderWatcherOptions['onWalked'];
  onWaiting?(folderId: string, path: string, size: number): void;
  onDoneWaiting?(folderId: string, which: WaitingDone): void;
  /** Fingerprints settled files through their settle check's handle (see settle-checker.ts). */
  fingerprint?: Fingerprinter;
}

export const DEFAULT_RESCAN_INTERVAL_MS = 60_000;
export const DEFAULT_EXIST_POLL_MS = 3_000;

interface Slot {
  key: string;
  folder: WatchFolder;
  watcher: FolderWatcher;
}

/** What, when changed, needs a fresh watcher (paths, filters, where done files go, its times). */
function watchKey(f: WatchFolder, t: Required<WatchTiming>): string {
  return JSON.stringify([f.path, f.include, f.exclude, f.recursive, f.postAction, t]);
}

export class WatchManager {
  private readonly slots = new Map<string, Slot>();
  private readonly userPaused = new Set<string>();
  /** set/pause/resume/close run one at a time: a settings save during a start must not interleave. */
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly o: WatchManagerOptions) {}

  private timing(): Required<WatchTiming> {
    const now = this.o.timing?.() ?? {};
    return {
      settleMs: now.settleMs ?? this.o.settleMs ?? DEFAULT_SETTLE_MS,
      networkSettleMs: now.networkSettleMs ?? this.o.networkSettleMs ?? DEFAULT_NETWORK_SETTLE_MS,
      rescanIntervalMs: now.rescanIntervalMs ?? this.o.rescanIntervalMs ?? DEFAULT_RESCAN_INTERVAL_MS,
      incompleteAfterMs: now.incompleteAfterMs ?? this.o.incompleteAfterMs ?? DEFAULT_INCOMPLETE_AFTER_MS,
    };
  }

  set(folders: readonly WatchFolder[]): Promise<void> {
    return this.serial(async () => {
      const next = new Map(folders.map((f) => [f.id, f]));
      const timing = this.timing();
      const gone = [...this.slots.values()].filter((s) => {
        const f = next.get(s.folder.id);
        return f === undefined || watchKey(f, timing) !== s.key;
      });
      await Promise.all(gone.map((s) => s.watcher.stop('closed')));
      for (const s of gone) this.slots.delete(s.folder.id);
      for (const id of this.userPaused) if (!next.has(id)) this.userPaused.delete(id);
      await Promise.all(
        [...next.values()].map(async (f) => {
          let slot = this.slots.get(f.id);
          if (!slot) {
            slot = { key: watchKey(f, timing), folder: f, watcher: this.create(f, timing) };
            this.slots.set(f.id, slot);
          }
          slot.folder = f;
          await this.apply(slot);
        }),
      );
    });
  }

  pause(id: string): Promise<void> {
    return this.serial(async () => {
      this.userPaused.add(id);
      const s = this.slots.get(id);
      if (s) await this.apply(s);
    });
  }

  resume(id: string): Promise<void> {
    return this.serial(async () => {
      this.userPaused.delete(id);
      const s = this.slots.get(id);
      if (s) await this.apply(s);
    });
  }

  /** Walk one folder (or all) now: the "Rescan" button, or after the app wakes from sleep. */
  async rescanNow(id?: string): Promise<Array<{ folderId: string; files: ScannedFile[] }>> {
    const targets = [...this.slots.values()].filter((s) => id === undefined || s.folder.id === id);
    const found = await Promise.all(
      targets.map(async (s) => ({ folderId: s.folder.id, files: await s.watcher.rescanNow() })),
    );
    return found.flatMap((f) => (f.files ? [{ folderId: f.folderId, files: f.files }] : []));
  }

  /** Retry of a file a folder left (not whole, empty): looked at now, taken if whole. False: no such folder watched. */
  recheck(id: string, file: string): boolean {
    const s = this.slots.get(id);
    s?.watcher.checker.recheck(file);
    return s !== undefined;
  }

  statuses(): FolderWatchStatus[] {
    return [...this.slots.values()].map((s) => s.watcher.current);
  }

  /**
   * Stops every folder at once, not after what the chain is doing: that may be the first walk of
   * a huge folder, which a stop (SIGTERM) must end within seconds, not wait for.
   */
  close(): Promise<void> {
    this.closed = true;
    const now = Promise.all([...this.slots.values()].map((s) => s.watcher.stop('closed')));
    const run = this.chain.then(async () => {
      await now;
      await Promise.all([...this.slots.values()].map((s) => s.watcher.stop('closed')));
      this.slots.clear();
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async apply(s: Slot): Promise<void> {
    if (this.closed) return;
    if (!s.folder.enabled) await s.watcher.stop('paused', 'Turned off in settings.');
    else if (this.userPaused.has(s.folder.id)) await s.watcher.stop('paused');
    else await s.watcher.start();
  }

  private create(f: WatchFolder, t: Required<WatchTiming>): FolderWatcher {
    const o = this.o;
    return new FolderWatcher(f, {
      settleMs: t.settleMs,
      networkSettleMs: t.networkSettleMs,
      rescanIntervalMs: t.rescanIntervalMs,
      incompleteAfterMs: t.incompleteAfterMs,
      existPollMs: o.existPollMs ?? DEFAULT_EXIST_POLL_MS,
      ...(o.newDirRereadMs ? { newDirRereadMs: o.newDirRereadMs } : {}),
      ...(o.fileSystem ? { fileSystem: o.fileSystem } : {}),
      resultExtensions: o.resultExtensions,
      now: o.now ?? Date.now,
      usePolling: o.usePolling ?? false,
      events: o.events ?? true,
      onFile: (d) => o.onFile(d),
      onStatus: (st) => o.onStatus(st),
      onProblem: (id, p, m, skip) => o.onProblem?.(id, p, m, skip),
      onWalked: (id, seen) => o.onWalked?.(id, seen),
      onWaiting: (id, p, size) => o.onWaiting?.(id, p, size),
      onDoneWaiting: (id, which) => o.onDoneWaiting?.(id, which),
      ...(o.fingerprint ? { fingerprint: o.fingerprint } : {}),
    });
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    const run = this.chain.then(() => (this.closed ? undefined : fn()));
    this.chain = run.catch(() => undefined);
    return run;
  }
}
