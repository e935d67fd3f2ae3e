// `sluice history`'s read of every job, newest first, while the app or `watch` may own the journal:
// the journal's jobs filtered here, the archived ones answered by History's index when it holds
// every committed row (then only the listed records are read), else by reading the archive, as
// before the index. The filter is History's own (engine/history-filter.ts), for the index and for
// the journal's jobs alike. `status` counts by state the same way.
import type { JobRecord } from '../../../engine/job.js';
import { sourceName } from '../../../engine/media-link.js';
import { historyMatcher, historyQueryOf, type HistoryFilterFields } from '../../../engine/history-filter.js';
import path from 'node:path';
import { HistoryIndex } from './history-index.js';
import { readArchivedAt, readArchivedRecords } from '../archive/job-archive.js';
import { JobStore } from '../journal/job-store.js';

export interface HistoryRead extends Pick<HistoryFilterFields, 'states' | 'search' | 'computers'> {
  limit: number;
}

/** The newest `limit` jobs that pass the filter. */
export function readHistory(stateDir: string, q: HistoryRead): JobRecord[] {
  const { records, committed } = JobStore.journalSnapshot<JobRecord>(stateDir);
  const { limit, ...filter } = q;
  const matches = historyMatcher(filter);
  const passes = (j: JobRecord): boolean =>
    matches({
      name: sourceName(j),
      ...(j.processedBy ? { host: j.processedBy } : {}),
      state: j.state,
      templateId: j.templateId,
      created: j.createdAt,
    });
  const newest = (jobs: Iterable<JobRecord>): JobRecord[] =>
    [...jobs]
      .filter(passes)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .slice(0, limit);
  const index = HistoryIndex.reader(path.join(stateDir, 'archive'), committed.rows);
  if (!index) {
    return newest(JobStore.snapshot<JobRecord>(stateDir));
  }
  try {
    const { rows } = index.query({
      ...historyQueryOf(filter),
      exclude: records.keys(),
      sort: { by: 'created', dir: 'desc' },
      offset: 0,
      limit,
    });
    const archived = readArchivedAt<JobRecord>(
      stateDir,
      rows.map((r) => r.offset),
    ).filter((j): j is JobRecord => j !== undefined);
    return newest([...archived, ...records.values()]);
  } finally {
    index.close();
  }
}

/**
 * `sluice status`'s counts of every job by state: the journal's jobs counted here, the archived
 * ones from the index's kept counts (less those back in the journal, which wins), so 100,000
 * archived jobs cost no more than ten; without an index, the archive is read as before.
 */
export function readStatus(stateDir: string): { counts: Map<string, number>; journal: JobRecord[] } {
  const { records, committed } = JobStore.journalSnapshot<JobRecord>(stateDir);
  const index = HistoryIndex.reader(path.join(stateDir, 'archive'), committed.rows);
  let counts: Map<string, number>;
  if (index) {
    try {
      counts = index.stateCounts(records.keys());
    } finally {
      index.close();
    }
  } else {
    counts = new Map();
    for (const j of readArchivedRecords<JobRecord>(stateDir, committed)) {
      if (!records.has(j.id)) counts.set(j.state, (counts.get(j.state) ?? 0) + 1);
    }
  }
  for (const j of records.values()) counts.set(j.state, (counts.get(j.state) ?? 0) + 1);
  return { counts, journal: [...records.values()] };
}
