// Which watch folders are away: a root that is missing (or an empty mount point, folder-root.ts)
// reads as "offline", whether the watcher found it so or a job's upload or results did first.
// While a folder is away its work waits (the runner starts nothing of it, results are kept, claims
// are kept and nothing is released); it is looked for every `pollMs` and, once back, work goes on.
import type { JobRecord } from '../../../engine/job.js';
import type { WatchFolder } from '../../../engine/settings.js';
import { rootPresent } from './folder-root.js';

export interface FolderPresenceOptions {
  folder: (id: string) => WatchFolder | undefined;
  /** A folder went away (`away` true) or came back. */
  changed: (folder: WatchFolder, away: boolean) => void;
  /** How often an away folder is looked for (default 1 s). */
  pollMs?: number;
  present?: (root: string) => Promise<boolean>;
}

export class FolderPresence {
  private readonly away = new Map<string, WatchFolder>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(private readonly o: FolderPresenceOptions) {}

  isAway(folderId: string): boolean {
    return this.away.has(folderId);
  }

  /** Whether the job's watch folder is away, looked at on disk now; found away, it is marked so. */
  async jobAway(job: JobRecord): Promise<boolean> {
    if (job.origin.kind !== 'watch') return false;
    const folder = this.o.folder(job.origin.folderId);
    if (!folder) return false;
    if (await this.present(folder.path)) return false;
    this.gone(folder);
    return true;
  }

  /** The folder is not there (its watcher said so, or a job found it missing). */
  gone(folder: WatchFolder): void {
    if (this.away.has(folder.id)) return;
    this.away.set(folder.id, folder);
    this.o.changed(folder, true);
    this.arm();
  }

  /** Looks for the away folders now (and on every poll); those there again come back. */
  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const [id, folder] of [...this.away]) {
        if (!(await this.present(folder.path))) continue;
        if (this.away.get(id) !== folder) continue;
        this.away.delete(id);
        this.o.changed(folder, false);
      }
    } finally {
      this.checking = false;
      if (this.away.size === 0) this.disarm();
    }
  }

  stop(): void {
    this.disarm();
  }

  private present(root: string): Promise<boolean> {
    return (this.o.present ?? rootPresent)(root).catch(() => false);
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.check(), this.o.pollMs ?? 1000);
    this.timer.unref();
  }

  private disarm(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
