// Identity of a source file, and what to do when the watcher reports it again, or reports the same
// content under another name (a rename while logging, a copy, a file dropped twice).

export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
  /**
   * Present when content identity is on (the default); then it decides alone. Either a fingerprint
   * (`fp1:` + SHA-256 of the size and the first, middle and last MiB: FINGERPRINT_PREFIX) or the
   * SHA-256 of the whole file (bare hex), as Settings chose when the file was taken.
   */
  contentHash?: string;
}

/** Marks a fast fingerprint, so it is never compared with a whole-file hash. */
export const FINGERPRINT_PREFIX = 'fp1:';

const hashKind = (h: string): string => (h.startsWith(FINGERPRINT_PREFIX) ? 'fingerprint' : 'sha256');

/**
 * Same bytes? A hash of the same kind on both sides is proof either way (a fingerprint reads the
 * size and three MiB: a rewrite that keeps the size and all three is the one it misses; the full
 * hash option exists for that). Without one, size + mtime is the usual heuristic (rsync, make).
 * mtime is compared to the millisecond: some file systems round sub-millisecond parts on copy.
 */
export function sameContent(a: FileIdentity, b: FileIdentity): boolean {
  if (
    a.contentHash !== undefined &&
    b.contentHash !== undefined &&
    hashKind(a.contentHash) === hashKind(b.contentHash)
  ) {
    return a.contentHash === b.contentHash;
  }
  return a.size === b.size && Math.floor(a.mtimeMs) === Math.floor(b.mtimeMs);
}

/** A job that holds the same content as a file seen under a new path. */
export interface ContentTwin {
  jobId: string;
  source: FileIdentity;
  /** Where the job's file is now (`currentPath`): after a rename, its new name, not the one it was taken under. */
  path: string;
  state: 'active' | 'completed' | 'ended';
  /** Whether the file the job took is still where the job says (its source, or where it was moved). */
  stillThere: boolean;
}

export type ContentDecision =
  /** Nothing known holds these bytes: judge the path as usual. */
  | { kind: 'none' }
  /** The same bytes are queued or done under another name that still exists: one job, not two. */
  | { kind: 'same-job'; jobId: string }
  /** The finished file was renamed or moved: its results follow the new name, nothing is processed. */
  | { kind: 'renamed'; jobId: string };

/**
 * Note: one file, one bill across names. A finished file whose old name is gone was renamed or
 * moved; the same bytes under the same name elsewhere are the same file again. A failed, canceled
 * or expired job's bytes may be taken again (that is how an editor retries by hand).
 */
export function classifyByContent(detected: FileIdentity, twin: ContentTwin | undefined): ContentDecision {
  if (!twin || detected.contentHash === undefined || twin.source.contentHash !== detected.contentHash)
    return { kind: 'none' };
  if (twin.state === 'ended') return { kind: 'none' };
  if (twin.state === 'completed' && !twin.stillThere) return { kind: 'renamed', jobId: twin.jobId };
  // Both still there: the same file twice (dropped again, a card copied to a second place) keeps its
  // name; the same bytes under another name beside the first are a copy someone made on purpose.
  // The name compared is the one the job's file has now: a clip renamed while logging and found
  // again at its new name (a restart, a rescan) is the same file, not a copy of its old name.
  if (baseName(detected.path) !== baseName(twin.path)) return { kind: 'none' };
  return { kind: 'same-job', jobId: twin.jobId };
}

const baseName = (p: string): string => (p.split(/[\\/]/).pop() ?? p).normalize('NFC');

/**
 * Where a result follows its renamed source: results named after the old file's stem take the new
 * stem (`C0002.srt` → `C0002_Mueller.srt`, beside the new name); others stay where they are (null).
 */
export function followedResultName(oldSourceBase: string, newSourceBase: string, resultBase: string): string | null {
  const stem = (b: string): string => (b.lastIndexOf('.') > 0 ? b.slice(0, b.lastIndexOf('.')) : b);
  const from = stem(oldSourceBase);
  if (!resultBase.startsWith(from)) return null;
  const rest = resultBase.slice(from.length);
  // `C0002.srt`, `C0002.MP4.srt` (a fallback name), `C0002.en.srt`: the stem must end there.
  if (rest !== '' && !rest.startsWith('.') && !rest.startsWith('_') && !rest.startsWith('-')) return null;
  const newStem = stem(newSourceBase);
  return newStem + rest;
}

/** The latest job known for a path (any state), as far as this decision needs it. */
export interface KnownFile {
  jobId: string;
  source: FileIdentity;
}

export type DetectionDecision =
  | { kind: 'new' }
  /** Already taken (done, running, failed or canceled): a rescan or restart must not re-enqueue it. */
  | { kind: 'unchanged'; jobId: string }
  /** Same path, different content: process again as a new job. */
  | { kind: 'changed'; jobId: string };

export function classifyDetected(detected: FileIdentity, known: KnownFile | undefined): DetectionDecision {
  if (!known) return { kind: 'new' };
  return sameContent(detected, known.source)
    ? { kind: 'unchanged', jobId: known.jobId }
    : { kind: 'changed', jobId: known.jobId };
}
