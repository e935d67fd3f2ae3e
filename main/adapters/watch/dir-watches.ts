// File-system events for one watch folder: one plain (non-recursive) fs.watch per directory, never
// one per file. A directory's watch reports every name created, changed, renamed or deleted in it,
// which is all the settle checks need; watching each file as well (chokidar does, and lstats each
// file twice while setting up) costs 100,000 watches and 200,000 queued lstats on a 100,000-file
// folder, which held the thread pool for tens of seconds and kept a stop from ending.
// Recursive fs.watch is not used: on Linux it walks the tree on the event loop.
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

export interface DirWatchesOptions {
  /** Something happened to this name in a watched directory (what, the caller finds out). */
  onEntry(dir: string, full: string): void;
  /** A directory's watch failed (too many watches, the directory went away). */
  onError(dir: string, error: Error): void;
}

export class DirWatches {
  private readonly watches = new Map<string, FSWatcher>();

  constructor(private readonly o: DirWatchesOptions) {}

  /** Watches a directory (once). Called before the directory is read, so nothing lands unseen. */
  add(dir: string): void {
    if (this.watches.has(dir)) return;
    let w: FSWatcher;
    try {
      // Not persistent: a stop never waits on a watch left open.
      w = watch(dir, { persistent: false }, (_type, name) => {
        // No name (some platforms, overflow): the directory itself is looked at again.
        this.o.onEntry(dir, name ? path.join(dir, name.toString()) : dir);
      });
    } catch (e) {
      this.o.onError(dir, e as Error);
      return;
    }
    w.on('error', (e) => {
      this.remove(dir);
      this.o.onError(dir, e);
    });
    this.watches.set(dir, w);
  }

  has(dir: string): boolean {
    return this.watches.has(dir);
  }

  get size(): number {
    return this.watches.size;
  }

  /** Stops watching a directory and everything below it (it was deleted or moved away). */
  removeTree(dir: string): void {
    const below = dir + path.sep;
    for (const d of [...this.watches.keys()]) if (d === dir || d.startsWith(below)) this.remove(d);
  }

  private remove(dir: string): void {
    const w = this.watches.get(dir);
    this.watches.delete(dir);
    try {
      w?.close();
    } catch {
      // Already closed by the platform.
    }
  }

  close(): void {
    for (const d of [...this.watches.keys()]) this.remove(d);
  }
}
