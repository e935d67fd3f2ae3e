// `sluice history`'s read of every job, newest first, while the app or `watch` may own the journal:
// the journal's jobs filtered here, the archived ones answered by History's index when it holds
// every committed row (then only the listed records are read), else by reading the archive, as
// before the index. The search folds names as the History screen does (search-text.ts). `status`
// counts by state the same way.
import type { JobRecord } from '../../../engine/job.js';
import { sourceName } from '../../../engine/media-link.js';
import { computerKey } from '../../../engine/shared-folder.js';
import { nameMatcher, searchable } from '../../../engine/transcript/search-text.js';
import path from 'node:path';
import { HistoryIndex } from './history-index.js';
import { indexSearch } from './history-query.js';
import { readArchivedAt, readArchivedRecords } from '../archive/job-archive.js';
import { JobStore } from '../journal/job-store.js';

export interface HistoryRead {
  states: readonly string[];
  /** Words of the file name, in any order, case and accents ignored. */
  search?: string;
  /** Computers that processed the job (team mode), letter case ignored; empty: any. */
  computers?: readonly string[];
  limit: number;
}

/** The newest `limit` jobs that pass the filter. */
export function readHistory(stateDir: string, q: HistoryRead): JobRecord[] {
  const { records, committed } = JobStore.journalSnapshot<JobRecord>(stateDir);
  const named = q.search === undefined ? () => true : nameMatcher(q.search);
  const computers = new Set((q.computers ?? []).map(computerKey));
  const passes = (j: JobRecord): boolean =>
    (q.states.length === 0 || q.states.includes(j.state)) &&
    (computers.size === 0 || computers.has(computerKey(j.processedBy ?? ''))) &&
    named(searchable(sourceName(j), j.processedBy));
  const newest = (jobs: Iterable<JobRecord>): JobRecord[] =>
    [...jobs]
      .filter(passes)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .slice(0, q.limit);
  const index = HistoryIndex.reader(path.join(stateDir, 'archive'), committed.rows);
  if (!index) {
    return newest(JobStore.snapshot<JobRecord>(stateDir));
  }
  try {
    const { rows } = index.query({
      states: q.states,
      ...(q.computers?.length ? { computers: q.computers } : {}),
      ...(q.search !== undefined ? { search: indexSearch(q.search) } : {}),
      exclude: records.keys(),
      sort: { by: 'created', dir: 'desc' },
      offset: 0,
      limit: q.limit,
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
