// Writes results beside the source: atomically (temporary file + fsync + rename, so a reader never
// sees half a file) and never over a file Sluice did not write.
import { randomBytes } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import { open, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** Suffix of Sluice's temporary files; the watcher never takes them. */
export const TEMP_SUFFIX = '.sluice-tmp';

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** Who wrote what: answered from the job history (every result a job wrote is recorded there). */
export interface Ownership {
  isOurs(filePath: string, current: FileStamp): boolean;
}

export class ResultWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'ResultWriteError';
  }
}

export function explainWriteError(e: unknown, target: string): ResultWriteError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const dir = path.dirname(target);
  const why: Record<string, string> = {
    EACCES: `the folder ${dir} is not writable (permission denied)`,
    EPERM: `the folder ${dir} is not writable (operation not permitted)`,
    EROFS: `the folder ${dir} is on a read-only drive`,
    ENOSPC: `the disk holding ${dir} is full`,
    EDQUOT: `the disk quota for ${dir} is exhausted`,
    EBUSY: `${path.basename(target)} is in use by another program (a sync client may hold it)`,
    ETXTBSY: `${path.basename(target)} is in use by another program`,
    ENOENT: `the folder ${dir} no longer exists`,
  };
  const reason = (code && why[code]) ?? (e instanceof Error ? e.message : String(e));
  return new ResultWriteError(`Could not write ${path.basename(target)}: ${reason}.`, code);
}

/**
 * The temporary file for `target`. With a writer tag (the job's id) the name is fixed for that
 * writer, so what a crash left behind is found and replaced when the job writes again; only that
 * job, in the one engine that holds the state folder, ever uses the name. Without one it is random.
 */
export function tempPathFor(target: string, writer?: string): string {
  const tag = writer ?? randomBytes(4).toString('hex');
  return path.join(path.dirname(target), `.${path.basename(target)}.${tag}${TEMP_SUFFIX}`);
}

/** Writes `data` to `target` through a temporary file in the same folder, then renames it over. */
export async function writeFileAtomic(target: string, data: string | Uint8Array, writer?: string): Promise<FileStamp> {
  const tmp = tempPathFor(target, writer);
  let handle: FileHandle | undefined;
  try {
    // A leftover of this writer's own interrupted write: nobody else writes under this name.
    if (writer !== undefined) await unlink(tmp).catch(() => undefined);
    handle = await open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 0o644);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, target);
    await fsyncDir(path.dirname(target));
    const s = await stat(target);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw explainWriteError(e, target);
  }
}

async function fsyncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; not supported on every platform (Windows), hence best effort.
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    /* best effort */
  }
}

export interface NameParts {
  /** Source file name without its extension. */
  name: string;
  /** Source extension without the dot ('' when none). */
  ext: string;
}

export function nameParts(sourcePath: string): NameParts {
  const base = path.basename(sourcePath);
  const ext = path.extname(base);
  return { name: ext ? base.slice(0, -ext.length) : base, ext: ext.replace(/^\./, '') };
}

/**
 * The output path for a result format, and the collision fallback: `{name}.{format}` beside the
 * source, or `{name}.{ext}.{format}` when the first is held by a file Sluice did not write.
 * A file that already holds exactly `content` counts as free: it is what a write interrupted
 * between its rename and its record in the history left behind, and rewriting it loses nothing.
 * Returns null when both are held by others.
 */
export async function chooseOutputPath(
  sourcePath: string,
  baseName: string,
  format: string,
  owned: Ownership,
  content?: string | Uint8Array,
): Promise<{ path: string; collided: boolean } | null> {
  const dir = path.dirname(sourcePath);
  const { ext } = nameParts(sourcePath);
  const first = path.join(dir, `${baseName}.${format}`);
  const second = path.join(dir, ext ? `${baseName}.${ext}.${format}` : `${baseName}.sluice.${format}`);
  for (const [candidate, collided] of [
    [first, false],
    [second, true],
  ] as const) {
    const current = await stat(candidate).catch(() => null);
    if (
      !current ||
      owned.isOurs(candidate, { size: current.size, mtimeMs: current.mtimeMs }) ||
      (content !== undefined && (await holdsExactly(candidate, current.size, content)))
    ) {
      return { path: candidate, collided };
    }
  }
  return null;
}

async function holdsExactly(file: string, size: number, content: string | Uint8Array): Promise<boolean> {
  const expected = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  if (size !== expected.length) return false;
  const actual = await readFile(file).catch(() => null);
  return actual !== null && actual.equals(expected);
}
