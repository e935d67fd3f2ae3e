// The settle pipeline of one folder: paths to look at → stat → settle tracker → readable? →
// reported once per size+mtime. One timer per folder drives the due checks (due-ticker.ts),
// and stat/open run at bounded concurrency (look-queue.ts) so 10,000 files landing at once stay a queue.
import { promises as fsp, statSync } from 'node:fs';
import { SettleSet, type FileStat, type SettleDecision } from '../../../engine/settle.js';
import { openReader, openReaderNow, timedNow, type OpenedFile, type OpenReader } from '../../../media/byte-reader.js';
import { code } from '../error-code.js';
import { DueTicker } from './due-ticker.js';
import { LookQueue } from './look-queue.js';
import { SettledMemory } from './settled-memory.js';
import { DUE, keyOf, QUIET, type ProblemSkip } from './settle-types.js';
import type {
  DetectedFile,
  Fingerprinter,
  Opened,
  ScannedFile,
  SettleCheckerOptions,
  WaitingDone,
} from './settle-types.js';
import { ThreadJudge } from './thread-judge.js';
import { TrailingLooks } from './trailing-looks.js';

export type { DetectedFile, Fingerprinter, SettleCheckerOptions, WaitingDone } from './settle-types.js';
export { TRAILING_LOOK_MS } from './trailing-looks.js';

/**
 * How many files a walk may have waiting to settle before it waits for them to be taken: a walk
 * on a local drive reads 100,000 files in two seconds, and holding every one of them at once (and
 * the garbage of checking them all) was 100 MB more at the peak than letting the walk keep pace.
 * Above what the checks take in during a settle time, so the walk never holds them up.
 */
const WAITING_ROOM = 40_000;
const ROOM_POLL_MS = 25;

const EMPTY_WORDS = 'empty (0 bytes); it is taken once something is written to it.';

export class SettleChecker {
  private readonly folderId: string;
  private readonly now: () => number;
  private readonly onFile: (f: DetectedFile) => void;
  private readonly onProblem: (path: string, message: string, skip?: ProblemSkip) => void;
  private readonly onWaiting: (path: string, size: number) => void;
  private readonly onDoneWaiting: (which: WaitingDone) => void;
  private readonly tracker: SettleSet;
  private readonly fingerprint: Fingerprinter | undefined;
  /** path → size:mtime last reported: the guard that makes duplicate events harmless. */
  private readonly reported = new Map<string, string>();
  private readonly problems = new Map<string, string>();
  /** Bumped by reset(): work started before it is dropped when it completes. */
  private epoch = 0;
  private readonly ticker: DueTicker;
  private readonly looks = new LookQueue(
    (p, flags) => this.check(p, this.epoch, flags),
    () => this.inline,
  );
  /** Reported files a raw event touched, looked at once more shortly (trailing-looks.ts). */
  private readonly trailing = new TrailingLooks((p) => this.enqueue(p));
  /** The folder is on a network drive (or a user-space file system): see engine/settle.ts. */
  private slowVolume = false;
  private readonly networkSettleMs: number;
  private readonly settleMs: number;
  /** What earlier looks found of files kept waiting, as the tracker forgets a file each time it settles. */
  private readonly memory: SettledMemory;
  /** Looks are made on this thread (`setLocalVolume`). */
  private inline = false;
  /** The folder's drive is local: its files' modification times come from this computer's clock. */
  private localDrive = false;

  constructor(o: SettleCheckerOptions) {
    this.folderId = o.folderId;
    this.now = o.now;
    this.onFile = o.onFile;
    this.onProblem = o.onProblem;
    this.onWaiting = o.onWaiting ?? (() => undefined);
    this.onDoneWaiting = o.onDoneWaiting ?? (() => undefined);
    this.tracker = new SettleSet(o.settleMs);
    this.fingerprint = o.fingerprint;
    this.settleMs = o.settleMs;
    this.networkSettleMs = o.networkSettleMs ?? 0;
    this.ticker = new DueTicker(
      o.now,
      () => this.epoch,
      (now) => this.due(now),
    );
    this.memory = new SettledMemory({
      now: o.now,
      ...(o.incompleteAfterMs === undefined ? {} : { incompleteAfterMs: o.incompleteAfterMs }),
    });
  }

  /** Whether the folder is on a network drive, once its file system is known. */
  setSlowVolume(slow: boolean): void {
    this.slowVolume = slow;
  }

  /**
   * The folder is on a drive known to be local (engine/file-system-kind.ts `readsAtOnce`): each
   * look (stat; open, stat, two reads, close) is made at once on this thread instead of through
   * the thread pool, whose round trip costs more than the call itself and which the walk shares.
   * Measured on 100,000 files on ext4: the first look at the folder in under half the time. Calls
   * that show the drive is slow (thread-judge.ts: a stall, or a run of calls each waiting on the
   * disk) turn this off for good: the thread must never wait on a slow drive.
   */
  setLocalVolume(local: boolean): void {
    this.judgeThread.reset();
    this.inline = local;
    this.localDrive = local;
  }

  /**
   * A file the walk found, already stat'ed: judged without a second stat unless it is known.
   *
   * On a local drive every write moves a file's modification time to this computer's now, so one
   * modified the settle time ago has been left alone that long already: watching it for the settle
   * time again made a folder full before Sluice started wait two seconds per batch the walk found.
   * It is looked at at once and taken if its container vouches it is whole (MP4, MOV, WAV, MXF);
   * one whose container cannot tell (MP3, AAC) or is not whole waits the settle time as any other,
   * so a copier that set an old time before writing is still seen growing. Not on a network drive
   * or one of unknown kind, whose clock may not be this computer's.
   */
  offer(f: ScannedFile): void {
    if (this.reported.get(f.path) === keyOf(f) || this.looks.has(f.path)) return;
    if (this.localDrive && this.quietFor(f)) {
      this.looks.add(f.path, DUE | QUIET);
      return;
    }
    this.judge(f.path, f, f.ino, this.epoch);
  }

  /**
   * A file a first walk on a local drive listed by name alone: its look opens and fstats it, and
   * judges it as `offer` judges a stat'ed one (quiet by the fstat's time, or it waits to settle).
   */
  offerName(p: string): void {
    // One reported before a pause is stat'ed as any reported file is: changed or not.
    if (!this.looks.has(p)) this.looks.add(p, this.reported.has(p) ? 0 : DUE | QUIET);
  }

  /** Modified at least the settle time ago by this computer's clock (not in its future). */
  private quietFor(st: FileStat): boolean {
    return this.now() - st.mtimeMs >= this.settleMs;
  }

  /** Resolves once fewer than WAITING_ROOM files wait to settle or to be looked at. */
  room(): Promise<void> {
    const full = (): boolean => this.tracker.size + this.looks.waiting > WAITING_ROOM;
    if (!full()) return Promise.resolve();
    const gen = this.epoch;
    return new Promise((resolve) => {
      const poll = (): void => {
        if (!full() || gen !== this.epoch) resolve();
        else setTimeout(poll, ROOM_POLL_MS);
      };
      setTimeout(poll, ROOM_POLL_MS);
    });
  }

  /** Seen already: waiting, being checked, or reported. */
  knows(p: string): boolean {
    return this.reported.has(p) || this.tracker.has(p) || this.looks.has(p);
  }

  /** After a complete walk: forget what is no longer there, so memory follows the folder. */
  prune(seen: ReadonlySet<string>): void {
    for (const p of this.reported.keys()) if (!seen.has(p)) this.reported.delete(p);
    for (const p of this.problems.keys()) if (!seen.has(p)) this.problems.delete(p);
  }

  /** Stop pending work (pause, folder gone). What was reported stays reported. */
  reset(): void {
    this.epoch++;
    this.ticker.clear();
    this.looks.clear();
    this.trailing.clear();
    this.tracker.clear();
    this.memory.clear();
    this.onDoneWaiting({ all: true });
  }

  /** Something happened to this path (event or due check): stat it and judge again. */
  enqueue(p: string): void {
    this.looks.add(p);
  }

  private async check(p: string, gen: number, flags: number): Promise<void> {
    if (flags & DUE) return this.checkOpened(p, gen, (flags & QUIET) !== 0);
    return this.checkStat(p, gen);
  }

  /**
   * A due look: open, fstat, and when it is unchanged, on to the take with the same descriptor.
   * `quiet`: a file the walk found left alone for the settle time already (`offer`).
   */
  private async checkOpened(p: string, gen: number, quiet = false): Promise<void> {
    let h: OpenReader;
    try {
      h = this.inline ? openReaderNow(p, this.tookOnThread) : await openReader(p);
    } catch (e) {
      if (gen !== this.epoch) return;
      // Gone: as a stat would say. Anything else (no permission, busy, not a file) is told by a stat.
      if (code(e) === 'ENOENT') return this.drop(p);
      return this.checkStat(p, gen);
    }
    let st: OpenedFile;
    try {
      st = await h.fileStat();
    } catch {
      await h.close().catch(() => undefined);
      if (gen === this.epoch) await this.checkStat(p, gen);
      return;
    }
    return this.seen(p, st, gen, { handle: h, size: st.size, quiet });
  }

  private async checkStat(p: string, gen: number): Promise<void> {
    let st;
    try {
      st = this.inline ? timedNow(() => statSync(p), this.tookOnThread) : await fsp.stat(p);
    } catch (e) {
      if (gen !== this.epoch) return;
      if (code(e) === 'EACCES' || code(e) === 'EPERM')
        this.problem(p, 'stat', `Cannot read file: ${(e as Error).message}`);
      else this.drop(p);
      return;
    }
    return this.seen(p, st, gen);
  }

  /**
   * What a look found, by a stat or by the open file's fstat (`opened`: its descriptor, closed here
   * unless the take goes on with it).
   */
  private async seen(p: string, st: OpenedFile, gen: number, opened?: Opened): Promise<void> {
    const release = async (): Promise<void> => {
      await opened?.handle.close().catch(() => undefined);
    };
    if (gen !== this.epoch) return release();
    if (!st.isFile()) {
      await release();
      // No longer a file (a folder took its name): not looked at again until an event says so.
      if (this.tracker.has(p)) this.drop(p);
      return;
    }
    if (this.reported.get(p) === keyOf(st)) {
      await release();
      this.tracker.forget(p);
      this.onDoneWaiting({ path: p });
      return;
    }
    await this.judge(p, st, st.ino, gen, opened);
  }

  /** Settled: taken (with the descriptor a due look opened, awaited then); else it waits again. */
  private judge(p: string, st: FileStat, ino: number, gen: number, opened?: Opened): Promise<void> | undefined {
    const quiet = opened?.quiet === true && this.quietFor(st);
    let d: SettleDecision;
    if (quiet) {
      this.tracker.forget(p);
      d = { kind: 'settled', stat: { size: st.size, mtimeMs: st.mtimeMs } };
    } else d = this.tracker.observe(p, st, this.now());
    if (d.kind === 'wait') {
      this.ticker.schedule(d.checkAt);
      if (!this.memory.told(p, keyOf(st))) this.onWaiting(p, st.size);
      return opened?.handle.close().catch(() => undefined);
    }
    const taking = this.take(p, d.stat, ino, gen, opened && { ...opened, quiet });
    return opened ? taking : undefined;
  }

  /** `opened`: the due look's descriptor and the size its fstat gave, taken over (and closed) here. */
  private async take(p: string, st: FileStat, ino: number, gen: number, opened?: Opened): Promise<void> {
    let h: OpenReader;
    if (opened) h = opened.handle;
    else {
      try {
        h = this.inline ? openReaderNow(p, this.tookOnThread) : await openReader(p);
      } catch (e) {
        if (gen !== this.epoch) return;
        const c = code(e);
        if (c === 'ENOENT') return this.drop(p);
        // Windows: still open for writing by the copier; give it another settle period.
        if (c === 'EBUSY') return this.judge(p, st, ino, gen);
        return this.problem(p, keyOf(st), `Cannot read file: ${(e as Error).message}`);
      }
    }
    const key = keyOf(st);
    const { check, contentHash, told } = await this.memory.look(key, {
      path: p,
      st,
      handle: h,
      ...(opened ? { size: opened.size } : {}),
      unwatched: opened?.quiet === true,
      now: this.now,
      settleMs: this.settleMs,
      volume: { slowVolume: this.slowVolume, networkSettleMs: this.networkSettleMs },
      ...(this.fingerprint ? { fingerprint: this.fingerprint } : {}),
    });
    if (gen !== this.epoch) return;
    // Left alone for long and still not whole: said so, no longer shown as a copy that goes on.
    if (check.kind === 'wait' && told !== undefined) this.problem(p, key, told, { reason: 'never-whole', key });
    if (check.kind === 'wait') return this.judge(p, st, ino, gen);
    if (this.reported.get(p) === key) return;
    if (check.kind === 'empty') {
      // Known as it is (a change is looked at as any reported file's), not offered to the taker:
      // an empty file taken would fail at once, and the copy that writes to it later is what counts.
      this.reported.set(p, key);
      this.onDoneWaiting({ path: p });
      return this.problem(p, key, EMPTY_WORDS, { reason: 'empty', key });
    }
    this.reported.set(p, key);
    this.problems.delete(p);
    this.onDoneWaiting({ path: p });
    const f: DetectedFile = {
      folderId: this.folderId,
      path: p,
      size: st.size,
      mtimeMs: st.mtimeMs,
      ino,
      ...(contentHash ? { contentHash } : {}),
    };
    try {
      this.onFile(f);
    } catch {
      // A consumer's bug must not stop the watcher.
    }
  }

  /** Calls made on this thread that show the drive is slow send later looks to the thread pool. */
  private readonly judgeThread = new ThreadJudge(() => {
    this.inline = false;
  });
  private readonly tookOnThread = (ms: number): void => this.judgeThread.took(ms);

  /** The same choice for the folder's walks (folder-scan.ts `atOnce`): one drive, one verdict. */
  readonly onThread = { on: (): boolean => this.inline, took: this.tookOnThread };

  /** `skip`: a file left for a reason the folder's list shows; one not whole is no longer a copy going on. */
  problem(p: string, key: string, message: string, skip?: ProblemSkip): void {
    if (skip?.reason === 'never-whole') this.onDoneWaiting({ path: p });
    if (this.problems.get(p) === key) return;
    this.problems.set(p, key);
    try {
      this.onProblem(p, message, skip);
    } catch {
      // As for onFile.
    }
  }

  /**
   * A raw file-system event on one of these paths (the watcher cannot always tell a folder's entry
   * from a file): each that was reported is looked at again shortly, in one batch. Cheap enough
   * for every write of a copy: a file still settling is not reported, so it costs a map lookup.
   */
  touched(paths: readonly string[]): void {
    for (const p of paths) if (this.reported.has(p)) this.trailing.add(p);
  }

  /** Retry: looked at now, taken if whole; one still not whole is said so again at once (SettledMemory `again`). */
  recheck(p: string): void {
    this.memory.again(p);
    this.problems.delete(p);
    this.reported.delete(p);
    this.looks.add(p, DUE | QUIET);
  }

  /** The file went away: forget it (constant time: a folder emptied file by file stays linear). */
  drop(p: string): void {
    this.trailing.delete(p);
    this.looks.unflag(p);
    this.memory.forget(p);
    this.tracker.forget(p);
    this.onDoneWaiting({ path: p });
    this.reported.delete(p);
    this.problems.delete(p);
  }

  /** A folder went away: forget everything under it. */
  dropUnder(dir: string): void {
    const inside = (p: string): boolean => p.startsWith(dir);
    this.tracker.forgetWhere(inside);
    this.memory.forgetWhere(inside);
    this.onDoneWaiting({ under: dir });
    for (const p of this.reported.keys()) if (inside(p)) this.reported.delete(p);
    for (const p of this.problems.keys()) if (inside(p)) this.problems.delete(p);
  }

  /** The ticker fired: each due file is handed out once; one being checked now is looked at again after. */
  private due(now: number): number | undefined {
    for (const p of this.tracker.due(now)) this.looks.add(p, DUE);
    return this.tracker.nextCheckAt();
  }
}
