// Per watch folder, the files it found and did not queue, with why (engine/folder-skips.ts), and
// the editor's Ignores, kept across restarts. Fed by the watcher (a file not whole, empty, a link
// to nowhere; a copy going on; a walk's list) and by the intake (a second copy of a clip); read by
// the folder's status, so the folder's list and the Queue show them.
import { createHash } from 'node:crypto';
import {
  folderSkipList,
  IGNORABLE,
  noteSkip,
  stillIgnored,
  type IgnoredFile,
  type SkipEntry,
  type SkipReason,
} from '../../../engine/folder-skips.js';
import { IgnoredFilesMemory, type IgnoredFilesStore } from '../../store/state/ignored-files.js';

/** One skip as the folder's status carries it: `id` names it in a Retry or an Ignore. */
export interface SkipRecord {
  id: string;
  path: string;
  reason: SkipReason;
  detail?: string;
  at: number;
}

const sizeOf = (key: string | undefined): number | undefined =>
  key === undefined ? undefined : Number(key.slice(0, key.indexOf(':')));

/** A stable id for a folder's file: the renderer refers to it, never hands a path back. */
export const skipId = (folderId: string, file: string): string =>
  createHash('sha256').update(`${folderId}\0${file}`).digest('hex').slice(0, 16);

export class FolderSkips {
  private readonly skips = new Map<string, Map<string, SkipEntry>>();
  private readonly ignored: Map<string, IgnoredFile[]>;

  constructor(
    private readonly o: {
      /** The folder's list changed: its status goes out again. */
      changed: (folderId: string) => void;
      store?: IgnoredFilesStore;
      now?: () => number;
    },
  ) {
    this.ignored = (o.store ?? new IgnoredFilesMemory()).read();
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  private of(folderId: string): Map<string, SkipEntry> {
    let m = this.skips.get(folderId);
    if (!m) this.skips.set(folderId, (m = new Map()));
    return m;
  }

  private ignoreOf(folderId: string, file: string): IgnoredFile | undefined {
    return this.ignored.get(folderId)?.find((i) => i.path === file);
  }

  private setIgnores(folderId: string, list: IgnoredFile[]): void {
    if (list.length > 0) this.ignored.set(folderId, list);
    else this.ignored.delete(folderId);
    this.o.store?.write(this.ignored);
  }

  /** An Ignore no longer holds once the file changed: it is forgotten, and the file is judged anew. */
  private endIgnore(folderId: string, file: string): boolean {
    const list = this.ignored.get(folderId);
    if (!list?.some((i) => i.path === file)) return false;
    this.setIgnores(
      folderId,
      list.filter((i) => i.path !== file),
    );
    return true;
  }

  /** A file left, and why (the watcher's or the intake's words in `detail`). */
  note(folderId: string, entry: Omit<SkipEntry, 'at'>): void {
    const was = this.skips.get(folderId)?.get(entry.path);
    const ign = this.ignoreOf(folderId, entry.path);
    if (ign && !stillIgnored(ign, entry.key)) this.endIgnore(folderId, entry.path);
    if (was && was.reason === entry.reason && was.key === entry.key && was.detail === entry.detail) return;
    noteSkip(this.of(folderId), { ...entry, at: this.now() });
    this.o.changed(folderId);
  }

  /** The file was taken (it became whole, something was written to it, its link found its file). */
  taken(folderId: string, file: string): void {
    const had = this.skips.get(folderId)?.delete(file) === true;
    if (this.endIgnore(folderId, file) || had) this.o.changed(folderId);
  }

  /** The file is being written again: what was said of it as it was no longer holds. */
  copying(folderId: string, file: string, size: number): void {
    const was = this.skips.get(folderId)?.get(file);
    const ign = this.ignoreOf(folderId, file);
    let changed = false;
    if (was && was.key !== undefined && sizeOf(was.key) !== size) changed = this.skips.get(folderId)!.delete(file);
    if (ign && sizeOf(ign.key) !== size) changed = this.endIgnore(folderId, file) || changed;
    if (changed) this.o.changed(folderId);
  }

  /** Ignored as it is: not shown as a copy going on either (after a restart, before it is told again). */
  quiet(folderId: string, file: string, size: number): boolean {
    const ign = this.ignoreOf(folderId, file);
    return ign !== undefined && sizeOf(ign.key) === size;
  }

  /** After a complete walk: what is no longer in the folder is no longer listed, nor ignored. */
  walked(folderId: string, seen: ReadonlySet<string>): void {
    let changed = false;
    const m = this.skips.get(folderId);
    for (const p of m?.keys() ?? []) if (!seen.has(p)) changed = m!.delete(p) || changed;
    const list = this.ignored.get(folderId);
    if (list && list.some((i) => !seen.has(i.path))) {
      this.setIgnores(
        folderId,
        list.filter((i) => seen.has(i.path)),
      );
      changed = true;
    }
    if (changed) this.o.changed(folderId);
  }

  /** Folders no longer in Settings: their lists and their ignores go. */
  keepFolders(ids: ReadonlySet<string>): void {
    for (const id of this.skips.keys()) if (!ids.has(id)) this.skips.delete(id);
    const gone = [...this.ignored.keys()].filter((id) => !ids.has(id));
    for (const id of gone) this.ignored.delete(id);
    if (gone.length > 0) this.o.store?.write(this.ignored);
  }

  list(folderId: string): SkipRecord[] {
    const entries = this.skips.get(folderId)?.values() ?? [];
    return folderSkipList(entries, this.ignored.get(folderId) ?? []).map((s) => ({
      id: skipId(folderId, s.path),
      ...s,
    }));
  }

  /** The file a skip's id names in this folder, with its reason as listed; undefined when it is no longer listed. */
  find(folderId: string, id: string): SkipRecord | undefined {
    return this.list(folderId).find((s) => s.id === id);
  }

  /**
   * Ignore: the file is no longer reported while it stays as it is. False when the skip is not one
   * an editor may ignore (a second copy, a link: nothing to stop reporting).
   */
  ignore(folderId: string, id: string): boolean {
    const s = this.find(folderId, id);
    const entry = s && this.skips.get(folderId)?.get(s.path);
    if (!s || !entry?.key || !IGNORABLE.has(s.reason)) return false;
    const list = (this.ignored.get(folderId) ?? []).filter((i) => i.path !== s.path);
    this.setIgnores(folderId, [...list, { path: s.path, key: entry.key, at: this.now() }]);
    this.o.changed(folderId);
    return true;
  }

  /** Undo of an Ignore: reported again as it was (or at its next look, after a restart). */
  unignore(folderId: string, id: string): boolean {
    const s = this.find(folderId, id);
    if (!s || s.reason !== 'ignored' || !this.endIgnore(folderId, s.path)) return false;
    this.o.changed(folderId);
    return true;
  }
}
