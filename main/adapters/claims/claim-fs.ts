// The few file operations claims use, behind one seam so tests can make the share misbehave
// (ESTALE, a vanished folder) without a network mount.
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { rootPresent } from '../watch/folder/folder-root.js';

export interface ClaimFs {
  mkdir(p: string, opts?: { recursive?: boolean }): Promise<unknown>;
  readFile(p: string, enc: 'utf8'): Promise<string>;
  writeFile(p: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  rm(p: string, opts: { recursive: boolean; force: boolean }): Promise<void>;
  readdir(p: string): Promise<string[]>;
  stat(p: string): Promise<{ size: number; mtimeMs: number }>;
  unlink(p: string): Promise<void>;
  /** The folder is there and not empty (folder-root.ts): claims are written only under such a root. */
  present(root: string): Promise<boolean>;
}

export const nodeClaimFs: ClaimFs = {
  mkdir,
  readFile,
  writeFile,
  rename,
  rm,
  readdir: (p) => readdir(p),
  stat,
  unlink,
  present: rootPresent,
};

/**
 * "Not there" as a network share says it: ENOENT, or ESTALE when a peer removed what our client
 * still had a handle on (NFSv3), or ENOTDIR when a path part is gone mid-walk.
 */
export function isGone(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ESTALE' || code === 'ENOTDIR';
}

/** EEXIST, or ENOTEMPTY/EPERM that some servers give a rename or mkdir onto an existing folder. */
export function isTaken(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EEXIST' || code === 'ENOTEMPTY';
}
