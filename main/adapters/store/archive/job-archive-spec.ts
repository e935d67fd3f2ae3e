// What the journal archives of a job: the keys it is looked up by (identity by current path, result
// ownership by result path, a stream id from the service's list) and the summary History scans.
import { isArchivable } from '../../../engine/archival.js';
import type { JobRecord } from '../../../engine/job.js';
import { sourceName } from '../../../engine/media-link.js';
import { currentPath } from '../../../engine/source-path.js';
import type { ArchivePolicy } from './job-archive.js';

/** The fields of an archived summary row (see HistoryRow for what History makes of them). */
export type JobRow = {
  /** createdAt, completedAt, file name, template, state, bytes, folder id ('' = manual), stream ids,
   * and the computer that processed a shared folder's file (History finds jobs by it) */
  c: number;
  e: number;
  n: string;
  t: string;
  s: JobRecord['state'];
  b: number;
  f: string;
  k: string[];
  p?: string;
};

export const sourceKey = (p: string): string => `p:${p}`;
export const resultKey = (p: string): string => `r:${p}`;
export const streamKey = (id: string): string => `s:${id}`;
/** The source's content identity (fingerprint or SHA-256): a renamed file is found by its bytes. */
export const contentKey = (hash: string): string => `h:${hash}`;

export const JOB_ARCHIVE: ArchivePolicy<JobRecord> = {
  archivable: isArchivable,
  // Found by the path the file was taken under and by the one it has now (after a rename).
  keys: (j) => [
    sourceKey(j.source.path),
    ...(currentPath(j) === j.source.path ? [] : [sourceKey(currentPath(j))]),
    ...(j.source.contentHash ? [contentKey(j.source.contentHash)] : []),
    ...(j.streamId ? [streamKey(j.streamId)] : []),
    ...j.previousStreamIds.map(streamKey),
    ...j.results.map((r) => resultKey(r.path)),
  ],
  row: (j): JobRow => ({
    c: j.createdAt,
    e: j.completedAt ?? 0,
    n: sourceName(j),
    t: j.templateId,
    s: j.state,
    b: j.totalBytes,
    f: j.origin.kind === 'watch' ? j.origin.folderId : '',
    k: [...(j.streamId ? [j.streamId] : []), ...j.previousStreamIds],
    ...(j.processedBy ? { p: j.processedBy } : {}),
  }),
};
