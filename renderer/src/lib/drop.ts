// Turns a drop into a flat list of Files. Folders dropped in a browser are walked with the
// File System entries API (Electron gets the folder's path instead and main walks it).
import { pathForFile } from './api';

type Entry = FileSystemEntry;

function readAll(reader: FileSystemDirectoryReader): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const out: Entry[] = [];
    const next = (): void =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(out);
        else {
          out.push(...batch);
          next();
        }
      }, reject);
    next();
  });
}

async function walk(entry: Entry, prefix: string, out: File[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    Object.defineProperty(file, 'relativePath', { value: prefix + file.name });
    out.push(file);
  } else if (entry.isDirectory) {
    const children = await readAll((entry as FileSystemDirectoryEntry).createReader());
    for (const c of children) await walk(c, `${prefix}${entry.name}/`, out);
  }
}

export function hasFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

export async function filesFromDrop(dt: DataTransfer): Promise<File[]> {
  const files = Array.from(dt.files);
  // Electron: every dropped item has a path, folders included; main expands folders itself.
  if (files.length && files.every((f) => pathForFile(f))) return files;
  const entries = Array.from(dt.items)
    .map((i) => (i.kind === 'file' ? i.webkitGetAsEntry() : null))
    .filter((e): e is Entry => e !== null);
  if (entries.length === 0) return files;
  const out: File[] = [];
  for (const e of entries) await walk(e, '', out);
  return out.length ? out : files;
}
