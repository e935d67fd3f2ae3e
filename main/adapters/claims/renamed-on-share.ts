// A completed file renamed or moved on a shared folder. Its done record names the path it was
// processed under, so another computer (or this one, after a restart elsewhere) would see the new
// name as a new file and bill it again. The share also keeps a done record by content; a file whose
// bytes are done under another name is judged by the same content decision as on one computer
// (engine/file-identity.ts): the old name gone, it was renamed; beside it under another name, it is
// a copy made on purpose. The computer that follows the rename writes the new name down as well.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { classifyByContent, type ContentTwin, type FileIdentity } from '../../engine/file-identity.js';
import type { JobRecord } from '../../engine/job.js';
import { normaliseSharePath, sharedKey } from '../../engine/shared-folder.js';
import { currentPath } from '../../engine/source-path.js';
import type { ClaimStore, DoneRecord } from './claim-store.js';

/** The done record of these bytes under another name on the share, when this file is that one. */
export async function doneUnderAnotherName(
  root: string,
  store: ClaimStore,
  relPath: string,
  file: FileIdentity,
): Promise<DoneRecord | undefined> {
  if (!file.contentHash) return undefined;
  const done = await store.readDoneByContent(file.contentHash).catch(() => undefined);
  if (!done || done.relPath === relPath) return undefined;
  const there = path.join(root, ...done.relPath.split('/'));
  const st = await stat(there).catch(() => undefined);
  const size = done.size ?? file.size;
  const twin: ContentTwin = {
    jobId: done.streamId ?? done.relPath,
    source: { path: there, size, mtimeMs: (done.mtimeS ?? 0) * 1000, contentHash: file.contentHash },
    path: there,
    state: 'completed',
    stillThere: st?.isFile() === true && st.size === size,
  };
  return classifyByContent(file, twin).kind === 'none' ? undefined : done;
}

/** Records a completed shared job's file done under its current path (after a rename or move). */
export async function recordMove(root: string, store: ClaimStore, job: JobRecord): Promise<void> {
  const rel = path.relative(root, currentPath(job));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return;
  const relPath = normaliseSharePath(rel);
  const { size, mtimeMs, contentHash } = job.source;
  await store.recordMoved(relPath, {
    key: sharedKey({
      relPath,
      size,
      mtimeMs,
      ...(contentHash ? { contentHash } : {}),
      templateId: job.templateId,
      params: job.params,
    }),
    size,
    mtimeS: Math.floor(mtimeMs / 1000),
    state: job.state,
    ...(job.streamId ? { streamId: job.streamId } : {}),
    ...(contentHash ? { contentHash } : {}),
  });
}
