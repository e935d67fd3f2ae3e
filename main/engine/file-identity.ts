// Identity of a source file, and what to do when the watcher reports it again.

export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
  /** Present only when content hashing is on; then it decides alone. */
  contentHash?: string;
}

/**
 * Same bytes? A hash on both sides is proof either way. Without one, size + mtime is the usual
 * heuristic (rsync, make): a rewrite that keeps both is missed, which hashing exists to catch.
 * mtime is compared to the millisecond: some file systems round sub-millisecond parts on copy.
 */
export function sameContent(a: FileIdentity, b: FileIdentity): boolean {
  if (a.contentHash !== undefined && b.contentHash !== undefined) return a.contentHash === b.contentHash;
  return a.size === b.size && Math.floor(a.mtimeMs) === Math.floor(b.mtimeMs);
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
