// A watch folder's file-system events (chokidar), set up once its walk has read the tree: a watch
// of its own for every folder the walk read, handed over a few at a time, one for folders found
// later, or one recursive watcher when polling. What the events name goes to the settle checker;
// the folder's life (walks, going missing, status) stays with its watcher (folder-watcher.ts).
// Note: no awaitWriteFinish (its threshold must exceed the writer's longest pause, feasibility §4)
// and no recursive fs.watch (it blocks the event loop for minutes on Linux).
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { SettleChecker } from '../settle/settle-checker.js';
import type { FolderRules } from './folder-scan.js';

/** A huge tree can take long to set up; past this the walk goes ahead and events join when ready. */
const READY_TIMEOUT_MS = 30_000;
/** Only with usePolling (shares without events): the default 100 ms would stat a big tree non-stop. */
const POLL_INTERVAL_MS = 1000;
/**
 * When a folder that just appeared is read again. chokidar reads a new folder and only then sets
 * its watch, so a file landing in between is never reported (paulmillr/chokidar#1471); its
 * read of the folder usually ends within milliseconds, the second look covers a loaded machine.
 */
const NEW_DIR_REREAD_MS = [300, 2000];
/**
 * Folders handed to one chokidar watcher at a time while the watches are set up. chokidar lstats
 * every entry of a folder it watches and holds a folder's stats until the last of them is back:
 * 32 folders at once kept ~3,000 stats alive across young-generation collections, and a
 * 100,000-file start promoted 85 MB of them to the old generation (peak RSS 250–360 MB). Four
 * at a time: 11 MB promoted, the watches set up as fast.
 */
const DIR_BATCH = 4;

export interface FolderEventsDeps {
  root: string;
  rules: FolderRules;
  usePolling: boolean;
  /** When a folder that just appeared is read again (default NEW_DIR_REREAD_MS). */
  newDirRereadMs?: readonly number[] | undefined;
  checker: Pick<SettleChecker, 'enqueue' | 'touched' | 'drop' | 'dropUnder'>;
  /** Work of generation `gen` still counts: the folder is up and has not been torn down since. */
  live(gen: number): boolean;
  /** A raw event arrived (event-burst.ts watches for an overflow). */
  burst(): void;
  /** The watched folder itself went away. */
  rootGone(gen: number): void;
  /** A folder that appeared: read it again for files that landed before its watch was set. */
  readAgain(gen: number, dir: string): void;
  /** A watch failed; `message` is chokidar's. */
  failed(gen: number, message: string): void;
}

export class FolderEvents {
  /** With native events: watches of a batch of folders each, and one for folders found later. */
  private fsws: FSWatcher[] = [];
  private late: FSWatcher | undefined;
  private readonly watchedDirs = new Set<string>();
  /** Releases a start that waits for chokidar's ready when the watcher is torn down first. */
  private readonly unblock = new Set<() => void>();
  private readonly rereads = new Set<NodeJS.Timeout>();
  private readonly root: string;
  private readonly rules: FolderRules;

  constructor(private readonly d: FolderEventsDeps) {
    this.root = d.root;
    this.rules = d.rules;
  }

  /**
   * Sets the events up. With native events each folder the walk read gets its own chokidar watch
   * (depth 0), handed over a batch at a time: chokidar given the root alone reads the whole tree
   * at once and lstats every file in it, 100,000 stat calls in flight that held ~270 MB of heap at
   * its peak. Folders that appear later are added as they are reported. Polling keeps one
   * recursive watcher: a polled folder does not name its files, so they are watched themselves.
   */
  async attach(gen: number, walked: readonly string[] | undefined): Promise<void> {
    if (this.d.usePolling) {
      await this.open([this.root], gen, this.rules.recursive ? undefined : 0);
      return;
    }
    const dirs = walked?.length ? walked : [this.root];
    for (let i = 0; i < dirs.length && this.d.live(gen); i += DIR_BATCH) {
      const batch = dirs.slice(i, i + DIR_BATCH).filter((d) => !this.watchedDirs.has(d));
      for (const d of batch) this.watchedDirs.add(d);
      if (batch.length > 0) await this.open(batch, gen, 0);
    }
  }

  /** A folder that appeared (or was found by a second look) gets its watch; each folder once. */
  watchDir(gen: number, dir: string): void {
    if (this.d.usePolling || !this.rules.recursive || !this.d.live(gen)) return;
    if (this.watchedDirs.has(dir)) return;
    this.watchedDirs.add(dir);
    if (this.late) this.late.add(dir);
    else void this.open([dir], gen, 0, true);
  }

  private open(paths: string[], gen: number, depth: number | undefined, late = false): Promise<void> {
    const rel = (p: string): string => path.relative(this.root, p);
    const dirsOnly = !this.d.usePolling;
    const fsw = watch(paths, {
      ignoreInitial: true,
      // Links are reported as entries and stat'ed by us: a link loop is never walked.
      followSymlinks: false,
      usePolling: this.d.usePolling,
      // Polling stats every watched file each interval; media counts as "binary" to chokidar.
      interval: POLL_INTERVAL_MS,
      binaryInterval: POLL_INTERVAL_MS,
      depth,
      ignored: (p, stats) => {
        if (p === this.root) return false;
        if (stats?.isDirectory()) return !this.rules.acceptDir(rel(p));
        // chokidar gives every file it keeps its own native watch: 100,000 files were 100,000
        // watches and ~6 KB of memory each. A folder's watch reports what happens to the files in
        // it (their names come with the raw events below), so only folders are kept. Polling
        // watches see no names from a folder: there every candidate file is kept, as before.
        if (stats?.isFile()) return dirsOnly || !this.rules.acceptFile(rel(p));
        return path.basename(p).startsWith('.');
      },
    });
    const onFile = (p: string): void => {
      if (this.rules.acceptFile(rel(p))) this.d.checker.enqueue(p);
    };
    fsw.on('add', onFile);
    fsw.on('change', onFile);
    // Unthrottled: what chokidar's throttles drop after a touch is looked for (settle-checker.ts).
    fsw.on('raw', (_event, evPath: string | null, details) => {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      if (typeof watched !== 'string') return;
      const named = evPath ? path.resolve(watched, evPath) : undefined;
      // A name in a folder's event: created, written, renamed or deleted; a stat tells which
      // (a deleted file is dropped, a folder's name is not a file and is left to chokidar).
      if (dirsOnly && named !== undefined && named !== path.resolve(watched)) onFile(named);
      this.d.checker.touched(named !== undefined ? [watched, named] : [watched]);
      this.d.burst();
    });
    fsw.on('unlink', (p) => this.d.checker.drop(p));
    fsw.on('unlinkDir', (p) => {
      if (p === this.root) {
        this.d.rootGone(gen);
        return;
      }
      this.d.checker.dropUnder(p + path.sep);
      // Made again later, it is reported again and watched again.
      for (const d of this.watchedDirs) if (d === p || d.startsWith(p + path.sep)) this.watchedDirs.delete(d);
    });
    fsw.on('addDir', (p) => {
      if (p === this.root || !this.rules.recursive) return;
      this.watchDir(gen, p);
      for (const ms of this.d.newDirRereadMs ?? NEW_DIR_REREAD_MS) {
        const t = setTimeout(() => {
          this.rereads.delete(t);
          this.d.readAgain(gen, p);
        }, ms);
        t.unref();
        this.rereads.add(t);
      }
    });
    fsw.on('error', (e) => this.d.failed(gen, e instanceof Error ? e.message : String(e)));
    this.fsws.push(fsw);
    if (late) this.late = fsw;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.unblock.delete(done);
        resolve();
      };
      const t = setTimeout(done, READY_TIMEOUT_MS);
      t.unref();
      fsw.once('ready', done);
      this.unblock.add(done);
    });
  }

  /**
   * Stops every watch and pending reread at once; the returned function closes the watchers
   * (awaited by the caller once the rest of its teardown is done).
   */
  detach(): () => Promise<void> {
    const fsws = this.fsws;
    this.fsws = [];
    this.late = undefined;
    this.watchedDirs.clear();
    for (const done of [...this.unblock]) done();
    for (const t of this.rereads) clearTimeout(t);
    this.rereads.clear();
    return async () => {
      await Promise.all(fsws.map((w) => w.close().catch(() => undefined)));
    };
  }
}
