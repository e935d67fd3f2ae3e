// History's questions to its index (history-index.ts keeps the index in step with the archive's
// rows): a filtered, sorted page of jobs, how many match, the computers named and the jobs per
// state, all answered from the SQL indexes and the kept counts without reading a row of the archive.
import type { IndexFilter } from '../../../engine/history-filter.js';
import { listConditions, nameCondition } from './history-index-sql.js';
import type { SqlDatabase, SqlValue } from '../sqlite.js';

export type IndexSortKey = 'created' | 'completed' | 'name' | 'state' | 'size' | 'computer';

/** What the index answers: the filter (engine/history-filter.ts builds it, once), then the page. */
export interface IndexQuery extends IndexFilter {
  /** Jobs found by their transcript: they match the search whatever their name. */
  hits?: Iterable<string>;
  /** Jobs not to count (they are back in the journal, which wins). */
  exclude?: Iterable<string>;
  sort: { by: IndexSortKey; dir: 'asc' | 'desc' };
  offset: number;
  limit: number;
}

export interface IndexedJob {
  id: string;
  /** Offset of the record's line in `jobs.jsonl`. */
  offset: number;
  created: number;
  completed: number;
  name: string;
  /** The name folded (the key 'name' sorts by). */
  folded: string;
  template: string;
  state: string;
  size: number;
  folder: string;
  /** The computer that processed a shared folder's file. */
  host?: string;
  /** Found by its transcript, not by its name. */
  inTranscript: boolean;
}

const SORT_COLUMN: Record<IndexSortKey, string> = {
  created: 'created',
  completed: 'completed',
  name: 'folded',
  state: 'state',
  size: 'size',
  computer: 'host COLLATE NOCASE',
};

/** The matching jobs' count and the slice [offset, offset + limit) in the asked order. */
export function queryJobs(db: SqlDatabase, q: IndexQuery): { total: number; rows: IndexedJob[] } {
  const { where, params } = listConditions(q);
  if (q.from !== undefined) {
    where.push('created >= ?');
    params.push(q.from);
  }
  if (q.to !== undefined) {
    where.push('created <= ?');
    params.push(q.to);
  }
  db.exec('BEGIN');
  try {
    fillTemp(db, 'hidden', q.exclude);
    where.push('id NOT IN (SELECT id FROM temp.hidden)');
    let byName = '1';
    const nameParams: SqlValue[] = [];
    if (q.search) {
      const { sql, params: p } = nameCondition(q.search);
      byName = sql;
      nameParams.push(...p);
      fillTemp(db, 'found', q.hits);
      where.push(`(${sql} OR id IN (SELECT id FROM temp.found))`);
      params.push(...p);
    }
    const cond = where.join(' AND ');
    const total = countMatches(db, q, cond, params);
    const dir = q.sort.dir === 'asc' ? 'ASC' : 'DESC';
    const key = SORT_COLUMN[q.sort.by];
    const order = key === 'created' ? `created ${dir}, id ${dir}` : `${key} ${dir}, created ${dir}, id ${dir}`;
    const rows = db
      .prepare(
        `SELECT id, o, created, completed, name, folded, template, state, size, folder, host, (${byName}) AS byName
         FROM jobs WHERE ${cond} ORDER BY ${order} LIMIT ? OFFSET ?`,
      )
      .all(...nameParams, ...params, q.limit, q.offset)
      .map((r): IndexedJob => ({
        id: String(r.id),
        offset: Number(r.o),
        created: Number(r.created),
        completed: Number(r.completed),
        name: String(r.name),
        folded: String(r.folded),
        template: String(r.template),
        state: String(r.state),
        size: Number(r.size),
        folder: String(r.folder),
        ...(r.host ? { host: String(r.host) } : {}),
        inTranscript: !Number(r.byName),
      }));
    return { total, rows };
  } finally {
    db.exec('COMMIT');
  }
}

/**
 * How many jobs match. Counting rows costs a pass over every match (70 ms at 100,000 jobs, ten
 * times that at a million), so a filter on state, template and folder only is answered from the
 * kept counts, less the hidden jobs that match (computers too: the counts keep them); a date
 * range or a search counts its matches.
 */
function countMatches(db: SqlDatabase, q: IndexQuery, cond: string, params: SqlValue[]): number {
  const counted = (sql: string, p: SqlValue[]): number => Number(db.prepare(sql).get(...p)?.c ?? 0);
  if (q.search || q.from !== undefined || q.to !== undefined) {
    return counted(`SELECT count(*) AS c FROM jobs WHERE ${cond}`, params);
  }
  const { where, params: p } = listConditions(q);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const all = counted(`SELECT coalesce(sum(c), 0) AS c FROM counts ${filter}`, p);
  // CROSS JOIN keeps the few hidden ids outside: the planner, knowing no sizes, would walk every job.
  const onJobs = listConditions(q, 'j.').where;
  const hidden = counted(
    `SELECT count(*) AS c FROM temp.hidden h CROSS JOIN jobs j ON j.id = h.id ${onJobs.length ? `WHERE ${onJobs.join(' AND ')}` : ''}`,
    p,
  );
  return all - hidden;
}

/** The computers named as having processed an archived job, from the kept counts (a few rows). */
export function computersOf(db: SqlDatabase): string[] {
  return db
    .prepare("SELECT host FROM counts WHERE host != '' GROUP BY host HAVING sum(c) > 0 ORDER BY host")
    .all()
    .map((r) => String(r.host));
}

/**
 * Archived jobs per state from the kept counts, less `exclude` (jobs back in the journal, which
 * wins): `sluice status` at 100,000 jobs without reading a row.
 */
export function stateCountsOf(db: SqlDatabase, exclude: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  db.exec('BEGIN');
  try {
    fillTemp(db, 'hidden', exclude);
    for (const r of db.prepare('SELECT state, sum(c) AS c FROM counts GROUP BY state').all()) {
      out.set(String(r.state), Number(r.c));
    }
    const hidden = db.prepare(
      'SELECT j.state AS state, count(*) AS c FROM temp.hidden h CROSS JOIN jobs j ON j.id = h.id GROUP BY j.state',
    );
    for (const r of hidden.all()) out.set(String(r.state), (out.get(String(r.state)) ?? 0) - Number(r.c));
  } finally {
    db.exec('COMMIT');
  }
  return out;
}

/** A per-connection list of ids for the query at hand (emptied each time). */
function fillTemp(db: SqlDatabase, table: 'hidden' | 'found', ids: Iterable<string> | undefined): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${table}(id TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM temp.${table};`);
  const add = db.prepare(`INSERT OR IGNORE INTO temp.${table}(id) VALUES(?)`);
  for (const id of ids ?? []) add.run(id);
}
