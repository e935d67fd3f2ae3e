// Every job of ours is the journal's jobs plus the archived ones not brought back into it: a record
// in the journal wins over any archived line. This is the one place that says so, and the one
// place outside the archive spec that knows the archive's short row fields (job-archive-spec.ts).
import type { JobRecord, JobState } from '../../../engine/job.js';
import { sourceName } from '../../../engine/media-link.js';
import { currentPath } from '../../../engine/source-path.js';
import { contentKey, resultKey, sourceKey, streamKey, type JobRow } from '../archive/job-archive-spec.js';
import type { ArchivedRow } from '../archive/job-archive.js';
import type { JobStore } from './job-store.js';

/** What History needs of a job to filter and sort it, without reading an archived record. */
export interface JobSummary {
  id: string;
  /** The watch folder's id, or 'manual'. */
  folder: string;
  streamIds: readonly string[];
  createdAt: number;
  /** 0 while unfinished. */
  completedAt: number;
  fileName: string;
  templateId: string;
  state: JobState;
  totalBytes: number;
  /** The computer that processed a shared folder's file. */
  processedBy?: string;
  /** The job in the journal (undefined for an archived one: `load` reads it). */
  hot?: JobRecord;
  /** Reads the whole record (from the archive for an archived job). */
  load(): JobRecord | undefined;
}

/** Every job, the archived ones read one by one from disk: for rare whole-history actions. */
export function* everyJob(store: JobStore<JobRecord>): Generator<JobRecord> {
  yield* store.all();
  const archived: JobRecord[] = [];
  store.archived?.each((j) => {
    if (!store.isHot(j.id)) archived.push(j);
  });
  yield* archived;
}

/** The ids of every completed job (archived ones from their summary rows, not their records). */
export function completedJobIds(store: JobStore<JobRecord>): string[] {
  const ids = store
    .all()
    .filter((j) => j.state === 'completed')
    .map((j) => j.id);
  for (const r of archivedRows(store)) if (r.row.s === 'completed') ids.push(r.row.i);
  return ids;
}

/**
 * The newest job whose file is at this path now (`currentPath`: a renamed clip by its new name,
 * not its old one): `hot` (the journal's newest, when the caller keeps an index), or the archive's
 * when newer there. An archived job brought back into the journal is read from it.
 */
export function latestBySource(
  store: JobStore<JobRecord>,
  file: string,
  hot: JobRecord | undefined,
): JobRecord | undefined {
  let best = hot;
  for (const { record } of store.archived?.find(sourceKey(file), (j) => currentPath(j) === file) ?? []) {
    const j = store.isHot(record.id) ? store.get(record.id)! : record;
    // Brought back into the journal and moved since: no longer at this path.
    if (currentPath(j) !== file) continue;
    if (!best || j.createdAt > best.createdAt || (j.createdAt === best.createdAt && j.seq > best.seq)) best = j;
  }
  return best;
}

/**
 * The newest job whose source had these bytes: `hot` (the journal's newest, from the caller's
 * index), or the archive's when newer there, so a file renamed long after its job was archived is
 * still known by its content. An archived job brought back into the journal is read from it.
 */
export function latestByContent(
  store: JobStore<JobRecord>,
  contentHash: string,
  hot: JobRecord | undefined,
): JobRecord | undefined {
  let best = hot;
  const found = store.archived?.find(contentKey(contentHash), (j) => j.source.contentHash === contentHash) ?? [];
  for (const { record } of found) {
    const j = store.isHot(record.id) ? store.get(record.id)! : record;
    if (!best || j.createdAt > best.createdAt || (j.createdAt === best.createdAt && j.seq > best.seq)) best = j;
  }
  return best;
}

/** The job that ran (or runs) a stream, archived or not. */
export function jobOfStream(store: JobStore<JobRecord>, streamId: string): JobRecord | undefined {
  const hot = store.all().find((j) => j.streamId === streamId);
  if (hot) return hot;
  const found = store.archived?.find(streamKey(streamId), (j) => j.streamId === streamId)[0]?.record;
  return found ? store.get(found.id) : undefined;
}

/** Archived jobs (not in the journal) that wrote a result at `filePath`. */
export function archivedWritersOf(store: JobStore<JobRecord>, filePath: string): JobRecord[] {
  const found = store.archived?.find(resultKey(filePath), (j) => j.results.some((r) => r.path === filePath)) ?? [];
  return found.map(({ record }) => record).filter((j) => !store.isHot(j.id));
}

/** Every job as History filters it: the journal's first, then the archived ones from their rows. */
export function* jobSummaries(store: JobStore<JobRecord>): Generator<JobSummary> {
  yield* hotSummaries(store);
  const archive = store.archived;
  if (!archive) return;
  for (const { row } of archivedRows(store)) {
    yield {
      id: row.i,
      folder: row.f || 'manual',
      streamIds: row.k,
      createdAt: row.c,
      completedAt: row.e,
      fileName: row.n,
      templateId: row.t,
      state: row.s,
      totalBytes: row.b,
      ...(row.p ? { processedBy: row.p } : {}),
      load: () => archive.readAt(row.o),
    };
  }
}

/** The journal's jobs as History filters them (History's index answers for the archived ones). */
export function* hotSummaries(store: JobStore<JobRecord>): Generator<JobSummary> {
  for (const j of store.all()) {
    yield {
      id: j.id,
      folder: j.origin.kind === 'watch' ? j.origin.folderId : 'manual',
      streamIds: [...(j.streamId ? [j.streamId] : []), ...j.previousStreamIds],
      createdAt: j.createdAt,
      completedAt: j.completedAt ?? 0,
      fileName: sourceName(j),
      templateId: j.templateId,
      state: j.state,
      totalBytes: j.totalBytes,
      ...(j.processedBy ? { processedBy: j.processedBy } : {}),
      hot: j,
      load: () => j,
    };
  }
}

/** The archive's summary rows of jobs not brought back into the journal. */
function* archivedRows(store: JobStore<JobRecord>): Generator<{ row: ArchivedRow & JobRow }> {
  for (const row of (store.archived?.rows() ?? []) as Array<ArchivedRow & JobRow>) {
    if (!store.isHot(row.i)) yield { row };
  }
}
