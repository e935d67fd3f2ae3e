// The state lock: held against a live holder, taken over from one that is gone, even when its PID
// now belongs to another process (a run that ended at a Windows logoff, then a reboot).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireStateLock,
  bootTime,
  LOCK_FILE,
  processStart,
  readHolder,
  StateLockedError,
} from '../../../../main/adapters/store/state/state-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A process that is certainly alive and is not this one.
const live = process.ppid;

describe('state lock', () => {
  it('records the PID with its boot and start time, and releases', async () => {
    const release = acquireStateLock(dir);
    const holder = readHolder(await readFile(path.join(dir, LOCK_FILE), 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, boot: bootTime() });
    if (process.platform === 'linux') expect(holder?.start).toBe(processStart(process.pid));
    release();
    await expect(readFile(path.join(dir, LOCK_FILE))).rejects.toThrow();
  });

  it('refuses while the holder still runs', async () => {
    const start = processStart(live);
    await writeFile(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: live, boot: bootTime(), ...(start ? { start } : {}) }),
    );
    expect(() => acquireStateLock(dir)).toThrow(StateLockedError);
    // Older releases wrote the bare PID: still honoured.
    await writeFile(path.join(dir, LOCK_FILE), String(live));
    expect(() => acquireStateLock(dir)).toThrow(StateLockedError);
  });

  it('takes over a lock from an earlier boot whose PID is now another process', async () => {
    await writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ pid: live, boot: bootTime() - 3600 }));
    const release = acquireStateLock(dir);
    expect(readHolder(await readFile(path.join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(process.pid);
    release();
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose PID started at another time (reused)', async () => {
    await writeFile(path.join(dir, LOCK_FILE), JSON.stringify({ pid: live, boot: bootTime(), start: '1' }));
    const release = acquireStateLock(dir);
    expect(readHolder(await readFile(path.join(dir, LOCK_FILE), 'utf8'))?.pid).toBe(process.pid);
    release();
  });
});
