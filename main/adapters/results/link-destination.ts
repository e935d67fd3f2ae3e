// Where the results of a media link go: the rule is common/link-destination.ts (Downloads, a watch
// folder's output folder, or a folder of the editor's); here the Downloads folder is found (XDG user
// dirs on Linux, ~/Downloads elsewhere) and the chosen folder checked on disk. A link job's results
// are named after the link's file name and written "beside" that name in the folder, so the rules
// of results beside a file (no overwrite, fallback name, 255-byte names) apply unchanged.
import { constants, readFileSync } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { linkDestinationOf, resolveLinkDestination, type LinkDestination } from '../../../common/link-destination.js';
import type { JobRecord, ResultPlace } from '../../engine/job.js';
import { isLinkJob, linkFileName } from '../../engine/media-link.js';
import type { Settings, WatchFolder } from '../../engine/settings.js';
import { currentPath } from '../../engine/source-path.js';

export interface DownloadsEnv {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Reads a file's text, or undefined when it cannot be read. */
  read: (file: string) => string | undefined;
}

const systemEnv = (): DownloadsEnv => ({
  platform: process.platform,
  home: homedir(),
  env: process.env,
  read: (file) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  },
});

/**
 * The Downloads folder. On Linux, XDG_DOWNLOAD_DIR from the environment or from
 * `$XDG_CONFIG_HOME/user-dirs.dirs` (written by xdg-user-dirs-update, localised: `~/Téléchargements`),
 * where only `$HOME/…` and absolute paths are valid; a value equal to the home folder means
 * "disabled", so ~/Downloads is used instead.
 */
export function downloadsFolder(e: DownloadsEnv = systemEnv()): string {
  const fallback = path.join(e.home, 'Downloads');
  if (e.platform !== 'linux') return fallback;
  const fromEnv = e.env.XDG_DOWNLOAD_DIR;
  const configHome = e.env.XDG_CONFIG_HOME || path.join(e.home, '.config');
  const file = fromEnv === undefined ? e.read(path.join(configHome, 'user-dirs.dirs')) : undefined;
  const raw = fromEnv ?? (file === undefined ? undefined : /^\s*XDG_DOWNLOAD_DIR\s*=\s*"([^"]*)"/m.exec(file)?.[1]);
  if (raw === undefined) return fallback;
  const expanded = raw.replace(/^\$HOME(?=\/|$)/, e.home).replace(/^\$\{HOME\}(?=\/|$)/, e.home);
  if (!path.isAbsolute(expanded) || path.resolve(expanded) === path.resolve(e.home)) return fallback;
  return path.resolve(expanded);
}

/**
 * The folder new link jobs write to, under the current settings (common/link-destination.ts); a
 * watch folder chosen then removed, or no longer with an output folder, leaves Downloads.
 */
export function linkResultsDir(settings: Settings, e?: DownloadsEnv): string {
  const downloads = downloadsFolder(e);
  const r = resolveLinkDestination(linkDestinationOf(settings.links), settings.watchFolders, downloads);
  return r.ok ? r.dir : downloads;
}

/** Why a links folder cannot take results, in words that say what to do; undefined when it can. */
export type LinkFolderCheck = { ok: true; created: boolean } | { ok: false; message: string };

/**
 * Makes sure a links folder can take results before any link is sent: Downloads is made when it
 * is missing (the dialog said it would be); any other folder must be there (a drive not connected
 * is not made on the system disk), be a folder, and be writable.
 */
export async function prepareLinkFolder(dir: string, kind: LinkDestination['kind']): Promise<LinkFolderCheck> {
  const st = await stat(dir).catch(() => undefined);
  if (!st) {
    if (kind !== 'downloads')
      return {
        ok: false,
        message: `${dir} does not exist. Create it (or connect its drive), or choose another place.`,
      };
    try {
      await mkdir(dir, { recursive: true });
      return { ok: true, created: true };
    } catch (e) {
      return { ok: false, message: `${dir} could not be created (${codeOf(e)}). Choose another place.` };
    }
  }
  if (!st.isDirectory()) return { ok: false, message: `${dir} is a file, not a folder. Choose a folder.` };
  try {
    await access(dir, constants.W_OK);
  } catch {
    return { ok: false, message: `${dir} cannot be written to. Allow writing there, or choose another place.` };
  }
  return { ok: true, created: false };
}

/** Whether a folder is there now (the dialog says "will be created" for Downloads when not). */
export async function folderExists(dir: string): Promise<boolean> {
  return (await stat(dir).catch(() => undefined))?.isDirectory() === true;
}

const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? 'error';

/**
 * The path a job's results are named after and written beside: the source file where it is now
 * (a rename or a post-action moves it), or its name inside the watch folder's output folder; for a
 * link, the link's file name inside the job's results folder (which need not exist as a file).
 */
export function resultAnchor(job: JobRecord): string {
  if (isLinkJob(job)) return path.join(job.resultsDir ?? downloadsFolder(), linkFileName(job.source.path));
  const source = currentPath(job);
  if (job.resultsDir === undefined) return source;
  return path.join(job.resultsDir, job.resultsBelow ?? '', path.basename(source));
}

/**
 * Where a watch folder's file has its results: beside it (no output folder), or in the output
 * folder under the same folders as below the watch folder, so nothing is written inside a card.
 */
export function resultPlaceFor(folder: Pick<WatchFolder, 'path' | 'outputDir'>, file: string): ResultPlace {
  if (!folder.outputDir) return {};
  const below = path.relative(folder.path, path.dirname(file));
  const inside = below !== '' && !below.startsWith('..') && !path.isAbsolute(below);
  return { resultsDir: folder.outputDir, ...(inside ? { resultsBelow: below } : {}) };
}
