// Note: the state folder is private. It holds the job history (every file's path), the settings,
// the kept exports (whole transcripts) and the browser uploads' inbox, so it is created 0700 and
// everything in it 0600 (folders 0700): each writer passes these modes when it creates a file.
// A state folder from before this rule, or loosened by hand, is tightened once at open.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the state folder private, or tightens an existing one. The walk runs only when the folder
 * itself lets others in: once it is tightened (last, so an interrupted walk is redone) later opens
 * cost one stat. Symbolic links are left alone: what they point to is not the state folder's.
 */
export function ensurePrivateStateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (process.platform === 'win32') return; // POSIX modes mean nothing there; the profile folder is private.
  if ((fs.statSync(dir).mode & 0o077) === 0) return;
  tightenUnder(dir);
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

function tightenUnder(dir: string): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    try {
      if (e.isDirectory()) {
        tightenUnder(full);
        tighten(full, PRIVATE_DIR_MODE);
      } else if (e.isFile()) tighten(full, PRIVATE_FILE_MODE);
    } catch {
      /* gone meanwhile, or not ours to change: the next open tries again only if the folder is loose */
    }
  }
}

function tighten(file: string, most: number): void {
  const mode = fs.lstatSync(file).mode & 0o777;
  if ((mode & ~most) !== 0) fs.chmodSync(file, mode & most);
}
