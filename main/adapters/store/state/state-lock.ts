// One engine per state dir: the journal has a single writer. A second `sluice watch`, or the CLI
// while the desktop app runs on the same folder, is refused with a message naming the holder.
//
// The lock records who took it: the PID, the boot it was taken in and (where the OS tells) the
// process's start time. A lock left behind by a run that never closed (Windows skips the graceful
// quit at logoff and shutdown) must not block the next start just because its PID now belongs to
// another process: a lock from another boot, or whose PID started at another time, is stale.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-files.js';

export const LOCK_FILE = 'engine.lock';

export class StateLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`Another Sluice (process ${pid}) is using ${dir}. Stop it first, or use a different --state-dir.`);
    this.name = 'StateLockedError';
  }
}

export interface LockHolder {
  pid: number;
  /** Boot time, in seconds since the epoch (rounded). */
  boot?: number;
  /** The process's start time as the OS counts it (Linux: clock ticks since boot). */
  start?: string;
}

/** Two boot times closer than this are one boot (the clock may be adjusted while the system runs). */
const SAME_BOOT_SLACK_S = 60;

export function bootTime(): number {
  return Math.round(Date.now() / 1000 - os.uptime());
}

/** Linux only: field 22 of /proc/<pid>/stat; undefined where the OS has no /proc. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after it start past the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readHolder(text: string): LockHolder | undefined {
  const t = text.trim();
  // Older releases wrote the bare PID.
  if (/^\d+$/.test(t)) return { pid: Number(t) };
  try {
    const v = JSON.parse(t) as Partial<LockHolder>;
    if (!Number.isInteger(v.pid) || (v.pid ?? 0) <= 0) return undefined;
    return {
      pid: v.pid as number,
      ...(typeof v.boot === 'number' ? { boot: v.boot } : {}),
      ...(typeof v.start === 'string' ? { start: v.start } : {}),
    };
  } catch {
    return undefined;
  }
}

/** True when the process that wrote this lock is still running (not a reused PID). */
export function holderAlive(h: LockHolder): boolean {
  if (h.pid === process.pid) return false;
  if (h.boot !== undefined && Math.abs(h.boot - bootTime()) > SAME_BOOT_SLACK_S) return false;
  if (h.start !== undefined) {
    const now = processStart(h.pid);
    if (now !== undefined && now !== h.start) return false;
  }
  return alive(h.pid);
}

/** True when `dir` is locked by a live Sluice. */
export function isStateLocked(dir: string): boolean {
  try {
    const h = readHolder(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
    return h !== undefined && holderAlive(h);
  } catch {
    return false;
  }
}

/**
 * Removes the lock when this process holds it, at once and synchronously: for a session that ends
 * (logoff, shutdown) before the runtime can close.
 */
export function releaseStateLockIfMine(dir: string): void {
  const file = path.join(dir, LOCK_FILE);
  try {
    if (readHolder(fs.readFileSync(file, 'utf8'))?.pid === process.pid) fs.rmSync(file, { force: true });
  } catch {
    /* no lock */
  }
}

/** Takes the lock or throws StateLockedError; a lock left by a dead process is taken over. */
export function acquireStateLock(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const start = processStart(process.pid);
  const me = JSON.stringify({ pid: process.pid, boot: bootTime(), ...(start ? { start } : {}) });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, me, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        releaseStateLockIfMine(dir);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = readHolder(fs.readFileSync(file, 'utf8'));
      if (holder && holderAlive(holder)) throw new StateLockedError(dir, holder.pid);
      // Stale (killed process, earlier boot, reused PID) or unreadable: remove and try again.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}.`);
}
