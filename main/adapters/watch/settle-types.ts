// What a watch folder's settle checker reports and is given: the files it found complete, which
// stopped waiting, and the fingerprint read through the handle its check holds open.
import type { ByteReader, OpenReader } from '../media/byte-reader.js';

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

export interface SettleCheckerOptions {
  folderId: string;
  settleMs: number;
  now: () => number;
  onFile(f: DetectedFile): void;
  /** `notWhole`: the file stopped changing but is not a whole media file (it is not waited on as a copy). */
  onProblem(path: string, message: string, kind?: 'notWhole'): void;
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
