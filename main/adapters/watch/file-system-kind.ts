// Reads which file system a folder is on (engine/file-system-kind.ts decides what that means for
// team mode). statfs is cheap and local; a folder that cannot be read gives 'unknown', never an error.
// On macOS the type's name comes from the mount table (`/sbin/mount`, read at most every 30 s).
import { execFile } from 'node:child_process';
import { realpath, statfs } from 'node:fs/promises';
import { fileSystemKind, mountOf, parseMacMounts, type FileSystemKind } from '../../engine/file-system-kind.js';

/**
 * TEST SEAM: SLUICE_TEST_FS_TYPE (a Linux statfs magic number, e.g. 0x6969 for NFS) stands in for
 * what statfs reads, so tests can show the network hint without mounting a network drive.
 */
const TEST_FS_TYPE = 'SLUICE_TEST_FS_TYPE';

/** The mount table as `mount` prints it on macOS; undefined when it cannot be read. */
export type MountTable = () => Promise<string | undefined>;

const MOUNT_TABLE_TTL_MS = 30_000;
let mountCache: { at: number; text: Promise<string | undefined> } | undefined;

const systemMountTable: MountTable = () => {
  const now = Date.now();
  if (!mountCache || now - mountCache.at > MOUNT_TABLE_TTL_MS) {
    const text = new Promise<string | undefined>((resolve) => {
      execFile('/sbin/mount', [], { timeout: 3000 }, (err, stdout) => resolve(err ? undefined : stdout));
    });
    mountCache = { at: now, text };
  }
  return mountCache.text;
};

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
  // A UNC path is decided by its shape; statfs on Windows gives no file system type worth reading.
  if (platform !== 'linux') return fileSystemKind({ platform, path: folder });
  const st = await statfs(folder).catch(() => undefined);
  return fileSystemKind({ platform, path: folder, ...(st ? { statfsType: st.type } : {}) });
}
