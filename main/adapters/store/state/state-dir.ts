// The one place that names Sluice's state folder. The CLI (`sluice status`, `sluice watch`) and the
// desktop app (which sets Electron's `userData` to it before ready) must use the same folder, or
// neither sees the other's jobs and the state lock cannot keep them apart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isStateLocked } from './state-lock.js';

export const STATE_DIR_NAME = 'Sluice';
/** What Electron called the folder while package.json had no productName (its `name`). */
const LEGACY_NAME = 'sluice';

export interface StateDirEnv {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/**
 * `$XDG_CONFIG_HOME` when it is set to an absolute path; the XDG spec says an empty or relative value
 * is to be ignored (an empty one used to put the state in `./Sluice`).
 */
export function xdgConfigHome(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const v = env.XDG_CONFIG_HOME;
  return v && path.isAbsolute(v) ? v : path.join(home, '.config');
}

/** The folder that holds the OS's per-user application data (Electron's `appData`). */
export function appDataDir(o: StateDirEnv = {}): string {
  const env = o.env ?? process.env;
  const home = o.home ?? os.homedir();
  const platform = o.platform ?? process.platform;
  if (platform === 'win32') return env.APPDATA || path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return xdgConfigHome(env, home);
}

/** The state folder a command was given (`--state-dir`), else the default one, as an absolute path. */
export function resolveStateDir(given: string | undefined): string {
  return path.resolve(given ?? defaultStateDir());
}

/** Sluice's state folder: `SLUICE_STATE_DIR`, else `<appData>/Sluice`. */
export function defaultStateDir(o: StateDirEnv = {}): string {
  const env = o.env ?? process.env;
  if (env.SLUICE_STATE_DIR) return path.resolve(env.SLUICE_STATE_DIR);
  return path.join(appDataDir(o), STATE_DIR_NAME);
}

function sameFolder(a: fs.Stats, b: fs.Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Moves the folder an older desktop app wrote (`<appData>/sluice`) to `dir` once, when `dir` does not
 * exist yet. On case-insensitive file systems both names are one folder, and nothing moves. When both
 * exist, both stay (nothing is merged or lost) and the answer says so.
 */
export function adoptLegacyStateDir(dir: string): { moved: boolean; note?: string } {
  const legacy = path.join(path.dirname(dir), LEGACY_NAME);
  if (legacy === dir) return { moved: false };
  let legacyStat: fs.Stats;
  try {
    legacyStat = fs.statSync(legacy);
  } catch {
    return { moved: false };
  }
  if (!legacyStat.isDirectory()) return { moved: false };
  let current: fs.Stats | undefined;
  try {
    current = fs.statSync(dir);
  } catch {
    current = undefined;
  }
  if (current && sameFolder(current, legacyStat)) return { moved: false };
  if (current) {
    return { moved: false, note: `Both ${dir} and ${legacy} exist; Sluice uses ${dir} and leaves ${legacy} alone.` };
  }
  // A Sluice still running from the old folder keeps it until it stops.
  if (isStateLocked(legacy)) return { moved: false };
  fs.renameSync(legacy, dir);
  return { moved: true };
}
