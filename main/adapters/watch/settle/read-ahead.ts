// Reading a first walk's files ahead of their looks when they are not in the page cache (after a
// restart, or contents the system paged out): the looks run one at a time on the watcher's thread
// (settle-checker.ts), so each file not in the cache waits for the disk in turn, and 100,000 of
// them waited 4-8 s on this machine's disk. A few worker threads reading the same first bytes a
// little ahead keep several reads in flight and the watcher's thread off the disk's queue.
//
// One worker reads the first batch and says how long its files took. Cached files (a folder
// written or looked at a moment ago) take microseconds: reading ahead then only costs a core, so
// it stops there. Otherwise more workers join and each later batch goes to the next of them.
// The names go on to their looks only once that is known: a look that read a file first made it
// cached for the worker (a worker starts in some 30 ms, the looks at once), and a folder fresh from
// a restart was judged cached and read from the disk one file at a time (measured: 100,000 files
// after drop_caches, 25.7 s to queue, the walk itself ending at 16.4 s).
import { Worker } from 'node:worker_threads';

/** Bytes read from the start of each file: what a look's first read takes (byte-reader.ts). */
const AHEAD_BYTES = 64 * 1024;
/** Workers once files are found not cached. */
const WORKERS = 3;
/**
 * Files whose open, read and close took longer than this at the median were read from the disk
 * (a cached one takes some 10 µs). The median, not the mean: a new worker's first calls, or a
 * moment the worker was not running, made whole batches of cached files look slow on average.
 */
export const COLD_MS_PER_FILE = 0.03;

/**
 * The worker, as source: no file of its own to find in a bundle or an archive. A name that is a
 * FIFO is opened without waiting for a writer, as the looks open it; whatever fails is skipped.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const flags = fs.constants.O_NONBLOCK === undefined ? 'r' : fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;
const buf = Buffer.allocUnsafe(${AHEAD_BYTES});
parentPort.on('message', (paths) => {
  if (paths === null) return parentPort.close();
  const took = [];
  for (const p of paths) {
    const began = performance.now();
    try {
      const fd = fs.openSync(p, flags);
      try { fs.readSync(fd, buf, 0, buf.length, 0); } finally { fs.closeSync(fd); }
    } catch {}
    took.push(performance.now() - began);
  }
  took.sort((a, b) => a - b);
  parentPort.postMessage({ files: paths.length, medianMs: took[took.length >> 1] ?? 0 });
});
`;

/** The longest the names wait for the first batch's verdict. */
export const VERDICT_WAIT_MS = 250;

export interface ReadAheadOptions {
  /** Above this per file at the median, the files are taken as not cached (default COLD_MS_PER_FILE). */
  coldMsPerFile?: number;
  /** Told once, after the first batch: whether the files were found not cached. */
  onVerdict?(cold: boolean): void;
  /**
   * The names, in order, for their looks: held until the verdict, the end of the walk or
   * `VERDICT_WAIT_MS`, whichever comes first; then as they are added.
   */
  pass?(paths: readonly string[]): void;
  /** How long the names wait for the verdict (default VERDICT_WAIT_MS). */
  verdictWaitMs?: number;
}

export class ReadAhead {
  private readonly workers: Worker[] = [];
  private next = 0;
  /** undefined until the first batch is back: later batches wait for it. */
  private cold: boolean | undefined;
  private readonly held: string[][] = [];
  private ended = false;
  private readonly done: Promise<void>[] = [];
  private read = 0;
  /** Names not passed on yet (until `release`); undefined once they go on as they come. */
  private waiting: (readonly string[])[] | undefined = [];
  private waitTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: ReadAheadOptions = {}) {}

  /** Files the walk found, in the order their looks will come. */
  add(paths: readonly string[]): void {
    if (this.waiting) this.waiting.push(paths);
    else if (!this.closed) this.o.pass?.(paths);
    if (paths.length === 0 || this.ended || this.cold === false) return;
    if (this.workers.length === 0) {
      this.waitTimer = setTimeout(() => this.release(), this.o.verdictWaitMs ?? VERDICT_WAIT_MS);
      this.waitTimer.unref();
    }
    if (this.workers.length === 0) {
      this.spawn();
      this.workers[0]?.postMessage(paths);
      return;
    }
    if (this.cold === undefined) this.held.push([...paths]);
    else this.send(paths);
  }

  /** No more files: each worker stops once it has read what it was given. */
  end(): void {
    this.release();
    if (this.ended) return;
    this.ended = true;
    if (this.cold !== undefined) for (const w of this.workers) w.postMessage(null);
  }

  /** The names held so far go on, and later ones as they come. */
  private release(): void {
    clearTimeout(this.waitTimer);
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!this.closed) for (const paths of waiting ?? []) this.o.pass?.(paths);
  }

  /** Stops at once, whatever is left unread (a pause, the folder gone, shutting down); nothing more is passed on. */
  async close(): Promise<void> {
    this.closed = true;
    this.release();
    this.ended = true;
    this.held.length = 0;
    await Promise.all(this.workers.map((w) => w.terminate()));
    await Promise.all(this.done);
  }

  /** Resolves once every worker has stopped. */
  async stopped(): Promise<void> {
    // Workers that join after the first batch are started before the first one can stop.
    for (let seen = 0; seen < this.done.length;) {
      seen = this.done.length;
      await Promise.all(this.done);
    }
  }

  get workerCount(): number {
    return this.workers.length;
  }

  /** Files the workers have been through (read, or skipped as unreadable). */
  get filesRead(): number {
    return this.read;
  }

  private spawn(): void {
    // Small heaps: a worker holds one buffer and a batch of names. Three with the default heaps took a
    // cold start of 100,000 files to 314-352 MB at its peak; 252-254 MB with these.
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 64 },
    });
    // Never what keeps a process alive: reading ahead is only ever a help.
    w.unref();
    this.done.push(new Promise((resolve) => w.once('exit', () => resolve())));
    w.on('error', () => undefined);
    w.on('message', (m: { files: number }) => (this.read += m.files));
    if (this.workers.length === 0) w.once('message', (m: { files: number; medianMs: number }) => this.judged(m));
    this.workers.push(w);
  }

  private judged(m: { files: number; medianMs: number }): void {
    const cold = m.files > 0 && m.medianMs > (this.o.coldMsPerFile ?? COLD_MS_PER_FILE);
    this.cold = cold;
    this.o.onVerdict?.(cold);
    this.release();
    const held = this.held.splice(0);
    if (!cold) {
      for (const w of this.workers) w.postMessage(null);
      return;
    }
    while (this.workers.length < WORKERS) this.spawn();
    for (const paths of held) this.send(paths);
    if (this.ended) for (const w of this.workers) w.postMessage(null);
  }

  private send(paths: readonly string[]): void {
    const w = this.workers[this.next++ % this.workers.length];
    w?.postMessage(paths);
  }
}
