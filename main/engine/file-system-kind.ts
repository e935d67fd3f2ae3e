// Which file system a watch folder is on, as far as team mode cares: a network drive (SMB, NFS, ...)
// is where several computers may watch one folder, so Sluice suggests "Shared with other computers"
// there. The adapter (adapters/watch/folder/file-system-kind.ts) reads the facts; this decides.
//
// Linux: statfs(2)'s f_type magic numbers (linux/magic.h and the file systems' own sources).
// Windows: a UNC path (\\server\share) is a network path by definition; a mapped drive letter is
// looked up in `net use`'s list of this user's mapped drives (Node does not expose GetDriveType;
// `net use` is on every Windows and answers at once, where PowerShell's CIM query takes a second to
// start). Its words are translated (Status, "Microsoft Windows Network"), its shape is not: a
// drive letter and a colon, then the UNC path. macOS: Node's statfs gives
// no file system name there, so the type is read from the system's mount table (`mount`'s lines,
// parsed here: the mount point holding the folder, its type's name).

export type NetworkVerdict =
  /** A network file system: other computers may well watch the same folder. */
  | 'network'
  /** A user-space file system (FUSE): sshfs and rclone are network drives, exFAT or NTFS drivers are not. */
  | 'maybe'
  | 'local'
  /** Not known on this platform, or the type is not in the list. */
  | 'unknown';

export interface FileSystemKind {
  verdict: NetworkVerdict;
  /** A short name for people: "SMB", "NFS", "ext4"; absent when unknown. */
  label?: string;
}

/** Linux statfs f_type values, as unsigned 32-bit numbers. */
const NETWORK_TYPES: ReadonlyMap<number, string> = new Map([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'SMB'], // CIFS
  [0xfe534d42, 'SMB'], // SMB2/3 (the cifs module's SMB2 magic)
  [0x5346414f, 'AFS'],
  [0x6b414653, 'AFS'], // kAFS
  [0x01021997, '9P'],
  [0x00c36400, 'Ceph'],
  [0x73757245, 'Coda'],
  [0x564c, 'NCP'],
  [0x0bd00bd0, 'Lustre'],
  [0x47504653, 'GPFS'],
  [0x01161970, 'GFS2'],
  [0x7461636f, 'OCFS2'],
]);

const FUSE = 0x65735546;

const LOCAL_TYPES: ReadonlyMap<number, string> = new Map([
  [0xef53, 'ext4'],
  [0x01021994, 'tmpfs'],
  [0x9123683e, 'Btrfs'],
  [0x58465342, 'XFS'],
  [0x794c7630, 'overlay'],
  [0x4d44, 'FAT'],
  [0x2011bab0, 'exFAT'],
  [0x5346544e, 'NTFS'],
  [0x2fc12fc1, 'ZFS'],
  [0xf2f52010, 'F2FS'],
]);

/** The verdict for a Linux statfs type (Node may hand the 32-bit magic back signed: it is read unsigned). */
export function kindOfLinuxType(type: number): FileSystemKind {
  const t = type >>> 0;
  const net = NETWORK_TYPES.get(t);
  if (net) return { verdict: 'network', label: net };
  if (t === FUSE) return { verdict: 'maybe', label: 'FUSE' };
  const local = LOCAL_TYPES.get(t);
  return local ? { verdict: 'local', label: local } : { verdict: 'unknown' };
}

/**
 * A Windows UNC path (`\\server\share\...`, also written `//server/share`, or `\\?\UNC\server\share`)
 * names a network share. Device paths (`\\?\C:\`, `\\.\`) do not.
 */
export function isUncPath(p: string): boolean {
  const s = p.replaceAll('/', '\\');
  if (/^\\\\\?\\UNC\\[^\\]+\\[^\\]+/i.test(s)) return true;
  if (s.startsWith('\\\\?\\') || s.startsWith('\\\\.\\')) return false;
  return /^\\\\[^\\]+\\[^\\]+/.test(s);
}

export interface MappedDrive {
  /** The letter, upper case, without the colon. */
  letter: string;
  /** 'NFS' for Windows' NFS client's drives, 'SMB' for the rest (Windows networking's own). */
  label: string;
}

/**
 * Windows `net use` output: one line per mapped drive, `OK           Z:        \\nas\News    Microsoft
 * Windows Network` (the status may be empty, "Unavailable" or translated; a long remote pushes the
 * network's name to the next line). Connections without a letter (`\\nas\IPC$`) are left out.
 */
const DRIVE_LINE = /(?:^|\s)([A-Za-z]):\s+\\\\\S/;

export function parseNetUse(output: string): MappedDrive[] {
  const out: MappedDrive[] = [];
  const lines = output.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    const m = DRIVE_LINE.exec(line);
    if (!m) continue;
    const next = lines[i + 1] ?? '';
    const nfs = /\bNFS\b/i.test(line) || (!DRIVE_LINE.test(next) && /\bNFS\b/i.test(next));
    out.push({ letter: m[1]!.toUpperCase(), label: nfs ? 'NFS' : 'SMB' });
  }
  return out;
}

/** The mapped drive a Windows path is on (`Z:\News`, `z:/News`), if its letter is one. */
export function mappedDriveOf(p: string, drives: readonly MappedDrive[]): MappedDrive | undefined {
  const m = /^([A-Za-z]):(?:[\\/]|$)/.exec(p);
  return m ? drives.find((d) => d.letter === m[1]!.toUpperCase()) : undefined;
}

/** macOS file system type names (`mount`'s and statfs's f_fstypename). */
const MAC_NETWORK_TYPES: ReadonlyMap<string, string> = new Map([
  ['smbfs', 'SMB'],
  ['nfs', 'NFS'],
  ['afpfs', 'AFP'],
  ['webdav', 'WebDAV'],
]);

const MAC_LOCAL_TYPES: ReadonlyMap<string, string> = new Map([
  ['apfs', 'APFS'],
  ['hfs', 'HFS+'],
  ['msdos', 'FAT'],
  ['exfat', 'exFAT'],
  ['ntfs', 'NTFS'],
  ['udf', 'UDF'],
  ['cd9660', 'ISO 9660'],
]);

/** The verdict for a macOS file system type name; macFUSE's mounts (sshfs, rclone) may be network. */
export function kindOfMacType(name: string): FileSystemKind {
  const t = name.trim().toLowerCase();
  const net = MAC_NETWORK_TYPES.get(t);
  if (net) return { verdict: 'network', label: net };
  if (t.includes('fuse')) return { verdict: 'maybe', label: 'FUSE' };
  const local = MAC_LOCAL_TYPES.get(t);
  return local ? { verdict: 'local', label: local } : { verdict: 'unknown' };
}

export interface MountEntry {
  mountPoint: string;
  type: string;
}

/**
 * macOS `mount` output, one line per mount: `//alice@nas/News on /Volumes/News (smbfs, nodev, …)`.
 * A device name may hold " on " itself (a share named "Sound on Stage"): the mount point is what
 * follows the first " on " that is followed by an absolute path.
 */
export function parseMacMounts(output: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of output.split('\n')) {
    const m = /^.*? on (\/.*) \(([^,()]+)(?:,[^()]*)?\)\s*$/.exec(line);
    if (m) out.push({ mountPoint: m[1]!, type: m[2]!.trim() });
  }
  return out;
}

/** The mount a path is on: the longest mount point that holds it (on a folder boundary). */
export function mountOf(p: string, mounts: readonly MountEntry[]): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const m of mounts) {
    const root = m.mountPoint.endsWith('/') ? m.mountPoint : `${m.mountPoint}/`;
    const inside = p === m.mountPoint || p.startsWith(root) || m.mountPoint === '/';
    if (inside && (!best || m.mountPoint.length > best.mountPoint.length)) best = m;
  }
  return best;
}

export interface FileSystemFacts {
  platform: string;
  path: string;
  /** statfs's f_type, when it could be read. */
  statfsType?: number;
  /** macOS: the type name of the mount the folder is on, when the mount table could be read. */
  macType?: string;
  /** Windows: the mapped network drive the folder is on, when `net use` lists its letter. */
  winMapped?: MappedDrive;
}

/** What team mode makes of a folder's file system. */
export function fileSystemKind(f: FileSystemFacts): FileSystemKind {
  if (f.platform === 'win32') {
    if (isUncPath(f.path)) return { verdict: 'network', label: 'SMB' };
    return f.winMapped ? { verdict: 'network', label: f.winMapped.label } : { verdict: 'unknown' };
  }
  if (f.platform === 'linux' && f.statfsType !== undefined) return kindOfLinuxType(f.statfsType);
  if (f.platform === 'darwin' && f.macType !== undefined) return kindOfMacType(f.macType);
  return { verdict: 'unknown' };
}

/** Whether to suggest "Shared with other computers" for a folder not shared yet. */
export function suggestShared(kind: FileSystemKind): boolean {
  return kind.verdict === 'network' || kind.verdict === 'maybe';
}

/**
 * Whether copies into the folder may stall for seconds (a share, a FUSE mount: sshfs, or the exFAT
 * driver of a card reader), so a file whose container cannot show it is whole waits longer
 * (engine/settle.ts, DEFAULT_NETWORK_SETTLE_MS).
 */
export function slowToSettle(kind: FileSystemKind): boolean {
  // The same drives the Shared suggestion names: one rule for "copies here may stall".
  return suggestShared(kind);
}

/**
 * Whether a folder's files may be read on the watcher's own thread: only on a drive known to be
 * local, where a read takes microseconds. A network drive, a FUSE mount or a drive of unknown kind
 * (Windows' own letters, which statfs does not name) goes through the thread pool: one read there
 * can wait seconds, and the thread must not.
 */
export function readsAtOnce(kind: FileSystemKind): boolean {
  return kind.verdict === 'local';
}

/** "is on a network drive (SMB)", or undefined when there is nothing to suggest. */
export function networkPhrase(kind: FileSystemKind): string | undefined {
  if (!suggestShared(kind)) return undefined;
  return kind.verdict === 'network'
    ? `is on a network drive (${kind.label ?? 'network'})`
    : `may be on a network drive (${kind.label ?? 'FUSE'}, as sshfs and rclone mount)`;
}

/** The folder editor's suggestion in words, or undefined when there is none. */
export function sharedHint(kind: FileSystemKind): string | undefined {
  const where = networkPhrase(kind);
  return where && `This folder ${where}. If other computers watch it, turn on Shared with other computers.`;
}
