// Team mode for the running queue: takes a claim before a shared watch folder's file becomes a
// job, keeps the leases of this computer's claims fresh, hands a job over when another computer
// took its claim, leaves a done record when a job ends, and looks again at files held elsewhere
// (a watch folder reports a file once, so a file held by a live owner would otherwise be forgotten).
import { DEFAULT_CLAIM_TIMEOUT_S } from '../../../common/defaults.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { FileIdentity } from '../../engine/file-identity.js';
import { isTerminal, type JobEvent, type JobRecord } from '../../engine/job.js';
import type { Params, WatchFolder } from '../../engine/settings.js';
import { normaliseSharePath, sharedKey, type SharedIdentity } from '../../engine/shared-folder.js';
import { nodeClaimFs, type ClaimFs } from './claim-fs.js';
import { ClaimStore } from './claim-store.js';
import { doneUnderAnotherName, recordMove } from './renamed-on-share.js';
import { SweepSchedule } from './claim-sweep.js';
import { FolderAwayError } from '../watch/folder/folder-root.js';
import { HeldElsewhereList, type HeldElsewhere } from './held-elsewhere.js';

export type { HeldElsewhere } from './held-elsewhere.js';

export { sharedStreamId } from './shared-id.js';

export { DEFAULT_CLAIM_TIMEOUT_S };

export interface SharedFoldersOptions {
  apply: (jobId: string, ev: JobEvent) => JobRecord | undefined;
  jobs: () => Iterable<JobRecord>;
  folder: (id: string) => WatchFolder | undefined;
  /** Offers a file held elsewhere to the intake again. */
  retake: (folder: WatchFolder, file: { path: string; size: number; mtimeMs: number }) => Promise<unknown>;
  host?: string;
  /**
   * How many claimed files may wait in this computer's queue before it claims more: a computer
   * that claimed every file it saw would keep the others idle. Default 2.
   */
  backlog?: number;
  refreshMs?: number;
  now?: () => number;
  fs?: ClaimFs;
  /** This state folder's tag on its claims and temporary files, the same across restarts (claim-sweep.ts). */
  writer?: string;
  /** Called when the files held by other computers changed (the Queue shows them). */
  changed?: () => void;
}

export type ClaimOutcome = { ok: true; shared: SharedIdentity } | { ok: false; message: string };
export type ReclaimOutcome = { ok: true; claim: { token: string; attempt: number } } | { ok: false; message: string };

export class SharedFolders {
  readonly host: string;
  private readonly instance = randomUUID();
  private readonly stores = new Map<string, ClaimStore>();
  private readonly sweeps: SweepSchedule;
  /** Jobs ended whose done record and claim release wait for their folder (away, or refusing writes). */
  private readonly unreleased = new Map<
    string,
    JobRecord
  >(); /** Files another computer holds: looked at again every lease round. */
  private readonly waiting = new Map<string, { folder: WatchFolder; file: FileIdentity }>();
  /** Files left for later because this computer's queue is full: looked at again every second. */
  private readonly deferred = new Map<string, { folder: WatchFolder; file: FileIdentity }>();
  /** Tokens of claims granted whose job is not in the queue yet (counted against the backlog). */
  private readonly granted = new Set<string>();
  /** Files another computer was last seen holding: path → folder and that computer's name. */
  private readonly elsewhere = new HeldElsewhereList(
    (folder) => this.live(folder) !== undefined,
    () => this.o.changed?.(),
  );
  private chain: Promise<unknown> = Promise.resolve();
  private deferTimer: NodeJS.Timeout | undefined;
  private readonly handedOver = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;

  constructor(private readonly o: SharedFoldersOptions) {
    this.host = o.host ?? hostname();
    // In the claim chain, so a claim being taken now is never read as a leftover.
    this.sweeps = new SweepSchedule(o.fs ?? nodeClaimFs, o.now ?? Date.now, (f) => {
      const p = this.chain.then(f);
      this.chain = p.catch(() => undefined);
      return p;
    });
  }

  private store(folder: Pick<WatchFolder, 'path' | 'claimTimeoutS'>): ClaimStore {
    const timeoutMs = (folder.claimTimeoutS ?? DEFAULT_CLAIM_TIMEOUT_S) * 1000;
    const k = `${folder.path}\0${timeoutMs}`;
    let s = this.stores.get(k);
    if (!s) {
      s = new ClaimStore(folder.path, {
        host: this.host,
        instance: this.instance,
        timeoutMs,
        ...(this.o.refreshMs === undefined ? {} : { refreshMs: this.o.refreshMs }),
        ...(this.o.now ? { now: this.o.now } : {}),
        ...(this.o.fs ? { fs: this.o.fs } : {}),
        ...(this.o.writer ? { writer: this.o.writer } : {}),
      });
      this.stores.set(k, s);
      this.sweeps.add(s);
      this.arm(s.refreshMs);
    }
    return s;
  }

  /** Claims a new file of a shared folder before it becomes a job; says why not otherwise. One at a time. */
  claim(folder: WatchFolder, file: FileIdentity, what: { templateId: string; params: Params }): Promise<ClaimOutcome> {
    const p = this.chain.then(() => this.claimNow(folder, file, what));
    this.chain = p.catch(() => undefined);
    return p;
  }

  private backlogNow(): number {
    const queuedTokens = new Set<string>();
    let n = 0;
    for (const j of this.o.jobs()) {
      if (!j.shared) continue;
      if (j.shared.token) queuedTokens.add(j.shared.token);
      if (j.state === 'queued' && !j.verifyStream) n++;
    }
    for (const t of this.granted) if (queuedTokens.has(t)) this.granted.delete(t);
    return n + this.granted.size;
  }

  private async claimNow(
    folder: WatchFolder,
    file: FileIdentity,
    what: { templateId: string; params: Params },
  ): Promise<ClaimOutcome> {
    const relPath = normaliseSharePath(path.relative(folder.path, file.path));
    const key = sharedKey({
      relPath,
      size: file.size,
      mtimeMs: file.mtimeMs,
      ...(file.contentHash ? { contentHash: file.contentHash } : {}),
      ...what,
    });
    const store = this.store(folder);
    const name = path.basename(file.path);
    if (this.backlogNow() >= (this.o.backlog ?? 2)) {
      this.deferred.set(file.path, { folder, file });
      this.armDeferred();
      return { ok: false, message: `${name}: waiting for room in this computer's queue (shared folder).` };
    }
    this.deferred.delete(file.path);
    const renamed = await doneUnderAnotherName(folder.path, store, relPath, file);
    if (renamed) {
      this.waiting.delete(file.path);
      this.notHeld(file.path);
      return { ok: false, message: `${name}: already processed on ${renamed.host} (as ${renamed.relPath}).` };
    }
    const got = await store.take(relPath, key, 0, file).catch((e: unknown) => e as Error);
    if (got instanceof Error) {
      this.waiting.set(file.path, { folder, file });
      return {
        ok: false,
        message: `${name}: the shared folder's claims cannot be written (${got.message}); trying again.`,
      };
    }
    if (got.kind === 'done') {
      this.waiting.delete(file.path);
      this.notHeld(file.path);
      return { ok: false, message: `${name}: already processed on ${got.record.host}.` };
    }
    if (got.kind === 'held') {
      this.waiting.set(file.path, { folder, file });
      this.heldBy(file.path, folder, got.host);
      return { ok: false, message: `${name}: processing on ${got.host}.` };
    }
    this.waiting.delete(file.path);
    this.notHeld(file.path);
    this.granted.add(got.token);
    // Forgotten if the job never came (the journal refused it): the lease then simply runs out.
    setTimeout(() => this.granted.delete(got.token), 10_000).unref();
    return { ok: true, shared: { relPath, key, attempt: got.attempt, token: got.token } };
  }

  /**
   * A completed file of a shared folder was renamed or moved (and followed here): the share
   * records it done under its new name, so no other computer takes it for a new file.
   */
  async moved(job: JobRecord): Promise<void> {
    if (!job.shared || job.origin.kind !== 'watch' || job.state !== 'completed') return;
    const folder = this.o.folder(job.origin.folderId);
    if (folder) await recordMove(folder.path, this.store(folder), job).catch(() => undefined);
  }

  /**
   * A failed or canceled job of a shared folder retried by hand takes its claim on the share again
   * before it may upload, for its next attempt; refused in words while another computer holds the
   * file or when the file was completed (here or elsewhere). Undefined for a job of no shared folder.
   */
  async reclaim(job: JobRecord): Promise<ReclaimOutcome | undefined> {
    if (!job.shared) return undefined;
    const folder = this.rootOf(job);
    const name = path.basename(job.source.path);
    if (!folder) {
      return { ok: false, message: `${name}: the shared folder it came from cannot be found; add the file again.` };
    }
    const store = this.store(folder);
    const attempt = job.shared.attempt + 1;
    const got = await store
      .take(job.shared.relPath, job.shared.key, attempt, job.source, { again: true })
      .catch((e: unknown) => e as Error);
    if (got instanceof Error) {
      return {
        ok: false,
        message: `${name}: the shared folder's claims cannot be written (${got.message}); not retried. Try again when the drive answers.`,
      };
    }
    if (got.kind === 'done') {
      return { ok: false, message: `${name}: already processed on ${got.record.host}; not retried.` };
    }
    if (got.kind === 'held') {
      return {
        ok: false,
        message: `${name}: processing on ${got.host}, which holds the file in the shared folder; not retried.`,
      };
    }
    this.handedOver.delete(job.id);
    return { ok: true, claim: { token: got.token, attempt: got.attempt } };
  }

  /**
   * The shared folder a job came from: its watch folder, or (the folder left Settings since) the
   * root its share-relative path points to, with the default claim timeout.
   */
  private rootOf(job: JobRecord): (Pick<WatchFolder, 'path' | 'claimTimeoutS'> & { id: string }) | undefined {
    const folder = job.origin.kind === 'watch' ? this.o.folder(job.origin.folderId) : undefined;
    if (folder) return folder;
    if (!job.shared) return undefined;
    const parts = job.shared.relPath.split('/').length;
    let root = job.source.path;
    for (let i = 0; i < parts; i++) root = path.dirname(root);
    if (normaliseSharePath(path.relative(root, job.source.path)) !== job.shared.relPath) return undefined;
    return { id: job.origin.kind === 'watch' ? job.origin.folderId : root, path: root };
  }

  /** After a restart: this computer's unfinished shared jobs keep their claims, or are handed over. */
  async resume(): Promise<void> {
    for (const job of this.o.jobs()) {
      if (isTerminal(job.state) || !job.shared?.token) continue;
      const folder = job.origin.kind === 'watch' ? this.o.folder(job.origin.folderId) : undefined;
      if (!folder) continue;
      const store = this.store(folder);
      if (await store.adopt(job.shared.relPath, job.shared.token).catch(() => false)) continue;
      const done = await store.readDone(job.shared.relPath, job.shared.key).catch(() => undefined);
      this.handOver(job.id, done?.host ?? (await store.ownerHost(job.shared.relPath)));
    }
  }

  private handOver(jobId: string, host: string | undefined): void {
    this.handedOver.add(jobId);
    this.o.apply(jobId, { type: 'handedOver', ...(host ? { host } : {}) });
  }

  /**
   * A job ended: its done record is left for the other computers, and its claim goes. A folder
   * away keeps the claim until it is back; a share refusing the write lets it go stale (the 409).
   */
  async settled(job: JobRecord): Promise<void> {
    if (!job.shared || job.origin.kind !== 'watch') return;
    const folder = this.o.folder(job.origin.folderId);
    if (!folder) return;
    const store = this.store(folder);
    if (this.handedOver.delete(job.id)) return store.forget(job.shared.relPath);
    this.unreleased.delete(job.id);
    const failed = await store
      .release(job.shared.relPath, {
        key: job.shared.key,
        size: job.source.size,
        mtimeS: Math.floor(job.source.mtimeMs / 1000),
        state: job.state,
        ...(job.streamId ? { streamId: job.streamId } : {}),
        ...(job.source.contentHash ? { contentHash: job.source.contentHash } : {}),
      })
      .then(
        () => false,
        (e: unknown) => e instanceof FolderAwayError,
      );
    if (failed) this.unreleased.set(job.id, job);
  }

  /** A shared folder is back: claims are judged from now, releases that waited done, leftovers swept. */
  async folderAway(folder: WatchFolder, away: boolean): Promise<void> {
    if (away || !folder.shared) return;
    const store = this.store(folder);
    store.cameBack();
    this.sweeps.cameBack(store);
    await this.releaseWaiting();
    await this.sweeps.run(store, false);
  }

  /** The first sweep of a folder's leftovers, once it is watched: this computer's own go at once. */
  async folderUp(folder: WatchFolder): Promise<void> {
    if (!folder.shared) return;
    const store = this.store(folder);
    if (!this.sweeps.began(store)) await this.sweeps.run(store, true);
  }

  private async releaseWaiting(): Promise<void> {
    for (const job of [...this.unreleased.values()]) await this.settled(job);
  }

  private arm(ms: number): void {
    if (this.timer && ms >= this.tickMs) return;
    clearInterval(this.timer);
    this.tickMs = ms;
    this.timer = setInterval(() => {
      this.round ??= this.tick().finally(() => (this.round = undefined));
    }, ms);
    this.timer.unref();
  }
  private tickMs = Infinity;

  /** One lease round: refresh every claim this computer holds, then look again at files held elsewhere. */
  private async tick(): Promise<void> {
    for (const job of [...this.o.jobs()]) {
      if (isTerminal(job.state) || !job.shared || job.origin.kind !== 'watch') continue;
      const folder = this.o.folder(job.origin.folderId);
      if (!folder) continue;
      const store = this.store(folder);
      if (!store.holds(job.shared.relPath)) continue;
      const r = await store
        .refresh(job.shared.relPath, {
          attempt: job.shared.attempt,
          ...(job.streamId ? { streamId: job.streamId } : {}),
        })
        .catch(() => 'ok' as const); // an unreadable share this round: the lease has time to spare
      if (r === 'lost') this.handOver(job.id, await store.ownerHost(job.shared.relPath).catch(() => undefined));
    }
    await this.releaseWaiting();
    await this.sweeps.due();
    for (const [p, w] of [...this.waiting]) {
      this.waiting.delete(p);
      // Taken as its folder is saved now; a folder removed, paused, moved or no longer shared
      // takes nothing more (its file, once the other computer let it go, is not this one's).
      const folder = this.live(w.folder);
      if (folder) await this.o.retake(folder, w.file).catch(() => undefined);
      // Not asked about again (the file went, or its folder is no longer shared): no longer shown.
      if (!this.waiting.has(p)) this.notHeld(p);
    }
  }

  /** The folder as saved now, when its files are still this computer's to claim: watched, shared, at the same place. */
  private live(folder: Pick<WatchFolder, 'id' | 'path'>): WatchFolder | undefined {
    const now = this.o.folder(folder.id);
    return now?.enabled && now.shared && now.path === folder.path ? now : undefined;
  }

  private heldBy(filePath: string, folder: Pick<WatchFolder, 'id' | 'path'>, host: string): void {
    this.elsewhere.held(filePath, folder, host);
  }

  private notHeld(filePath: string): void {
    this.elsewhere.free(filePath);
  }

  /**
   * The files other computers hold, one group per folder and computer, each with at most
   * `shown` of its paths: what a screen shows stays small however many files the share holds.
   */
  heldElsewhere(shown = 20): HeldElsewhere[] {
    return this.elsewhere.groups(shown);
  }

  private armDeferred(): void {
    if (this.deferTimer) return;
    this.deferTimer = setInterval(() => {
      if (this.deferred.size === 0) {
        clearInterval(this.deferTimer);
        this.deferTimer = undefined;
        return;
      }
      for (const [p, w] of [...this.deferred]) {
        if (this.backlogNow() >= (this.o.backlog ?? 2)) return;
        this.deferred.delete(p);
        const folder = this.live(w.folder);
        if (folder) void this.o.retake(folder, w.file).catch(() => undefined);
      }
    }, 1000);
    this.deferTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.deferTimer);
    this.deferTimer = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.round;
  }
}
