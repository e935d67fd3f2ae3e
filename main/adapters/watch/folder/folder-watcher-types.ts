// What a watch folder's watcher is given and what it tells of the folder (folder-watcher.ts).
import type { FolderStatus } from '../../../engine/events.js';
import type { FileSystemKind } from '../../../engine/file-system-kind.js';
import type { RescanSummary } from '../../../engine/rescan-summary.js';
import type { DetectedFile, Fingerprinter, ProblemSkip, WaitingDone } from '../settle/settle-types.js';

/** `unavailable`: the folder is gone (unmounted, deleted); it is polled for and taken up again. */
export interface FolderWatchStatus {
  folderId: string;
  state: FolderStatus;
  message?: string;
  since: number;
  fileCount?: number;
  /** What the last Rescan the user asked for found. */
  lastRescan?: RescanSummary;
}

export interface FolderWatcherOptions {
  settleMs: number;
  /** For a folder on a network drive (see SettleChecker). */
  networkSettleMs?: number;
  /** Which file system the folder is on; read each time the folder comes up. */
  fileSystem?: (dir: string) => Promise<FileSystemKind>;
  rescanIntervalMs: number;
  /** A file unchanged this long and not whole is said never to be whole (settled-memory.ts). */
  incompleteAfterMs?: number;
  /** How often a missing folder is looked for (and a present one checked). */
  existPollMs: number;
  /** When a folder that just appeared is read again (default in folder-events.ts). */
  newDirRereadMs?: readonly number[];
  resultExtensions: readonly string[];
  now: () => number;
  usePolling: boolean;
  /** false: rescans only (tests; shares where events never arrive). */
  events: boolean;
  onFile(f: DetectedFile): void;
  onStatus(s: FolderWatchStatus): void;
  /** Once per path and state of the file: it settled but cannot be read, or is left (`skip`: why). */
  onProblem(folderId: string, filePath: string, message: string, skip?: ProblemSkip): void;
  /** After a complete walk: every path it found (files, and links to nowhere), so lists can follow the folder. */
  onWalked?(folderId: string, seen: ReadonlySet<string>): void;
  onWaiting?(folderId: string, filePath: string, size: number): void;
  onDoneWaiting?(folderId: string, which: WaitingDone): void;
  fingerprint?: Fingerprinter;
}
