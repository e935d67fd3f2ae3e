// Which file systems count as network drives (team mode's suggestion), from statfs magic numbers
// and Windows path shapes.
import { describe, expect, it } from 'vitest';
import {
  fileSystemKind,
  isUncPath,
  kindOfLinuxType,
  kindOfMacType,
  mappedDriveOf,
  mountOf,
  parseMacMounts,
  parseNetUse,
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

  it('a UNC folder is SMB; a drive letter is network only when it is a mapped drive', () => {
    expect(fileSystemKind({ platform: 'win32', path: '\\\\nas\\News' })).toEqual({ verdict: 'network', label: 'SMB' });
    expect(fileSystemKind({ platform: 'win32', path: 'Z:\\News' })).toEqual({ verdict: 'unknown' });
    expect(fileSystemKind({ platform: 'win32', path: 'Z:\\News', winMapped: { letter: 'Z', label: 'SMB' } })).toEqual({
      verdict: 'network',
      label: 'SMB',
    });
  });

  // `net use` as Windows prints it: English, and German (translated status and headings, the same shape).
  const ENGLISH = [
    'New connections will be remembered.',
    '',
    '',
    'Status       Local     Remote                    Network',
    '',
    '-------------------------------------------------------------------------------',
    'OK           Z:        \\\\nas\\News                Microsoft Windows Network',
    'Unavailable  Y:        \\\\archive-server.newsroom.local\\Footage 2026',
    '                                                Microsoft Windows Network',
    '             N:        \\\\linuxbox\\export\\media   NFS Network',
    'OK                     \\\\nas\\IPC$                 Microsoft Windows Network',
    'The command completed successfully.',
    '',
  ].join('\r\n');
  const GERMAN = [
    'Neue Verbindungen werden gespeichert.',
    '',
    'Status       Lokal     Remote                    Netzwerk',
    '-------------------------------------------------------------------------------',
    'OK           m:        \\\\srv\\Schnitt             Microsoft Windows Network',
    'Der Befehl wurde erfolgreich ausgeführt.',
  ].join('\r\n');

  it('reads the mapped drives from net use, in any language, a wrapped line and NFS included', () => {
    expect(parseNetUse(ENGLISH)).toEqual([
      { letter: 'Z', label: 'SMB' },
      { letter: 'Y', label: 'SMB' },
      { letter: 'N', label: 'NFS' },
    ]);
    expect(parseNetUse(GERMAN)).toEqual([{ letter: 'M', label: 'SMB' }]);
    expect(parseNetUse('There are no entries in the list.\r\n')).toEqual([]);
  });

  it('finds the mapped drive of a path by its letter, either slash and either case', () => {
    const drives = parseNetUse(ENGLISH);
    expect(mappedDriveOf('Z:\\News\\incoming', drives)).toEqual({ letter: 'Z', label: 'SMB' });
    expect(mappedDriveOf('z:/News', drives)).toEqual({ letter: 'Z', label: 'SMB' });
    expect(mappedDriveOf('N:', drives)).toEqual({ letter: 'N', label: 'NFS' });
    expect(mappedDriveOf('C:\\Media', drives)).toBeUndefined();
    expect(mappedDriveOf('\\\\nas\\News', drives)).toBeUndefined();
    expect(mappedDriveOf('Zoo:\\x', drives)).toBeUndefined();
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

// `mount` on a Mac with its disk, a NAS over SMB and NFS, a share whose name holds " on ", a
// macFUSE sshfs mount and a USB stick.
const MAC_MOUNTS = `/dev/disk3s1s1 on / (apfs, sealed, local, read-only, journaled)
devfs on /dev (devfs, local, nobrowse)
/dev/disk3s5 on /System/Volumes/Data (apfs, local, journaled, nobrowse, protect, root data)
map auto_home on /System/Volumes/Data/home (autofs, automounted, nobrowse)
//alice@nas.local/News on /Volumes/News (smbfs, nodev, nosuid, mounted by alice)
//alice@nas.local/Sound%20on%20Stage on /Volumes/Sound on Stage (smbfs, nodev, nosuid, mounted by alice)
nas.local:/export/rushes on /Volumes/rushes (nfs, asynchronous)
alice@edit:/media on /Volumes/edit-media (macfuse, nodev, nosuid, synchronous, mounted by alice)
/dev/disk4s1 on /Volumes/CARD A (exfat, local, nodev, nosuid, noowners)
`;

describe('macOS mounts', () => {
  const mounts = parseMacMounts(MAC_MOUNTS);

  it('reads each mount point and type, a share named with " on " included', () => {
    expect(mounts.map((m) => [m.mountPoint, m.type])).toEqual([
      ['/', 'apfs'],
      ['/dev', 'devfs'],
      ['/System/Volumes/Data', 'apfs'],
      ['/System/Volumes/Data/home', 'autofs'],
      ['/Volumes/News', 'smbfs'],
      ['/Volumes/Sound on Stage', 'smbfs'],
      ['/Volumes/rushes', 'nfs'],
      ['/Volumes/edit-media', 'macfuse'],
      ['/Volumes/CARD A', 'exfat'],
    ]);
  });

  it.each([
    ['/Volumes/News/2026/interview.mov', 'network', 'SMB'],
    ['/Volumes/Sound on Stage/take 1.wav', 'network', 'SMB'],
    ['/Volumes/rushes', 'network', 'NFS'],
    ['/Volumes/edit-media/a', 'maybe', 'FUSE'],
    ['/Volumes/CARD A/PRIVATE/M4ROOT/CLIP/C0001.MP4', 'local', 'exFAT'],
    ['/Users/alice/Movies', 'local', 'APFS'],
    // A folder beside a mount whose name starts the same is not on it.
    ['/Volumes/NewsArchive/a.wav', 'local', 'APFS'],
  ])('%s is %s (%s)', (p, verdict, label) => {
    const mount = mountOf(p, mounts);
    expect(fileSystemKind({ platform: 'darwin', path: p, ...(mount ? { macType: mount.type } : {}) })).toEqual({
      verdict,
      label,
    });
  });

  it('an unknown type, or no mount table, claims nothing', () => {
    expect(kindOfMacType('lifs')).toEqual({ verdict: 'unknown' });
    expect(fileSystemKind({ platform: 'darwin', path: '/Volumes/News' })).toEqual({ verdict: 'unknown' });
    expect(mountOf('/x', parseMacMounts('not a mount table'))).toBeUndefined();
  });
});
