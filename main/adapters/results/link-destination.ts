// Where the results of a media link go, decided in one place: the folder chosen in Settings, else
// the user's Downloads folder (XDG user dirs on Linux, ~/Downloads elsewhere). A link job's results
// are named after the link's file name and written "beside" that name in the folder, so the rules
// of results beside a file (no overwrite, fallback name, 255-byte names) apply unchanged.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
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

/** The folder new link jobs write to, under the current settings. */
export function linkResultsDir(settings: Settings, e?: DownloadsEnv): string {
  return settings.links.resultsDir ?? downloadsFolder(e);
}

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
