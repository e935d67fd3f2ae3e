// The files an editor chose to Ignore in a watch folder (a clip that will never be whole), kept
// across restarts in the state folder (`ignored-files.json`, private like everything there). Each
// is kept as it was (size:mtime): a change ends the ignore (engine/folder-skips.ts `stillIgnored`).
import Conf from 'conf';
import type { IgnoredFile } from '../../../engine/folder-skips.js';
import { PRIVATE_FILE_MODE } from '../private-files.js';

type Shape = { folders: unknown };

/** Where ignores live: the state folder's file, or memory alone (tests, a `watch` with no state). */
export interface IgnoredFilesStore {
  read(): Map<string, IgnoredFile[]>;
  write(all: ReadonlyMap<string, readonly IgnoredFile[]>): void;
}

const valid = (x: unknown): x is IgnoredFile =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as IgnoredFile).path === 'string' &&
  typeof (x as IgnoredFile).key === 'string' &&
  typeof (x as IgnoredFile).at === 'number';

export class IgnoredFilesFile implements IgnoredFilesStore {
  private readonly conf: Conf<Shape>;

  constructor(stateDir: string) {
    this.conf = new Conf<Shape>({
      cwd: stateDir,
      configName: 'ignored-files',
      projectName: 'sluice',
      configFileMode: PRIVATE_FILE_MODE,
      // A damaged file costs only the ignores: the files are reported again, nothing is lost.
      clearInvalidConfig: true,
    });
  }

  read(): Map<string, IgnoredFile[]> {
    const raw = this.conf.get('folders');
    const out = new Map<string, IgnoredFile[]>();
    if (typeof raw !== 'object' || raw === null) return out;
    for (const [folderId, list] of Object.entries(raw as Record<string, unknown>)) {
      if (Array.isArray(list)) out.set(folderId, list.filter(valid));
    }
    return out;
  }

  write(all: ReadonlyMap<string, readonly IgnoredFile[]>): void {
    const folders: Record<string, readonly IgnoredFile[]> = {};
    for (const [id, list] of all) if (list.length > 0) folders[id] = list;
    try {
      this.conf.set('folders', folders);
    } catch {
      // A state folder that cannot be written (full disk) keeps the ignores for this run only.
    }
  }
}

/** Ignores for this run only. */
export class IgnoredFilesMemory implements IgnoredFilesStore {
  private all = new Map<string, IgnoredFile[]>();
  read(): Map<string, IgnoredFile[]> {
    return new Map([...this.all].map(([k, v]) => [k, [...v]]));
  }
  write(all: ReadonlyMap<string, readonly IgnoredFile[]>): void {
    this.all = new Map([...all].map(([k, v]) => [k, [...v]]));
  }
}
