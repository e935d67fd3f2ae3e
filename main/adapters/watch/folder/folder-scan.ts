// The periodic walk of a watch folder, and the rules (shared with the event path) that decide
// which directories and files of it count. The walk is what catches what events missed (network
// shares, inotify limits, a folder that came back), so it must stay cheap on 100,000 files:
// directory entries carry their type, so only candidate files are stat'ed.
import {
  constants as fsConstants,
  promises as fsp,
  lstatSync,
  readdirSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { createFileFilter } from '../../../engine/file-filter.js';
import { timedNow } from '../../../media/byte-reader.js';
import type { FolderStatus } from '../../../engine/events.js';
import type { WatchFolder } from '../../../engine/settings.js';
import { code } from '../error-code.js';
import type { ScannedFile } from '../settle/settle-types.js';

export interface FolderRules {
  /** Relative path (either separator) of a directory: walk into it? */
  acceptDir(rel: string): boolean;
  /** Relative path of a file: a candidate? */
  acceptFile(rel: string): boolean;
  /** The same for a file of a folder `acceptDir` took already: its folder is not judged again. */
  acceptFileOfAccepted(rel: string): boolean;
  recursive: boolean;
}

/**
 * Note: a "move" post-action files finished sources into done/failed folders that usually live
 * inside the watch folder; walking them would take every finished file again under a new path.
 */
export function folderRules(
  folder: Pick<WatchFolder, 'path' | 'include' | 'exclude' | 'recursive' | 'postAction'>,
  resultExtensions: readonly string[],
  /** How the file system compares folder names (the done/failed folders to skip). */
  nocase: boolean = process.platform !== 'linux',
): FolderRules {
  const filter = createFileFilter({
    include: folder.include,
    exclude: folder.exclude,
    recursive: folder.recursive,
    resultExtensions,
  });
  const skipped: string[] = [];
  if (folder.postAction.kind === 'move') {
    for (const d of [folder.postAction.doneDir, folder.postAction.failedDir]) {
      const rel = path.relative(folder.path, path.resolve(folder.path, d));
      if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) skipped.push(norm(rel, nocase));
    }
  }
  const acceptDir = (rel: string): boolean => {
    const r = norm(rel, nocase);
    if (r === '') return true;
    if (r.split('/').some((seg) => seg.startsWith('.'))) return false;
    return !skipped.some((s) => r === s || r.startsWith(`${s}/`));
  };
  return {
    recursive: folder.recursive,
    acceptDir,
    acceptFile: (rel) => filter(rel) && acceptDir(parentOf(rel)),
    acceptFileOfAccepted: filter,
  };
}

function norm(rel: string, nocase: boolean): string {
  const r = rel
    .replace(/\\/g, '/')
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '');
  return nocase ? r.toLowerCase() : r;
}

function parentOf(rel: string): string {
  const r = rel.replace(/\\/g, '/');
  const i = r.lastIndexOf('/');
  return i < 0 ? '' : r.slice(0, i);
}

export interface ScanResult {
  files: ScannedFile[];
  /** Regular files listed by name alone, not stat'ed (`namesOnly`). */
  names: string[];
  /** Every folder read, the start first: the watcher sets its watches on these. */
  dirs: string[];
  /** False when part of the tree could not be read: absence from `files` then proves nothing. */
  complete: boolean;
  problems: Array<{ path: string; message: string; skip?: 'dangling-link' }>;
}

/** What a link to nowhere is told with (a folder's list of skips says it in full). */
export const DANGLING_WORDS = 'a link to a file that is not there; it is taken once the file it points to is back.';

const STAT_BATCH = 64;

export interface ScanOptions {
  /** Start below the root (a folder that just appeared); paths stay judged relative to the root. */
  from?: string;
  /** Each directory's files as soon as they are stat'ed: work starts while the walk goes on. */
  onFiles?(files: readonly ScannedFile[]): void;
  /**
   * Regular files are listed by name, without a stat (`names`, `onNames`): a first walk on a local
   * drive, whose every file is then opened and fstat'ed by its look anyway. Links and entries of
   * unknown type are still stat'ed to learn what they are.
   */
  namesOnly?: boolean;
  onNames?(paths: readonly string[]): void;
  /** Checked between directories: true ends the walk early, as incomplete. */
  aborted?(): boolean;
  /** Files already known are neither stat'ed nor listed (a second look for names only). */
  known?(path: string): boolean;
  /**
   * Read folders and stat files on this thread (a local drive: see the settle checker's
   * `setLocalVolume`), a folder or STAT_BATCH files at a time between turns to other work. Asked
   * before each folder; `took` hears how long each call held the thread.
   */
  atOnce?: { on(): boolean; took(ms: number): void };
  /** Awaited before each folder: resolves when what the walk found so far has been taken in. */
  room?(): Promise<void>;
  /**
   * Asked before each folder: read on for up to EAGER_SLICE_MS before turning to other work, not
   * one folder per turn (a first walk's files are being read ahead of their looks, read-ahead.ts,
   * which needs the names well before the looks come to them).
   */
  eager?(): boolean;
}

/** Lets the thread turn to other work (events, the intake, a window's requests) before going on. */
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
/** An eager walk's longest run on this thread between turns: the looks' own slice (look-queue.ts). */
const EAGER_SLICE_MS = 8;

/** Throws only when the root itself cannot be read (missing, not a folder, no permission). */
export async function scanFolder(root: string, rules: FolderRules, o: ScanOptions = {}): Promise<ScanResult> {
  const out: ScanResult = { files: [], names: [], dirs: [], complete: true, problems: [] };
  const start = o.from ?? root;
  const dirs: string[] = [start];
  // Every path here is a folder's path and an entry's name, so a name is joined and a path made
  // relative by string alone: path.join and path.relative normalise each of 100,000 names again.
  const rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
  const relOf = (full: string): string =>
    full.startsWith(rootPrefix) ? full.slice(rootPrefix.length) : path.relative(root, full);
  const childOf = (dir: string, name: string): string => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);
  // The walk enters only folders acceptDir took, so their files are judged by the filter alone;
  // a start below the root (a folder that appeared) is judged once here.
  const acceptHere = rules.acceptDir(relOf(start)) ? rules.acceptFileOfAccepted : rules.acceptFile;
  let turned = performance.now();
  for (let d = dirs.pop(); d !== undefined; d = dirs.pop()) {
    if (o.aborted?.()) {
      out.complete = false;
      break;
    }
    const found = out.files.length;
    const named = out.names.length;
    if (o.room) await o.room();
    const now = o.atOnce?.on() ? o.atOnce : undefined;
    let entries: Dirent[];
    try {
      if (now && !(o.eager?.() && performance.now() - turned < EAGER_SLICE_MS)) {
        await turn();
        turned = performance.now();
      }
      entries = now ? timedNow(() => readdirSync(d, { withFileTypes: true }), now.took) : await readDir(d);
    } catch (e) {
      if (d === start) throw e;
      if (code(e) !== 'ENOENT') {
        out.complete = false;
        out.problems.push({ path: d, message: `Cannot read folder: ${(e as Error).message}` });
      }
      continue;
    }
    out.dirs.push(d);
    const candidates: Array<{ full: string; rel: string; known: boolean; link: boolean }> = [];
    for (const ent of entries) {
      const full = childOf(d, ent.name);
      const rel = relOf(full);
      if (ent.isDirectory()) {
        if (rules.recursive && rules.acceptDir(rel)) dirs.push(full);
      } else if (o.known?.(full)) {
        continue;
      } else if (o.namesOnly && ent.isFile()) {
        if (acceptHere(rel)) out.names.push(full);
      } else if (acceptHere(rel) || (!ent.isFile() && !ent.isSymbolicLink())) {
        // Unknown entry types (some network file systems) are lstat'ed to learn what they are.
        candidates.push({ full, rel, known: ent.isFile() || ent.isSymbolicLink(), link: ent.isSymbolicLink() });
      }
    }
    if (o.onNames && out.names.length > named) o.onNames(out.names.slice(named));
    for (let i = 0; i < candidates.length; i += STAT_BATCH) {
      if (o.aborted?.()) {
        out.complete = false;
        return out;
      }
      const batch = candidates.slice(i, i + STAT_BATCH);
      if (now && i > 0) await turn();
      const stats = now
        ? batch.map((c) => statCandidateNow(c.full, c.known, c.link, now.took))
        : await Promise.all(batch.map((c) => statCandidate(c.full, c.known, c.link)));
      batch.forEach((c, j) => {
        const r = stats[j];
        if (r === undefined) return;
        // A link to nowhere among the media: said, so the folder's list shows why it is not taken.
        if (r === 'dangling') {
          if (acceptHere(c.rel)) out.problems.push({ path: c.full, message: DANGLING_WORDS, skip: 'dangling-link' });
          return;
        }
        const { s, viaLink } = r;
        const rel = c.rel;
        if (s.isDirectory() && !viaLink) {
          if (rules.recursive && rules.acceptDir(rel)) dirs.push(c.full);
        } else if (s.isFile() && acceptHere(rel)) {
          out.files.push({ path: c.full, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
        }
      });
    }
    if (o.onFiles && out.files.length > found) o.onFiles(out.files.slice(found));
  }
  return out;
}

async function readDir(dir: string): Promise<Dirent[]> {
  const out: Dirent[] = [];
  const handle = await fsp.opendir(dir, { bufferSize: 256 });
  for await (const ent of handle) out.push(ent);
  return out;
}

type Candidate = { s: Stats; viaLink: boolean } | 'dangling' | undefined;

/**
 * Symlinks are followed to files only (stat); a link to a directory is never walked, which is
 * what keeps a link loop or a link to "/" from hanging the walk. ELOOP vanishes; a link whose
 * target is missing is `dangling` (`link`: the entry said it is a link).
 */
async function statCandidate(full: string, known: boolean, link: boolean): Promise<Candidate> {
  let isLink = link;
  try {
    if (!known) {
      const l = await fsp.lstat(full);
      if (!l.isSymbolicLink()) return { s: l, viaLink: false };
      isLink = true;
    }
    // A known entry is a file or a link; a known file never yields a directory here.
    return { s: await fsp.stat(full), viaLink: true };
  } catch (e) {
    return isLink && code(e) === 'ENOENT' ? 'dangling' : undefined;
  }
}

/** statCandidate made at once, on this thread. */
function statCandidateNow(full: string, known: boolean, link: boolean, took: (ms: number) => void): Candidate {
  let isLink = link;
  try {
    if (!known) {
      const l = timedNow(() => lstatSync(full), took);
      if (!l.isSymbolicLink()) return { s: l, viaLink: false };
      isLink = true;
    }
    return { s: timedNow(() => statSync(full), took), viaLink: true };
  } catch (e) {
    return isLink && code(e) === 'ENOENT' ? 'dangling' : undefined;
  }
}

/** Why the watch folder itself cannot be watched now (gone, not a folder, unreadable), if it cannot. */
export async function rootProblem(root: string): Promise<{ state: FolderStatus; message: string } | undefined> {
  try {
    const s = await fsp.stat(root);
    if (!s.isDirectory()) return { state: 'error', message: `${root} is not a folder.` };
    await fsp.access(root, fsConstants.R_OK);
    return undefined;
  } catch (e) {
    const c = code(e);
    if (c === 'ENOENT' || c === 'ENOTDIR') {
      return { state: 'unavailable', message: `Folder not found: ${root}. It will be watched again when it returns.` };
    }
    return { state: 'error', message: `Cannot open folder ${root}: ${(e as Error).message}` };
  }
}
