// The media files under a folder added by hand (`sluice process DIR`, a folder dropped on the
// window). Nothing is skipped silently: a subfolder that cannot be read, a path too long to open
// and a name that is not valid UTF-8 come back as problems, each with its reason, so the caller
// counts them as not processed instead of reporting a folder as done.
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { createFileFilter } from '../../engine/file-filter.js';
import { DEFAULT_MEDIA_GLOBS } from '../../engine/media-types.js';
import { resultExtensions } from '../results/write-results.js';

export interface WalkProblem {
  path: string;
  message: string;
}

export interface MediaWalk {
  files: string[];
  problems: WalkProblem[];
}

/** Why a folder could not be listed, in words. */
export function unreadableFolder(dir: string, e: NodeJS.ErrnoException): string {
  if (e.code === 'EACCES' || e.code === 'EPERM')
    return `${dir} cannot be read (permission denied); its files were not processed.`;
  if (e.code === 'ENAMETOOLONG') return `${dir} has a path too long to open; its files were not processed.`;
  return `${dir} cannot be read (${e.code ?? e.message}); its files were not processed.`;
}

/**
 * A name that is not valid UTF-8 (possible on Linux) has no faithful string form: decoded, it
 * names a different file. Such entries are refused by name, shown with their bytes escaped.
 */
function decodeName(raw: Buffer): string | null {
  const name = raw.toString('utf8');
  return Buffer.from(name, 'utf8').equals(raw) ? name : null;
}

function shownName(raw: Buffer): string {
  let out = '';
  for (const ch of raw.toString('latin1')) {
    const c = ch.charCodeAt(0);
    out += c >= 0x20 && c < 0x7f ? ch : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** Media files under `root` (recursive), skipping temp files, dot-folders and Sluice's outputs. */
export async function walkMedia(root: string): Promise<MediaWalk> {
  const accept = createFileFilter({
    include: DEFAULT_MEDIA_GLOBS,
    recursive: true,
    resultExtensions: resultExtensions(),
  });
  const files: string[] = [];
  const problems: WalkProblem[] = [];
  const visit = async (dir: string): Promise<void> => {
    let handle;
    try {
      // Names as raw bytes (supported by Node, missing from its types), to tell a name that is not
      // UTF-8 from one that is.
      handle = await opendir(dir, { encoding: 'buffer' as BufferEncoding });
    } catch (e) {
      problems.push({ path: dir, message: unreadableFolder(dir, e as NodeJS.ErrnoException) });
      return;
    }
    try {
      for await (const entry of handle) {
        const raw = entry.name as unknown as Buffer;
        const name = decodeName(raw);
        if (name === null) {
          // Only what would have been taken is worth a word: media files and folders to look into.
          const shown = path.join(dir, shownName(raw));
          if (entry.isDirectory() && !raw.toString('latin1').startsWith('.')) {
            problems.push({
              path: shown,
              message: `${shown}: the folder's name is not valid UTF-8, so it cannot be opened by name; rename it to process its files.`,
            });
          } else if ((entry.isFile() || entry.isSymbolicLink()) && accept(shownName(raw))) {
            problems.push({
              path: shown,
              message: `${shown}: the file's name is not valid UTF-8, so it cannot be opened by name; rename it to process it.`,
            });
          }
          continue;
        }
        const full = path.join(dir, name);
        if (entry.isDirectory()) {
          if (!name.startsWith('.')) await visit(full);
        } else if ((entry.isFile() || entry.isSymbolicLink()) && accept(path.relative(root, full))) {
          files.push(full);
        }
      }
    } catch (e) {
      // The listing broke off part-way (the folder went away, an I/O error): what was read stands.
      problems.push({ path: dir, message: unreadableFolder(dir, e as NodeJS.ErrnoException) });
    }
  };
  await visit(root);
  const byPath = (a: string, b: string): number => a.localeCompare(b);
  return { files: files.sort(byPath), problems: problems.sort((a, b) => byPath(a.path, b.path)) };
}
