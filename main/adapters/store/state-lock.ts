// One engine per state dir: the journal has a single writer. A second `sluice watch`, or the CLI
// while the desktop app runs on the same folder, is refused with a message naming the holder.
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.js';

export class StateLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`Another Sluice (process ${pid}) is using ${dir}. Stop it first, or use a different --state-dir.`);
    this.name = 'StateLockedError';
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

/** Takes the lock or throws StateLockedError; a lock left by a dead process is taken over. */
export function acquireStateLock(dir: string): () => void {
  const file = path.join(dir, 'engine.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: PRIVATE_FILE_MODE });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.rmSync(file, { force: true });
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new StateLockedError(dir, pid);
      // Stale (killed process) or unreadable: remove and try again.
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}.`);
}
