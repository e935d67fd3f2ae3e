// Reads which file system a folder is on (engine/file-system-kind.ts decides what that means for
// team mode). statfs is cheap and local; a folder that cannot be read gives 'unknown', never an error.
import { statfs } from 'node:fs/promises';
import { fileSystemKind, type FileSystemKind } from '../../engine/file-system-kind.js';

/**
 * TEST SEAM: SLUICE_TEST_FS_TYPE (a Linux statfs magic number, e.g. 0x6969 for NFS) stands in for
 * what statfs reads, so tests can show the network hint without mounting a network drive.
 */
const TEST_FS_TYPE = 'SLUICE_TEST_FS_TYPE';

export async function folderFileSystem(
  folder: string,
  platform: string = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FileSystemKind> {
  const forced = env[TEST_FS_TYPE];
  if (forced && Number.isFinite(Number(forced))) {
    return fileSystemKind({ platform: 'linux', path: folder, statfsType: Number(forced) });
  }
  // A UNC path is decided by its shape; statfs on Windows gives no file system type worth reading.
  if (platform !== 'linux') return fileSystemKind({ platform, path: folder });
  const st = await statfs(folder).catch(() => undefined);
  return fileSystemKind({ platform, path: folder, ...(st ? { statfsType: st.type } : {}) });
}
