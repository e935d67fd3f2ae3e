// Claims on a shared watch folder: `.sluice/claims/<hash>.claim/` in the folder's root, one per
// file, taken with mkdir (atomic on local disks, SMB and NFS; flock is not trustworthy on network
// mounts). Inside, `owner.json` names the owner and is rewritten as a lease (write a temporary file,
// rename it over, read it back to check the token). A claim whose refresh counter has not moved for
// the timeout, by our own clock (engine/shared-folder.ts), is taken over by renaming its folder
// aside: of several computers trying, one rename succeeds. When a file is done, `.sluice/done/`
// keeps a small record so a computer that never saw it done does not process it again.
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  defaultTolerance,
  isClaimStale,
  refreshInterval,
  sightClaim,
  type ClaimSighting,
} from '../../engine/shared-folder.js';
import { FolderAwayError } from '../watch/folder/folder-root.js';
import { isGone, isTaken, nodeClaimFs, type ClaimFs } from './claim-fs.js';
import type { ClaimOwner, ClaimRecord, DoneRecord, TakeResult } from './claim-records.js';

export type { ClaimOwner, ClaimRecord, DoneRecord, TakeResult } from './claim-records.js';

export interface ClaimStoreOptions extends ClaimOwner {
  timeoutMs: number;
  refreshMs?: number;
  toleranceMs?: number;
  now?: () => number;
  fs?: ClaimFs;
}

const SLUICE_DIR = '.sluice';

/** The folder name (in a watch folder's root) that holds Sluice's shared records; never media. */
export const SHARED_DIR_NAME = SLUICE_DIR;

export class ClaimStore {
  readonly refreshMs: number;
  private readonly toleranceMs: number;
  private readonly now: () => number;
  private readonly fs: ClaimFs;
  private readonly sightings = new Map<string, ClaimSighting>();
  /** relPath → our token and the record last written. */
  private readonly mine = new Map<string, ClaimRecord>();

  constructor(
    readonly root: string,
    private readonly o: ClaimStoreOptions,
  ) {
    this.refreshMs = refreshInterval(o.timeoutMs, o.refreshMs);
    this.toleranceMs = o.toleranceMs ?? defaultTolerance(o.timeoutMs, this.refreshMs);
    this.now = o.now ?? Date.now;
    this.fs = o.fs ?? nodeClaimFs;
  }

  private hash(relPath: string): string {
    return createHash('sha256').update(relPath).digest('hex').slice(0, 32);
  }

  claimDir(relPath: string): string {
    return path.join(this.root, SLUICE_DIR, 'claims', `${this.hash(relPath)}.claim`);
  }

  private donePath(relPath: string): string {
    return path.join(this.root, SLUICE_DIR, 'done', `${this.hash(relPath)}.json`);
  }

  /** A completed file's record by its bytes: found again when the file was renamed or moved on the share. */
  private contentDonePath(contentHash: string): string {
    return path.join(this.root, SLUICE_DIR, 'done', `content-${this.hash(contentHash)}.json`);
  }

  /** The record of the completed file that had these bytes, under the name it had when last seen done. */
  async readDoneByContent(contentHash: string): Promise<DoneRecord | undefined> {
    const text = await this.fs.readFile(this.contentDonePath(contentHash), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const r = JSON.parse(text) as DoneRecord;
      return r.contentHash === contentHash ? r : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A completed file renamed or moved on the share (followed by the computer that processed it):
   * done under its new name too, and its record by content names where it is now.
   */
  async recordMoved(relPath: string, done: Omit<DoneRecord, 'relPath' | 'at' | 'host'>): Promise<void> {
    await this.writeDone({ relPath, host: this.o.host, at: new Date(this.now()).toISOString(), ...done });
  }

  /** The done record (and, for completed bytes known by content, the record by content), each written whole. */
  private async writeDone(record: DoneRecord): Promise<void> {
    const files = [this.donePath(record.relPath)];
    if (record.state === 'completed' && record.contentHash) files.push(this.contentDonePath(record.contentHash));
    // Throws while the share is away: the claim stays ours, and the caller releases it on return.
    await this.sluiceDir('done');
    for (const file of files) {
      // Named after this running Sluice, so what a failed write leaves is known as its own (claim-sweep.ts).
      const tmp = `${file}.${this.writer}.${randomUUID()}.tmp`;
      try {
        await this.fs.writeFile(tmp, JSON.stringify(record));
        await this.fs.rename(tmp, file);
      } catch (e) {
        await this.fs.unlink(tmp).catch(() => undefined);
        throw e;
      }
    }
  }

  /** The claim on a file, if anyone's is readable; undefined when there is none (or it is mid-write). */
  async read(relPath: string): Promise<ClaimRecord | undefined> {
    const text = await this.fs.readFile(path.join(this.claimDir(relPath), 'owner.json'), 'utf8').catch((e) => {
      if (isGone(e)) return undefined;
      throw e;
    });
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as ClaimRecord;
    } catch {
      return undefined; // a torn read of a file being replaced: no owner known this time
    }
  }

  async readDone(
    relPath: string,
    key: string,
    file?: { size: number; mtimeMs: number },
  ): Promise<DoneRecord | undefined> {
    const text = await this.fs.readFile(this.donePath(relPath), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const r = JSON.parse(text) as DoneRecord;
      if (r.key === key) return r;
      // The same file, keyed otherwise (full hash here, fingerprint there): still the same work.
      const same = file && r.size === file.size && r.mtimeS === Math.floor(file.mtimeMs / 1000);
      return same ? r : undefined; // done for other content: this content is new
    } catch {
      return undefined;
    }
  }

  /**
   * Takes the claim on a file for this computer, or says who holds it (or that it is done). `again`
   * is a retry by hand: a file that ended without results (failed, canceled) may be taken again;
   * one completed, here or elsewhere, is still done.
   */
  async take(
    relPath: string,
    key: string,
    attempt: number,
    file?: { size: number; mtimeMs: number },
    opts: { again?: boolean } = {},
  ): Promise<TakeResult> {
    const done = await this.readDone(relPath, key, file);
    if (done && !(opts.again && done.state !== 'completed')) return { kind: 'done', record: done };
    const dir = this.claimDir(relPath);
    await this.sluiceDir('claims');
    const got = await this.makeDir(dir);
    if (got) return this.own(relPath, key, attempt);
    const held = await this.read(relPath);
    const mineBefore = this.mine.get(relPath);
    if (held && mineBefore && held.token === mineBefore.token) {
      return { kind: 'taken', token: held.token, attempt: held.attempt };
    }
    const seen = sightClaim(
      this.sightings.get(dir),
      { token: held?.token ?? '', refreshCount: held?.refreshCount ?? -1 },
      this.now(),
    );
    this.sightings.set(dir, seen);
    if (!isClaimStale(seen, this.now(), { timeoutMs: this.o.timeoutMs, toleranceMs: this.toleranceMs })) {
      return { kind: 'held', host: held?.host ?? 'another computer' };
    }
    // Stale: rename it aside. Only one of several computers trying gets this rename.
    const aside = `${dir}.stale-${randomUUID()}`;
    const moved = await this.fs.rename(dir, aside).then(
      () => true,
      (e: unknown) => {
        if (isGone(e) || isTaken(e)) return false;
        throw e;
      },
    );
    if (!moved) return { kind: 'held', host: held?.host ?? 'another computer' };
    this.sightings.delete(dir);
    await this.fs.rm(aside, { recursive: true, force: true }).catch(() => undefined);
    if (!(await this.makeDir(dir))) {
      const now = await this.read(relPath);
      return { kind: 'held', host: now?.host ?? 'another computer' };
    }
    const taken = await this.own(relPath, key, Math.max(attempt, held?.attempt ?? 0));
    return taken.kind === 'taken' ? { ...taken, tookOver: held?.host ?? 'another computer' } : taken;
  }

  /** Whether the folder's root is there (folder-root.ts); a root that is not is never made. */
  async present(): Promise<boolean> {
    return this.fs.present(this.root).catch(() => false);
  }

  /**
   * `.sluice/<sub>` under the root, made one level at a time and only under a root that is there:
   * a share that went away is never stood up again as a local folder (folder-root.ts).
   */
  private async sluiceDir(sub: 'claims' | 'done'): Promise<void> {
    if (!(await this.present())) throw new FolderAwayError(this.root);
    for (const dir of [path.join(this.root, SLUICE_DIR), path.join(this.root, SLUICE_DIR, sub)]) {
      await this.fs.mkdir(dir).catch((e: unknown) => {
        if (isTaken(e)) return;
        throw isGone(e) ? new FolderAwayError(this.root) : e;
      });
    }
  }

  private async makeDir(dir: string): Promise<boolean> {
    return this.fs.mkdir(dir).then(
      () => true,
      (e: unknown) => {
        if (isTaken(e)) return false;
        throw e;
      },
    );
  }

  private async own(relPath: string, key: string, attempt: number): Promise<TakeResult> {
    const record: ClaimRecord = {
      host: this.o.host,
      instance: this.o.instance,
      writer: this.writer,
      token: randomUUID(),
      relPath,
      key,
      attempt,
      refreshCount: 0,
      refreshedAt: new Date(this.now()).toISOString(),
    };
    const ok = await this.write(record);
    if (!ok) {
      const other = await this.read(relPath);
      return { kind: 'held', host: other?.host ?? 'another computer' };
    }
    this.mine.set(relPath, record);
    return { kind: 'taken', token: record.token, attempt };
  }

  /** Write-then-rename, then read back: true when the claim on the share is ours as written. */
  private async write(record: ClaimRecord): Promise<boolean> {
    const dir = this.claimDir(record.relPath);
    const tmp = path.join(dir, `owner.${record.token}.${record.refreshCount}.tmp`);
    try {
      await this.fs.writeFile(tmp, JSON.stringify(record));
      await this.fs.rename(tmp, path.join(dir, 'owner.json'));
    } catch (e) {
      if (isGone(e)) return false;
      throw e;
    }
    const back = await this.read(record.relPath);
    return back?.token === record.token;
  }

  /**
   * Refreshes the lease on a claim this computer holds. 'lost' when another computer owns it now;
   * a claim folder deleted under us (a clean-up, a restore) is taken again if nobody else has it.
   */
  async refresh(relPath: string, patch: { attempt?: number; streamId?: string } = {}): Promise<'ok' | 'lost'> {
    const prev = this.mine.get(relPath);
    if (!prev) return 'lost';
    // The share went away: the claim is kept as it is, and nothing is written where it was.
    if (!(await this.present())) return 'ok';
    const on = await this.read(relPath);
    if (on && on.token !== prev.token) return this.lose(relPath);
    if (!on) {
      // Gone, or mid-replace: try to stand it up again; someone else's mkdir wins over ours.
      await this.sluiceDir('claims').catch(() => undefined);
      const made = await this.makeDir(this.claimDir(relPath)).catch(() => false);
      if (!made) {
        const other = await this.read(relPath);
        if (other && other.token !== prev.token) return this.lose(relPath);
        if (!other) return 'ok'; // unreadable this time (cache, torn read): try again next round
      }
    }
    const next: ClaimRecord = {
      ...prev,
      ...patch,
      refreshCount: prev.refreshCount + 1,
      refreshedAt: new Date(this.now()).toISOString(),
    };
    const ok = await this.write(next).catch(() => false);
    if (!ok) {
      const other = await this.read(relPath);
      if (other && other.token !== prev.token) return this.lose(relPath);
      return 'ok';
    }
    this.mine.set(relPath, next);
    return 'ok';
  }

  private lose(relPath: string): 'lost' {
    this.mine.delete(relPath);
    return 'lost';
  }

  holds(relPath: string): boolean {
    return this.mine.has(relPath);
  }

  /** The host that owns the claim now (for a 'lost' refresh's message). */
  async ownerHost(relPath: string): Promise<string | undefined> {
    return (await this.read(relPath))?.host;
  }

  /**
   * The file is finished here: the done record first (so nobody takes it again in between), then
   * the claim goes, renamed aside before removal so a half-removed folder is never read as a claim.
   * Only our own claim is removed.
   */
  async release(relPath: string, done?: Omit<DoneRecord, 'relPath' | 'at' | 'host'>): Promise<void> {
    const prev = this.mine.get(relPath);
    if (done) await this.writeDone({ relPath, host: this.o.host, at: new Date(this.now()).toISOString(), ...done });
    this.mine.delete(relPath);
    if (!prev) return;
    const on = await this.read(relPath);
    if (on?.token !== prev.token) return;
    await this.removeClaim(this.claimDir(relPath), 'done');
  }

  /**
   * Renames a claim folder aside, then removes it: a half-removed folder is never read as a claim.
   * A claim that cannot go now (an unwritable share) is left for the sweep (claim-sweep.ts).
   */
  async removeClaim(dir: string, why: 'done' | 'stale'): Promise<boolean> {
    const aside = `${dir}.${why}-${randomUUID()}`;
    const moved = await this.fs.rename(dir, aside).then(
      () => true,
      () => false,
    );
    if (moved) await this.fs.rm(aside, { recursive: true, force: true }).catch(() => undefined);
    return moved;
  }

  /** The record of the claim in this folder, if it can be read (the sweep judges claims by it). */
  async readClaimDir(dir: string): Promise<ClaimRecord | undefined> {
    const text = await this.fs.readFile(path.join(dir, 'owner.json'), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as ClaimRecord;
    } catch {
      return undefined;
    }
  }

  /** Whether this running Sluice holds the claim on this file now. */
  isMine(record: Pick<ClaimRecord, 'relPath' | 'token'>): boolean {
    return this.mine.get(record.relPath)?.token === record.token;
  }

  /** The tag this computer's state folder puts on its claims and temporary files. */
  get writer(): string {
    return this.o.writer ?? this.o.instance;
  }

  get timeouts(): { timeoutMs: number; toleranceMs: number } {
    return { timeoutMs: this.o.timeoutMs, toleranceMs: this.toleranceMs };
  }

  /** The share came back: claims are judged afresh, from now (nobody could refresh them while it was away). */
  cameBack(): void {
    this.sightings.clear();
  }

  /** Lets go of a claim in memory only: another computer owns it now, so the share is not touched. */
  forget(relPath: string): void {
    this.mine.delete(relPath);
  }

  /** Re-adopts a claim written by this state folder before a restart, if the share still says it is ours. */
  async adopt(relPath: string, token: string): Promise<boolean> {
    const on = await this.read(relPath);
    if (!on || on.token !== token) return false;
    this.mine.set(relPath, on);
    return true;
  }
}
