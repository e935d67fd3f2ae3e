// Where the lists of selects are kept: `<state>/selects/<key>.json`, one file per list, private like
// everything in the state folder and replaced atomically on every change (as the corrections are:
// transcript-corrections.ts), so a crash leaves the list before or after a change, never half of
// one. A change is saved before it is answered. The app and `sluice selects` may change one list at
// the same moment: each change takes the list's lock file (created exclusively) for its read,
// change and write, so neither loses the other's select. The file is named by a hash of the list's
// folded name: two spellings of one name ("Día 1", "dia 1") are one list on every file system.
import { createHash } from 'node:crypto';
import { watch as watchDir, type FSWatcher } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { foldText } from '../../../engine/transcript/search-text.js';
import {
  emptyList,
  listNameProblem,
  sameListName,
  SELECT_LIST,
  SelectError,
  type SelectList,
} from '../../../engine/selects/selects.js';
import { writeFileAtomic } from '../../results/result-writer.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files.js';

/** A lock older than this was left by a process that died mid-change: it is taken over. */
const STALE_LOCK_MS = 10_000;
const LOCK_TRIES = 200;
const LOCK_PAUSE_MS = 25;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How long a list file is left to settle after its last event before it is read (a rename is two events). */
const WATCH_SETTLE_MS = 60;

export class SelectsStore {
  /** One change at a time per list within this process. */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** The revision of each list file as this process last wrote or read it (`watch` says only what is new). */
  private readonly known = new Map<string, number>();

  constructor(readonly dir: string) {}

  keyOf(name: string): string {
    return createHash('sha256').update(foldText(name.trim()).normalize('NFC')).digest('hex').slice(0, 20);
  }

  pathOf(name: string): string {
    return path.join(this.dir, `${this.keyOf(name)}.json`);
  }

  /** The list by that name (any case or accents); undefined when there is none. */
  async load(name: string): Promise<SelectList | undefined> {
    return (await this.read(this.pathOf(name))) ?? (await this.underOldKey(name))?.list;
  }

  /**
   * The list by that name kept under a key an earlier fold gave it (the fold changed for "™", "ℍ"
   * and the like, common/text-fold.ts): found by the name it holds, so it is not lost or doubled.
   */
  private async underOldKey(name: string): Promise<{ file: string; list: SelectList } | undefined> {
    const own = path.basename(this.pathOf(name));
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const n of names.filter((f) => f.endsWith('.json') && f !== own)) {
      const list = await this.read(path.join(this.dir, n));
      if (list && sameListName(list.name, name)) return { file: path.join(this.dir, n), list };
    }
    return undefined;
  }

  /** Every list, by name. A damaged file is set aside (`.damaged`), not lost. */
  async all(): Promise<SelectList[]> {
    const names = await readdir(this.dir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [] as string[];
      throw e;
    });
    const lists = await Promise.all(
      names.filter((n) => n.endsWith('.json')).map((n) => this.read(path.join(this.dir, n))),
    );
    return lists.filter((l): l is SelectList => l !== undefined).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Changes a list (made when `create` and there is none) and saves it before answering. `change`
   * may throw a SelectError: nothing is saved then.
   */
  update(name: string, change: (list: SelectList) => SelectList, create = true): Promise<SelectList> {
    const problem = listNameProblem(name);
    if (problem) return Promise.reject(new SelectError(problem));
    const file = this.pathOf(name);
    const run = (this.chains.get(file) ?? Promise.resolve()).then(
      () => this.locked(file, name, change, create),
      () => this.locked(file, name, change, create),
    );
    const tail = run.catch(() => undefined);
    this.chains.set(file, tail);
    void tail.then(() => this.chains.get(file) === tail && this.chains.delete(file));
    return run;
  }

  private async locked(
    file: string,
    name: string,
    change: (list: SelectList) => SelectList,
    create: boolean,
  ): Promise<SelectList> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const release = await this.lock(`${file}.lock`);
    try {
      let current = await this.read(file);
      const old = current ? undefined : await this.underOldKey(name);
      if (old) {
        await rename(old.file, file);
        current = old.list;
      }
      if (!current && !create) throw new SelectError(`There is no list named "${name.trim()}".`);
      const next = change(current ?? emptyList(name));
      await writeFileAtomic(file, `${JSON.stringify(next, null, 1)}\n`, { writer: 'selects', mode: PRIVATE_FILE_MODE });
      this.known.set(path.basename(file), next.revision);
      return next;
    } finally {
      await release();
    }
  }

  /**
   * Calls `changed` with each list another process saves (`sluice selects add` while the app runs),
   * once its file is whole; this store's own saves are not repeated. Answers the stop.
   */
  async watch(changed: (list: SelectList) => void): Promise<() => void> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const timers = new Map<string, NodeJS.Timeout>();
    let stopped = false;
    const look = async (name: string): Promise<void> => {
      const list = await this.read(path.join(this.dir, name)).catch(() => undefined);
      if (stopped || !list || this.known.get(name) === list.revision) return;
      this.known.set(name, list.revision);
      changed(list);
    };
    let watcher: FSWatcher | undefined;
    try {
      watcher = watchDir(this.dir, (_event, name) => {
        if (stopped || typeof name !== 'string' || !/^[0-9a-f]{20}\.json$/.test(name)) return;
        clearTimeout(timers.get(name));
        const timer = setTimeout(() => {
          timers.delete(name);
          void look(name);
        }, WATCH_SETTLE_MS);
        timer.unref();
        timers.set(name, timer);
      });
      // Watching never keeps a process alive; a folder that cannot be watched (gone, too many
      // watches) still has its lists loaded when asked.
      watcher.unref();
      watcher.on('error', () => watcher?.close());
    } catch {
      watcher = undefined;
    }
    return () => {
      stopped = true;
      watcher?.close();
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    };
  }

  private async lock(lockFile: string): Promise<() => Promise<void>> {
    for (let i = 0; i < LOCK_TRIES; i++) {
      try {
        const handle = await open(lockFile, 'wx', PRIVATE_FILE_MODE);
        await handle.writeFile(String(process.pid));
        await handle.close();
        return () => rm(lockFile, { force: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        const since = await stat(lockFile).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (since > STALE_LOCK_MS) await rm(lockFile, { force: true });
        else await pause(LOCK_PAUSE_MS);
      }
    }
    throw new Error(`The list is being changed by another Sluice (${lockFile} is held); try again in a moment.`);
  }

  private async read(file: string): Promise<SelectList | undefined> {
    const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (text === undefined) return undefined;
    try {
      return SELECT_LIST.parse(JSON.parse(text)) as SelectList;
    } catch {
      await rename(file, `${file}.damaged`).catch(() => undefined);
      return undefined;
    }
  }
}
