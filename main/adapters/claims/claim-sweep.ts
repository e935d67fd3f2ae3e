// What a failed clean-up or a kill leaves in a shared folder's `.sluice/`: a claim whose removal the
// share refused (unwritable for a moment), a done record's temporary file cut off by a kill, a claim
// folder renamed aside and never removed. Swept at start, when the folder comes back, and every
// claim timeout: this computer's own leftovers (its state folder's tag, seen unchanged by two
// sweeps and not held) at once; anyone's once seen unchanged for the claim timeout by this
// computer's own clock, as a stale claim is judged (engine/shared-folder.ts), never by file times.
import path from 'node:path';
import type { ClaimFs } from './claim-fs.js';
import { SHARED_DIR_NAME, type ClaimStore } from './claim-store.js';

export class ClaimSweep {
  /** Path → what it looked like and since when (our clock); an entry that changes starts again. */
  private readonly seen = new Map<string, { sig: string; since: number }>();
  private atStart = false;

  constructor(
    private readonly store: ClaimStore,
    private readonly fs: ClaimFs,
    private readonly now: () => number,
  ) {}

  /**
   * One pass over the folder's `.sluice/`; answers how many leftovers went. Never throws. `atStart`:
   * nothing of this computer's is being written yet, so its own leftovers go at once.
   */
  async run(atStart = false): Promise<number> {
    this.atStart = atStart;
    if (!(await this.store.present())) return 0;
    const base = path.join(this.store.root, SHARED_DIR_NAME);
    const visited = new Set<string>();
    let removed = 0;
    const doneDir = path.join(base, 'done');
    for (const name of await this.list(doneDir)) {
      if (!name.endsWith('.tmp')) continue;
      const p = path.join(doneDir, name);
      visited.add(p);
      const st = await this.fs.stat(p).catch(() => undefined);
      if (!st) continue;
      const own = name.includes(`.${this.store.writer}.`);
      if (this.due(p, `${st.size}:${st.mtimeMs}`, own) && (await this.gone(() => this.fs.unlink(p)))) removed++;
    }
    const claimsDir = path.join(base, 'claims');
    for (const name of await this.list(claimsDir)) {
      const p = path.join(claimsDir, name);
      visited.add(p);
      if (name.endsWith('.claim')) {
        const record = await this.store.readClaimDir(p);
        if (record && this.store.isMine(record)) {
          this.seen.delete(p);
          continue;
        }
        const own = record !== undefined && record.writer === this.store.writer;
        const sig = record ? `${record.token}:${record.refreshCount}` : 'unreadable';
        if (this.due(p, sig, own) && (await this.store.removeClaim(p, 'stale'))) removed++;
      } else if (/\.claim\.(stale|done)-/.test(name)) {
        // A claim renamed aside whose removal did not finish: nobody reads it as a claim any more.
        if (this.due(p, 'aside', false) && (await this.gone(() => this.fs.rm(p, { recursive: true, force: true }))))
          removed++;
      }
    }
    for (const p of this.seen.keys()) if (!visited.has(p)) this.seen.delete(p);
    return removed;
  }

  /** The folder was away: nobody could change what is in it, so what was seen is judged afresh. */
  forget(): void {
    this.seen.clear();
  }

  /** Seen as it is now by an earlier sweep (own), or unchanged for the claim timeout (anyone's). */
  private due(p: string, sig: string, own: boolean): boolean {
    const t = this.now();
    if (own && this.atStart) return true;
    const was = this.seen.get(p);
    if (!was || was.sig !== sig) {
      this.seen.set(p, { sig, since: t });
      return false;
    }
    const { timeoutMs, toleranceMs } = this.store.timeouts;
    return own || t - was.since >= timeoutMs + toleranceMs;
  }

  private async list(dir: string): Promise<string[]> {
    return this.fs.readdir(dir).catch(() => []);
  }

  private async gone(op: () => Promise<void>): Promise<boolean> {
    return op().then(
      () => true,
      () => false,
    );
  }
}

/**
 * When each shared folder is swept: first once it is watched, then every claim timeout (what
 * others left is judged over that long), and when it comes back. `serial` runs a sweep in turn
 * with the taking of claims.
 */
export class SweepSchedule {
  private readonly entries = new Map<ClaimStore, { sweep: ClaimSweep; lastAt: number | undefined }>();

  constructor(
    private readonly fs: ClaimFs,
    private readonly now: () => number,
    private readonly serial: (f: () => Promise<unknown>) => Promise<unknown>,
  ) {}

  add(store: ClaimStore): void {
    this.entries.set(store, { sweep: new ClaimSweep(store, this.fs, this.now), lastAt: undefined });
  }

  /** The folder came back: its leftovers are judged from now (claim-sweep.ts, `forget`). */
  cameBack(store: ClaimStore): void {
    this.entries.get(store)?.sweep.forget();
  }

  began(store: ClaimStore): boolean {
    return this.entries.get(store)?.lastAt !== undefined;
  }

  run(store: ClaimStore, atStart: boolean): Promise<unknown> {
    const entry = this.entries.get(store);
    if (!entry) return Promise.resolve();
    entry.lastAt = this.now();
    return this.serial(() => entry.sweep.run(atStart)).catch(() => undefined);
  }

  /** Sweeps the folders whose last sweep is a claim timeout ago. */
  async due(): Promise<void> {
    const now = this.now();
    for (const [store, entry] of this.entries) {
      if (entry.lastAt !== undefined && now - entry.lastAt >= store.timeouts.timeoutMs) await this.run(store, false);
    }
  }
}
