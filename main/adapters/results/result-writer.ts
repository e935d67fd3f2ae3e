// Writes results beside the source: atomically (temporary file + fsync + rename, so a reader never
// sees half a file) and never over a file Sluice did not write.
import { randomBytes } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import { link, open, readdir, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fitName, fitStem } from './name-fit.js';
import { claimTemps, removeTemp, sweepLeftoverTemps } from './temp-leftovers.js';

/** Suffix of Sluice's temporary files; the watcher never takes them. */
export const TEMP_SUFFIX = '.sluice-tmp';

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** Who wrote what: answered from the job history (every result a job wrote is recorded there). */
export interface Ownership {
  isOurs(filePath: string, current: FileStamp): boolean | Promise<boolean>;
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
  if (e instanceof ResultWriteError) return e;
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
    ENAMETOOLONG: `the path is too long for the file system (move the source to a shorter folder path)`,
  };
  const reason = (code && why[code]) ?? (e instanceof Error ? e.message : String(e));
  return new ResultWriteError(`Could not write ${path.basename(target)}: ${reason}.`, code);
}

/**
 * The temporary file for `target`. With a writer tag (the job's id) the name is fixed for that
 * writer, so what a crash left behind is found and replaced when the job writes again; only that
 * job, in the one engine that holds the state folder, ever uses the name. Without one it is random.
 * `kind` 'old' names the copy of the file being replaced, kept until every file of the write is in
 * place. The name is fitted to the file system's limit (see name-fit.ts).
 */
export function tempPathFor(target: string, writer?: string, kind: 'new' | 'old' = 'new'): string {
  const tag = (writer ?? randomBytes(4).toString('hex')) + (kind === 'old' ? '-old' : '');
  const { name } = fitName(`.${path.basename(target)}`, `.${tag}${TEMP_SUFFIX}`);
  return path.join(path.dirname(target), name);
}

export interface WriteOptions {
  /** Tags the temporary names (see tempPathFor). */
  writer?: string;
  /** Permission bits of new files (before the umask); default 0o644. */
  mode?: number;
}

/** Writes `data` to `target` through a temporary file in the same folder, then renames it over. */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: WriteOptions | string = {},
): Promise<FileStamp> {
  const [stamp] = await writeFilesAtomic([{ target, data }], options);
  return stamp!;
}

/**
 * Writes every file or none. Each goes to a temporary file first (written and flushed: a full
 * disk, a read-only folder or a name that is too long fails here, with nothing in place yet); only
 * when all are ready are they renamed over their targets. Should a rename fail, those already
 * renamed are put back as they were (the file they replaced, kept through a hard link) or removed.
 */
export async function writeFilesAtomic(
  files: ReadonlyArray<{ target: string; data: string | Uint8Array }>,
  options: WriteOptions | string = {},
): Promise<FileStamp[]> {
  const { writer, mode = 0o644 } = typeof options === 'string' ? { writer: options } : options;
  const names = files.map((f) => ({ tmp: tempPathFor(f.target, writer), old: tempPathFor(f.target, writer, 'old') }));
  const release = claimTemps(names.flatMap((n) => [n.tmp, n.old]));
  try {
    return await writeStaged(files, names, writer !== undefined, mode);
  } finally {
    release();
  }
}

async function writeStaged(
  files: ReadonlyArray<{ target: string; data: string | Uint8Array }>,
  names: ReadonlyArray<{ tmp: string; old: string }>,
  fixedNames: boolean,
  mode: number,
): Promise<FileStamp[]> {
  const staged: Array<{ target: string; tmp: string; old: string; kept: boolean }> = [];
  let current = files[0]?.target ?? '';
  try {
    for (const [i, f] of files.entries()) {
      current = f.target;
      const { tmp, old } = names[i]!;
      staged.push({ target: f.target, tmp, old, kept: false });
      await writeTemp(tmp, f.data, fixedNames, mode);
    }
  } catch (e) {
    await Promise.all(staged.map((s) => removeTemp(s.tmp)));
    throw explainWriteError(e, current);
  }
  let placed = 0;
  try {
    for (const s of staged) {
      current = s.target;
      s.kept = await keepOld(s.target, s.old, fixedNames);
      await rename(s.tmp, s.target);
      placed++;
    }
  } catch (e) {
    for (const s of staged.slice(0, placed)) {
      if (s.kept) await rename(s.old, s.target).catch(() => undefined);
      else await unlink(s.target).catch(() => undefined);
    }
    await Promise.all(staged.slice(placed).map((s) => removeTemp(s.tmp)));
    await Promise.all(staged.filter((s) => s.kept).map((s) => removeTemp(s.old)));
    throw explainWriteError(e, current);
  }
  await Promise.all(staged.filter((s) => s.kept).map((s) => removeTemp(s.old)));
  // A folder takes writes again: what an earlier failed clean-up left goes now.
  void sweepLeftoverTemps();
  for (const dir of new Set(staged.map((s) => path.dirname(s.target)))) await fsyncDir(dir);
  const stamps: FileStamp[] = [];
  for (const s of staged) {
    const st = await stat(s.target);
    stamps.push({ size: st.size, mtimeMs: st.mtimeMs });
  }
  return stamps;
}

async function writeTemp(tmp: string, data: string | Uint8Array, fixedName: boolean, mode: number): Promise<void> {
  // A leftover of this writer's own interrupted write: nobody else writes under this name.
  if (fixedName) await unlink(tmp).catch(() => undefined);
  let handle: FileHandle | undefined = await open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * A hard link to the file about to be replaced, so a write that fails part-way can put it back.
 * False when there is none, or the file system has no hard links (FAT, some network drives): the
 * file is then removed rather than restored on failure.
 */
async function keepOld(target: string, old: string, fixedName: boolean): Promise<boolean> {
  if (fixedName) await unlink(old).catch(() => undefined);
  try {
    await link(target, old);
    return true;
  } catch {
    return false;
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
 * source, or `{name}.{ext}.{format}` when the first is held by a file Sluice did not write. A name
 * past the file system's limit is shortened (`shortened`; see name-fit.ts), to one stem for every
 * suffix in `suffixes` (all of the job's formats) leaving `room` bytes of suffix, so one clip's
 * results share it.
 * Returns null when both are held by others. On the fallback, `heldBy` is the file holding the usual
 * name when it has exactly that name (a caption file the editor changed by hand), which the editor
 * may choose to overwrite; a holder of another case (a drone's telemetry `.SRT`) is never offered.
 */
export async function chooseOutputPath(
  sourcePath: string,
  baseName: string,
  format: string,
  owned: Ownership,
  content?: string | Uint8Array,
  suffixes: readonly string[] = [`.${format}`],
  room?: number,
  /**
   * Tried before `{name}.{source ext}.{format}` when the first name is held in another case only
   * (caption-names.ts).
   */
  alternative?: string,
): Promise<{ path: string; collided: boolean; shortened?: true; heldBy?: string } | null> {
  const dir = path.dirname(sourcePath);
  const { ext } = nameParts(sourcePath);
  const named = (stem: string) => {
    const fit = fitStem(stem, [...suffixes, `.${format}`], room);
    return { name: `${fit.stem}.${format}`, shortened: fit.shortened };
  };
  const first = named(baseName);
  const second = named(ext ? `${baseName}.${ext}` : `${baseName}.sluice`);
  const entries = await readdir(dir).catch(() => [] as string[]);
  if (!(await heldByAnother(dir, first.name, entries, owned, content))) {
    return {
      path: path.join(dir, first.name),
      collided: false,
      ...(first.shortened ? { shortened: true as const } : {}),
    };
  }
  const exact = await stat(path.join(dir, first.name)).catch(() => null);
  const onlyExact = entries.filter((e) => foldedName(e) === foldedName(first.name)).every((e) => e === first.name);
  // Only against a name in another case (a drone's `.SRT`): captions the editor changed by hand under
  // the very name keep their `{name}.{ext}.srt` copy, which the review offers to put back in place.
  const sameName = !!exact?.isFile() && onlyExact;
  const inAnotherCaseOnly = !entries.includes(first.name);
  const alt =
    alternative === undefined || !inAnotherCaseOnly
      ? undefined
      : fitStem(baseName, [...suffixes, `.${alternative}`], room);
  const chosen =
    alt && !(await heldByAnother(dir, `${alt.stem}.${alternative}`, entries, owned, content))
      ? { name: `${alt.stem}.${alternative}`, shortened: alt.shortened }
      : second;
  if (chosen === second && (await heldByAnother(dir, second.name, entries, owned, content))) return null;
  return {
    path: path.join(dir, chosen.name),
    collided: true,
    ...(chosen.shortened ? { shortened: true as const } : {}),
    ...(sameName ? { heldBy: path.join(dir, first.name) } : {}),
  };
}

/** The same name, as a file system that ignores case (macOS, Windows, exFAT) or composition (macOS) sees it. */
const foldedName = (name: string): string => name.normalize('NFC').toLowerCase();

/**
 * The clash decision, in one place: whether `name` in `dir` is held by a file Sluice may not
 * replace. Any file there whose name is the same whatever the case or composition counts
 * (`DJI_0001_D.SRT`, the drone's telemetry, holds `DJI_0001_D.srt` on macOS, Windows and exFAT,
 * and a player beside it on Linux picks both up). A holder is free only when it is Sluice's own
 * (stamp unchanged, see Ownership) or holds exactly `content`: what a write interrupted between
 * its rename and its record in the history left behind, so rewriting it loses nothing.
 */
export async function heldByAnother(
  dir: string,
  name: string,
  entries: readonly string[],
  owned: Ownership,
  content?: string | Uint8Array,
): Promise<boolean> {
  const folded = foldedName(name);
  const holders = new Set(entries.filter((e) => foldedName(e) === folded));
  holders.add(name);
  for (const holder of holders) {
    const full = path.join(dir, holder);
    const current = await stat(full).catch(() => null);
    if (!current) continue;
    if (await owned.isOurs(full, { size: current.size, mtimeMs: current.mtimeMs })) continue;
    if (content !== undefined && holder === name && (await holdsExactly(full, current.size, content))) continue;
    return true;
  }
  return false;
}

async function holdsExactly(file: string, size: number, content: string | Uint8Array): Promise<boolean> {
  const expected = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  if (size !== expected.length) return false;
  const actual = await readFile(file).catch(() => null);
  return actual !== null && actual.equals(expected);
}
