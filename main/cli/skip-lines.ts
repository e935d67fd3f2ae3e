// The lines `sluice watch` prints for files it leaves alone (done or queued already): each named,
// up to a limit per folder, then one line saying the rest go unnamed. A restart over a folder of
// 100,000 finished files is a screenful, not 100,000 lines.

/** Files left alone named per folder before the rest go unnamed. */
export const SKIPS_LISTED = 20;

export interface SkipEvent {
  folderId: string;
  path: string;
  outcome: 'already-queued' | 'already-done';
}

export class SkipLines {
  private readonly counts = new Map<string, number>();

  constructor(private readonly folderName: (folderId: string) => string) {}

  /** The line for this file, or undefined once the folder's limit was reached and said. */
  line(e: SkipEvent): string | undefined {
    const n = (this.counts.get(e.folderId) ?? 0) + 1;
    this.counts.set(e.folderId, n);
    if (n <= SKIPS_LISTED) return `${e.outcome === 'already-done' ? 'already processed' : 'already queued'} ${e.path}`;
    if (n === SKIPS_LISTED + 1) {
      return `folder ${this.folderName(e.folderId)}: more files already processed or queued, not listed`;
    }
    return undefined;
  }
}
