// The files of shared folders that another computer holds, as the Queue shows them: kept per file
// path while a lease round sees them held, and shown grouped by folder and computer.
import type { WatchFolder } from '../../engine/settings.js';

/** Files of one shared folder another computer holds, as the Queue shows them. */
export interface HeldElsewhere {
  folderId: string;
  folderPath: string;
  host: string;
  count: number;
  /** The first few file paths (a share may hold thousands); `count` says how many in all. */
  paths: string[];
}

type FolderRef = Pick<WatchFolder, 'id' | 'path'>;

export class HeldElsewhereList {
  private readonly byPath = new Map<string, { folder: FolderRef; host: string }>();

  /**
   * `live` says whether a folder's files are still this computer's to claim (watched, shared, at
   * the same place); `changed` is told whenever what the Queue shows changed.
   */
  constructor(
    private readonly live: (folder: FolderRef) => boolean,
    private readonly changed: () => void,
  ) {}

  held(filePath: string, folder: FolderRef, host: string): void {
    const was = this.byPath.get(filePath);
    if (was?.host === host && was.folder.id === folder.id) return;
    this.byPath.set(filePath, { folder, host });
    this.changed();
  }

  free(filePath: string): void {
    if (this.byPath.delete(filePath)) this.changed();
  }

  /** One group per folder and computer, each with at most `shown` of its paths. */
  groups(shown: number): HeldElsewhere[] {
    const groups = new Map<string, HeldElsewhere>();
    const live = new Map<string, boolean>();
    for (const [p, h] of this.byPath) {
      // A folder no longer shared here shows nothing at once (the next lease round forgets it).
      const key = `${h.folder.id}\0${h.folder.path}`;
      let on = live.get(key);
      if (on === undefined) live.set(key, (on = this.live(h.folder)));
      if (!on) continue;
      const k = `${h.folder.id}\0${h.host}`;
      let g = groups.get(k);
      if (!g)
        groups.set(k, (g = { folderId: h.folder.id, folderPath: h.folder.path, host: h.host, count: 0, paths: [] }));
      g.count++;
      if (g.paths.length < shown) g.paths.push(p);
    }
    return [...groups.values()];
  }
}
