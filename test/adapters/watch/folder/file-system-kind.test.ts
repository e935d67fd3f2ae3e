// The file system of real folders here: the disk under the temporary folder and a tmpfs are local;
// a folder that cannot be read is unknown, not an error. (No network mount can be made here: NFS,
// SMB and sshfs need privileges or packages this machine lacks; the engine's tests cover their types.)
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { folderFileSystem } from '../../../../main/adapters/watch/folder/file-system-kind.js';

const linux = process.platform === 'linux';

it.skipIf(!linux)('a folder on the local disk is local, named by its file system', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'sluice-fs-kind-'));
  try {
    const kind = await folderFileSystem(dir);
    expect(kind.verdict).toBe('local');
    expect(kind.label).toBeTruthy();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it.skipIf(!linux || !existsSync('/dev/shm'))('a tmpfs folder is local', async () => {
  expect(await folderFileSystem('/dev/shm')).toEqual({ verdict: 'local', label: 'tmpfs' });
});

it('a folder that is not there is unknown', async () => {
  expect(await folderFileSystem(path.join(tmpdir(), 'sluice-no-such-folder-here'))).toEqual({ verdict: 'unknown' });
});

it('a Windows share is a network drive by its path alone', async () => {
  expect(await folderFileSystem('\\\\nas\\News', 'win32')).toEqual({ verdict: 'network', label: 'SMB' });
});

it('the test seam stands a statfs type in for the real one, and only a number counts', async () => {
  expect(await folderFileSystem(tmpdir(), 'linux', { SLUICE_TEST_FS_TYPE: '0xFF534D42' })).toEqual({
    verdict: 'network',
    label: 'SMB',
  });
  expect((await folderFileSystem(tmpdir(), 'linux', { SLUICE_TEST_FS_TYPE: 'nfs' })).verdict).not.toBe('network');
});

it('on macOS the folder is looked up in the mount table, read through links', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'sluice-fs-kind-'));
  try {
    const real = await realpath(dir);
    const link = `${dir}-link`;
    await symlink(dir, link);
    const table = async (): Promise<string> =>
      `/dev/disk3s1s1 on / (apfs, local)\n//nas/News on ${real} (smbfs, nodev)\n`;
    expect(await folderFileSystem(link, 'darwin', {}, table)).toEqual({ verdict: 'network', label: 'SMB' });
    expect(await folderFileSystem(tmpdir(), 'darwin', {}, table)).toEqual({ verdict: 'local', label: 'APFS' });
    expect(await folderFileSystem(dir, 'darwin', {}, async () => undefined)).toEqual({ verdict: 'unknown' });
    await rm(link);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

it('on Windows a drive letter is looked up in the mapped drives, and only then asked for', async () => {
  let asked = 0;
  const netUse = async (): Promise<string> => {
    asked++;
    return 'Status       Local     Remote                    Network\r\nOK           Z:        \\\\nas\\News                Microsoft Windows Network\r\n';
  };
  expect(await folderFileSystem('Z:\\News\\incoming', 'win32', {}, netUse)).toEqual({
    verdict: 'network',
    label: 'SMB',
  });
  expect(await folderFileSystem('C:\\Media', 'win32', {}, netUse)).toEqual({ verdict: 'unknown' });
  expect(await folderFileSystem('Z:\\News', 'win32', {}, async () => undefined)).toEqual({ verdict: 'unknown' });
  expect(asked).toBe(2);
  // A UNC path needs no list.
  expect(await folderFileSystem('\\\\nas\\News', 'win32', {}, netUse)).toEqual({ verdict: 'network', label: 'SMB' });
  expect(asked).toBe(2);
});
