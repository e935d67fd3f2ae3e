// What a watch folder's settle checker reports and is given: the files it found complete, which
// stopped waiting, and the fingerprint read through the handle its check holds open.
import type { ByteReader, OpenReader } from '../../../media/byte-reader.js';

/** A file the folder walk (or an event) found, with what its stat said: what the settle checker is offered. */
export interface ScannedFile {
  path: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface DetectedFile {
  folderId: string;
  path: string;
  size: number;
  mtimeMs: number;
  ino?: number;
  /** Its content fingerprint, read through the settle check's own handle when the taker wants one. */
  contentHash?: string;
}

/**
 * The content fingerprint of a settled file through the handle its settle check opened (saving a
 * second open, stat and close per file), or undefined when none is wanted (already taken, content
 * identity off, whole-file hashing chosen: the taker reads it itself then).
 */
export type Fingerprinter = (
  file: { path: string; size: number; mtimeMs: number },
  handle: ByteReader,
  size: number,
) => Promise<string | undefined> | undefined;

/**
 * Flags of a settle checker's look (look-queue.ts). DUE: a file the settle tick handed out; its
 * look opens it at once and takes the fstat as the check (it is nearly always taken next, and a
 * stat then an open asked the disk the same twice). QUIET: a file the walk found left alone for the
 * settle time already (`offer`), looked at at once and taken only if its container vouches for it.
 */
export const DUE = 1;
export const QUIET = 2;

/** A file as it is now, for "reported as it is" and "ignored as it was": size and modification time. */
export const keyOf = (s: { size: number; mtimeMs: number }): string => `${s.size}:${s.mtimeMs}`;

/** A file left for a reason the folder's list of skips shows (engine/folder-skips.ts); `key`: size:mtime. */
export interface ProblemSkip {
  reason: 'empty' | 'never-whole' | 'dangling-link';
  key?: string;
}

export interface SettleCheckerOptions {
  folderId: string;
  settleMs: number;
  now: () => number;
  onFile(f: DetectedFile): void;
  onProblem(path: string, message: string, skip?: ProblemSkip): void;
  /** The file was seen but is not settled yet (its copy may still run); size as now. */
  onWaiting?(path: string, size: number): void;
  /** These files stopped waiting: taken, gone, or the folder stopped. */
  onDoneWaiting?(which: WaitingDone): void;
  fingerprint?: Fingerprinter;
  /**
   * How long a file must have been left alone when its container cannot show it is whole
   * (engine/settle.ts); on a network drive (said by `setSlowVolume` once known) only as seen here.
   */
  networkSettleMs?: number;
  /** How long a file may stay unchanged and not whole before it is said never to be whole (settled-memory.ts). */
  incompleteAfterMs?: number;
}

/**
 * Which files stopped waiting. Named rather than a predicate: one file taken is the common case
 * (every file of a 100,000-file folder), and a predicate would make each of them a full scan.
 */
export type WaitingDone = { path: string } | { under: string } | { all: true };

/**
 * A due look's open descriptor and the size its fstat gave, handed on to the take; `quiet`: the
 * walk found the file left alone for the settle time already (`SettleChecker.offer`).
 */
export type Opened = { handle: OpenReader; size: number; quiet?: boolean };
