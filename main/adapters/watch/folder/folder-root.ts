// A watched folder's root is never made by Sluice. A share that went away (unmounted, moved, a
// dropped network drive) leaves its path missing, or an empty local mount point: a recursive mkdir
// there would stand the path up again as a local folder and fill it with claims and results that
// hide the share when it returns (reliability-2026-12, defect 1). Folders are made only below a
// root that is there and not empty, one level at a time.
import { mkdir, opendir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Thrown when the folder something was to be written under is not there: the folder is offline. */
export class FolderAwayError extends Error {
  readonly code = 'ENOENT';
  constructor(readonly root: string) {
    super(`The folder ${root} is not there (a share that went away?); nothing is written until it returns.`);
  }
}

/**
 * Whether the folder is there: a folder with at least one entry. An empty folder is what an
 * unmounted share leaves at its mount point on Linux; a watched folder holding nothing has
 * nothing to claim or write results beside either.
 */
export async function rootPresent(root: string): Promise<boolean> {
  const s = await stat(root).catch(() => undefined);
  if (!s?.isDirectory()) return false;
  const dir = await opendir(root).catch(() => undefined);
  if (!dir) return false;
  try {
    return (await dir.read()) !== null;
  } finally {
    await dir.close().catch(() => undefined);
  }
}

/**
 * Makes `target` and the folders between it and `base`, never `base` itself nor anything above it:
 * a missing base throws FolderAwayError. `target` must be `base` or below it.
 */
export async function mkdirBelow(base: string, target: string): Promise<void> {
  const rel = path.relative(base, target);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`${target} is not inside ${base}.`);
  const s = await stat(base).catch(() => undefined);
  if (!s?.isDirectory()) throw new FolderAwayError(base);
  let at = base;
  for (const part of rel.split(path.sep).filter((p) => p !== '')) {
    at = path.join(at, part);
    try {
      await mkdir(at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw code === 'ENOENT' ? new FolderAwayError(base) : e;
    }
  }
}
