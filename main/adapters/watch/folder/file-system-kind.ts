// Reads which file system a folder is on (engine/file-system-kind.ts decides what that means for
// team mode). statfs is cheap and local; a folder that cannot be read gives 'unknown', never an error.
// On macOS the type's name comes from the mount table (`/sbin/mount`), on Windows a drive letter's
// from the mapped drives (`net use`); each read at most every 30 s.
import { execFile } from 'node:child_process';
import { realpath, statfs } from 'node:fs/promises';
import {
  fileSystemKind,
  mappedDriveOf,
  mountOf,
  parseMacMounts,
  parseNetUse,
  type FileSystemKind,
} from '../../../engine/file-system-kind.js';

/**
 * TEST SEAM: SLUICE_TEST_FS_TYPE (a Linux statfs magic number, e.g. 0x6969 for NFS) stands in for
 * what statfs reads, so tests can show the network hint without mounting a network drive.
 */
const TEST_FS_TYPE = 'SLUICE_TEST_FS_TYPE';

/**
 * The system's list of mounts as a command prints it (`mount` on macOS, `net use` on Windows);
 * undefined when it cannot be read.
 */
export type MountTable = () => Promise<string | undefined>;

const MOUNT_TABLE_TTL_MS = 30_000;

/** A command's output, run at most once per TTL (a folder editor asks on every keystroke's pause). */
function cachedOutput(file: string, args: string[]): MountTable {
  let cache: { at: number; text: Promise<string | undefined> } | undefined;
  return () => {
    const now = Date.now();
    if (!cache || now - cache.at > MOUNT_TABLE_TTL_MS) {
      const text = new Promise<string | undefined>((resolve) => {
        execFile(file, args, { timeout: 3000, windowsHide: true }, (err, stdout) => resolve(err ? undefined : stdout));
      });
      cache = { at: now, text };
    }
    return cache.text;
  };
}

const systemMountTable: MountTable =
  process.platform === 'win32' ? cachedOutput('net', ['use']) : cachedOutput('/sbin/mount', []);

export async function folderFileSystem(
  folder: string,
  platform: string = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  mountTable: MountTable = systemMountTable,
): Promise<FileSystemKind> {
  const forced = env[TEST_FS_TYPE];
  if (forced && Number.isFinite(Number(forced))) {
    return fileSystemKind({ platform: 'linux', path: folder, statfsType: Number(forced) });
  }
  if (platform === 'darwin') {
    const table = await mountTable().catch(() => undefined);
    // A folder reached through a link is on the mount of where the link leads.
    const real = await realpath(folder).catch(() => folder);
    const mount = table === undefined ? undefined : mountOf(real, parseMacMounts(table));
    return fileSystemKind({ platform, path: folder, ...(mount ? { macType: mount.type } : {}) });
  }
  if (platform === 'win32') {
    // A UNC path is decided by its shape; a drive letter by the mapped drives (statfs on Windows
    // gives no file system type worth reading). A link's target decides, as on macOS.
    const real = await realpath(folder).catch(() => folder);
    const table = /^[A-Za-z]:/.test(real) ? await mountTable().catch(() => undefined) : undefined;
    const mapped = table === undefined ? undefined : mappedDriveOf(real, parseNetUse(table));
    return fileSystemKind({ platform, path: real, ...(mapped ? { winMapped: mapped } : {}) });
  }
  if (platform !== 'linux') return fileSystemKind({ platform, path: folder });
  const st = await statfs(folder).catch(() => undefined);
  return fileSystemKind({ platform, path: folder, ...(st ? { statfsType: st.type } : {}) });
}
