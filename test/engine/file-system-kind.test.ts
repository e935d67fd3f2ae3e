// Which file systems count as network drives (team mode's suggestion), from statfs magic numbers
// and Windows path shapes.
import { describe, expect, it } from 'vitest';
import {
  fileSystemKind,
  isUncPath,
  kindOfLinuxType,
  sharedHint,
  suggestShared,
} from '../../main/engine/file-system-kind.js';

describe('Linux statfs types', () => {
  it.each([
    [0x6969, 'NFS'],
    [0x517b, 'SMB'],
    [0xff534d42, 'SMB'],
    [0xfe534d42, 'SMB'],
    [0x5346414f, 'AFS'],
    [0x01021997, '9P'],
    [0x00c36400, 'Ceph'],
  ])('%s is a network file system (%s)', (type, label) => {
    expect(kindOfLinuxType(type)).toEqual({ verdict: 'network', label });
  });

  it('reads a magic number handed back signed (a 32-bit long) as the same type', () => {
    expect(kindOfLinuxType(0xff534d42 | 0)).toEqual({ verdict: 'network', label: 'SMB' });
    expect(0xff534d42 | 0).toBeLessThan(0);
  });

  it('FUSE may be a network drive (sshfs) or not (an exFAT driver)', () => {
    expect(kindOfLinuxType(0x65735546)).toEqual({ verdict: 'maybe', label: 'FUSE' });
  });

  it('local disks and memory are local; an unlisted type is unknown', () => {
    expect(kindOfLinuxType(0xef53)).toEqual({ verdict: 'local', label: 'ext4' });
    expect(kindOfLinuxType(0x01021994)).toEqual({ verdict: 'local', label: 'tmpfs' });
    expect(kindOfLinuxType(0x12345678)).toEqual({ verdict: 'unknown' });
  });
});

describe('Windows paths', () => {
  it.each([
    ['\\\\nas\\News', true],
    ['\\\\nas\\News\\incoming', true],
    ['//nas/News', true],
    ['\\\\?\\UNC\\nas\\News', true],
    ['\\\\?\\C:\\Media', false],
    ['\\\\.\\PhysicalDrive0', false],
    ['C:\\Media', false],
    ['\\\\nas', false],
  ])('%s is a network path: %s', (p, network) => {
    expect(isUncPath(p)).toBe(network);
  });

  it('a UNC folder is SMB; a drive letter is not known (mapped drives need the system)', () => {
    expect(fileSystemKind({ platform: 'win32', path: '\\\\nas\\News' })).toEqual({ verdict: 'network', label: 'SMB' });
    expect(fileSystemKind({ platform: 'win32', path: 'Z:\\News' })).toEqual({ verdict: 'unknown' });
  });
});

it('macOS and an unread type claim nothing', () => {
  expect(fileSystemKind({ platform: 'darwin', path: '/Volumes/News', statfsType: 0x6969 })).toEqual({
    verdict: 'unknown',
  });
  expect(fileSystemKind({ platform: 'linux', path: '/mnt/news' })).toEqual({ verdict: 'unknown' });
});

it('suggests sharing on a network or FUSE drive, in words that name it', () => {
  expect(suggestShared({ verdict: 'local', label: 'ext4' })).toBe(false);
  expect(suggestShared({ verdict: 'unknown' })).toBe(false);
  expect(sharedHint({ verdict: 'local', label: 'ext4' })).toBeUndefined();
  expect(sharedHint({ verdict: 'network', label: 'SMB' })).toBe(
    'This folder is on a network drive (SMB). If other computers watch it, turn on Shared with other computers.',
  );
  expect(sharedHint({ verdict: 'maybe', label: 'FUSE' })).toBe(
    'This folder may be on a network drive (FUSE, as sshfs and rclone mount). If other computers watch it, turn on Shared with other computers.',
  );
});
