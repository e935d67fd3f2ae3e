// Note: History's index of the archive (the archive itself is job-archive.ts).
// - What: the archive's summary rows (`rows.jsonl`) in an SQLite table, `archive/history.sqlite`,
//   with an index per sort key and a trigram full-text index of the folded file names, so a filter,
//   a sort, a page or a search answers from indexes instead of reading 100,000 rows per query.
// - Derived data: the archive's files stay the truth (their crash safety is theirs). The index says
//   how many bytes of `rows.jsonl` it holds (`covered`) and a hash of the 4 KiB before that point;
//   it only ever takes rows the journal's header has committed. At open, a schema of another
//   version, a hash that no longer matches or a `covered` past the rows file mean it is rebuilt from
//   the rows; a tail it does not cover (a crash between the archive's commit and the index's
//   update) is read in. Rows and `covered` change in one transaction, so a crash leaves either.
// - A later row of a job replaces its earlier one, as in the archive; hiding the archived jobs that
//   are back in the journal is the query's work (`exclude`).
// - Names are folded by the screen's own `foldText`, so the index matches what History's search
//   would have matched on the rows (the trigram index only narrows; `instr` decides).
import fs from 'node:fs';
import path from 'node:path';
import { foldText, searchable, searchTokens } from '../../../engine/transcript/search-text.js';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import { eachLine, tailHash } from './rows-file.js';
import { CREATE, INDEXES, listConditions, nameCondition } from './history-index-sql.js';
import { openSqlite, type SqlDatabase, type SqlValue } from '../sqlite.js';

const SCHEMA = 5;
const FILE = 'history.sqlite';

export type IndexSortKey = 'created' | 'completed' | 'name' | 'state' | 'size' | 'computer';

/** What the index answers; every list empty or missing means no filter on it. */
/** A search as typed, in the shape the index answers (the app's History and `sluice history` alike). */
export const indexSearch = (typed: string): { terms: string[]; whole: string } => ({
  terms: searchTokens(typed),
  whole: foldText(typed).trim(),
});

export interface IndexQuery {
  states?: readonly string[];
  templateIds?: readonly string[];
  /** Watch folder ids, 'manual' for files added by hand. */
  folderIds?: readonly string[];
  /** Computers that processed the job, letter case ignored. */
  computers?: readonly string[];
  from?: number;
  to?: number;
  /** Folded words that must all be in the folded name (or the computer that processed it); or, with no words, `whole` as typed, folded. */
  search?: { terms: readonly string[]; whole: string };
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

/** One summary row as `rows.jsonl` holds it (job-archive-spec.ts names the fields). */
interface RowLine {
  o: number;
  i: string;
  c?: number;
  e?: number;
  n?: string;
  t?: string;
  s?: string;
  b?: number;
  f?: string;
  k?: string[];
  p?: string;
}

const SORT_COLUMN: Record<IndexSortKey, string> = {
  created: 'created',
  completed: 'completed',
  name: 'folded',
  state: 'state',
  size: 'size',
  computer: 'host COLLATE NOCASE',
};

export class HistoryIndex {
  /** The files of the index in the archive folder (the database and SQLite's companions). */
  static readonly files = [FILE, `${FILE}-wal`, `${FILE}-shm`];

  private constructor(
    private readonly db: SqlDatabase,
    private readonly rowsFile: string,
  ) {}

  /**
   * Opens the index of the archive in `dir` and brings it up to `committedRows` bytes of its rows
   * (rebuilding it when it is not the index of these rows). Undefined when this Node has no SQLite.
   */
  static open(dir: string, committedRows: number): HistoryIndex | undefined {
    // Private like the rest of the state folder; SQLite gives its -wal and -shm files this mode too.
    const file = path.join(dir, FILE);
    fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    const db = openSqlite(file);
    if (!db) return undefined;
    try {
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
      const index = new HistoryIndex(db, path.join(dir, 'rows.jsonl'));
      index.catchUp(committedRows);
      return index;
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /**
   * The index as it is, for a process that does not own the archive (`sluice history` while the
   * app runs): undefined when there is none, it is not this archive's, or it holds fewer than
   * `committedRows` bytes of rows (the reader then reads the rows).
   */
  static reader(dir: string, committedRows: number): HistoryIndex | undefined {
    const file = path.join(dir, FILE);
    if (!fs.existsSync(file)) return undefined;
    let db: SqlDatabase | undefined;
    try {
      db = openSqlite(file);
      if (!db) return undefined;
      db.exec('PRAGMA busy_timeout = 5000;');
      const index = new HistoryIndex(db, path.join(dir, 'rows.jsonl'));
      if (index.valid() && index.covered >= committedRows) return index;
    } catch {
      /* unreadable: the rows are read instead */
    }
    db?.close();
    return undefined;
  }

  /** Bytes of the rows file the index holds. */
  get covered(): number {
    return Number(this.meta('covered') ?? 0);
  }

  /**
   * Takes in the rows committed up to `rows` bytes (called once the journal's header names them).
   * Rebuilds from the start when what the index holds is not a prefix of the rows file.
   */
  catchUp(rows: number): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      let from = this.valid() ? this.covered : -1;
      if (from < 0) {
        this.db.exec('DROP TABLE IF EXISTS jobs; DROP TABLE IF EXISTS names; DROP TABLE IF EXISTS streams;');
        this.db.exec('DROP TABLE IF EXISTS counts;');
        this.db.exec('DROP TABLE IF EXISTS meta;');
        this.db.exec(CREATE);
        this.setMeta('schema', SCHEMA);
        from = 0;
      }
      if (rows > from) {
        this.ingest(from, rows);
        this.setMeta('covered', rows);
        this.setMeta('tail', tailHash(this.rowsFile, rows));
      }
      this.db.exec(INDEXES);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /** Whether the tables are this version's and what they cover is still the rows file's start. */
  private valid(): boolean {
    const known = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (!known || Number(this.meta('schema')) !== SCHEMA) return false;
    const covered = this.covered;
    if (covered === 0) return true;
    try {
      if (fs.statSync(this.rowsFile).size < covered) return false;
    } catch {
      return false;
    }
    return this.meta('tail') === tailHash(this.rowsFile, covered);
  }

  private meta(k: string): unknown {
    return this.db.prepare('SELECT v FROM meta WHERE k = ?').get(k)?.v;
  }

  private setMeta(k: string, v: SqlValue): void {
    this.db.prepare('INSERT INTO meta(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v').run(k, v);
  }

  /** Reads rows [from, to) of the rows file into the tables (inside the caller's transaction). */
  private ingest(from: number, to: number): void {
    const find = this.db.prepare('SELECT n, state, template, folder, host FROM jobs WHERE id = ?');
    const count = this.db.prepare(
      `INSERT INTO counts(state, template, folder, host, c) VALUES(?, ?, ?, ?, ?)
       ON CONFLICT(state, template, folder, host) DO UPDATE SET c = c + excluded.c`,
    );
    const insert = this.db.prepare(
      `INSERT INTO jobs(id, o, created, completed, name, folded, template, state, size, folder, host, seek)
       VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const update = this.db.prepare(
      `UPDATE jobs SET o = ?, created = ?, completed = ?, name = ?, folded = ?, template = ?, state = ?,
       size = ?, folder = ?, host = ?, seek = ? WHERE n = ?`,
    );
    const dropName = this.db.prepare('DELETE FROM names WHERE rowid = ?');
    const addName = this.db.prepare('INSERT INTO names(rowid, folded) VALUES(?, ?)');
    const dropStreams = this.db.prepare('DELETE FROM streams WHERE n = ?');
    const addStream = this.db.prepare('INSERT OR IGNORE INTO streams(sid, n) VALUES(?, ?)');
    eachLine(this.rowsFile, from, to, (text) => {
      let r: RowLine;
      try {
        r = JSON.parse(text) as RowLine;
      } catch {
        return; // a damaged row hides one entry, as it does for the plain scan of the rows
      }
      if (typeof r.i !== 'string' || typeof r.o !== 'number') return;
      const name = String(r.n ?? '');
      const folded = foldText(name);
      const host = typeof r.p === 'string' ? r.p : '';
      const seek = foldText(searchable(name, host));
      const fields: SqlValue[] = [
        r.o,
        num(r.c),
        num(r.e),
        name,
        folded,
        String(r.t ?? ''),
        String(r.s ?? ''),
        num(r.b),
        r.f || 'manual',
        host,
        seek,
      ];
      const had = find.get(r.i);
      let n: number | bigint;
      if (had !== undefined) {
        n = had.n as number | bigint;
        count.run(String(had.state), String(had.template), String(had.folder), String(had.host), -1);
        update.run(...fields, n);
        dropName.run(n);
        dropStreams.run(n);
      } else n = insert.run(r.i, ...fields).lastInsertRowid;
      count.run(fields[6]!, fields[5]!, fields[8]!, host, 1);
      addName.run(n, seek);
      for (const sid of Array.isArray(r.k) ? r.k : []) addStream.run(String(sid), n);
    });
  }

  /** Which of these stream ids an archived job ran (to leave them out of the service's list). */
  knownStreams(ids: Iterable<string>): Set<string> {
    const q = this.db.prepare('SELECT 1 AS x FROM streams WHERE sid = ? LIMIT 1');
    const out = new Set<string>();
    for (const id of ids) if (q.get(id)) out.add(id);
    return out;
  }

  /** The matching jobs' count and the slice [offset, offset + limit) in the asked order. */
  query(q: IndexQuery): { total: number; rows: IndexedJob[] } {
    const { where, params } = listConditions(q);
    if (q.from !== undefined) {
      where.push('created >= ?');
      params.push(q.from);
    }
    if (q.to !== undefined) {
      where.push('created <= ?');
      params.push(q.to);
    }
    this.db.exec('BEGIN');
    try {
      this.fillTemp('hidden', q.exclude);
      where.push('id NOT IN (SELECT id FROM temp.hidden)');
      let byName = '1';
      const nameParams: SqlValue[] = [];
      if (q.search) {
        const { sql, params: p } = nameCondition(q.search);
        byName = sql;
        nameParams.push(...p);
        this.fillTemp('found', q.hits);
        where.push(`(${sql} OR id IN (SELECT id FROM temp.found))`);
        params.push(...p);
      }
      const cond = where.join(' AND ');
      const total = this.total(q, cond, params);
      const dir = q.sort.dir === 'asc' ? 'ASC' : 'DESC';
      const key = SORT_COLUMN[q.sort.by];
      const order = key === 'created' ? `created ${dir}, id ${dir}` : `${key} ${dir}, created ${dir}, id ${dir}`;
      const rows = this.db
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
      this.db.exec('COMMIT');
    }
  }

  /**
   * How many jobs match. Counting rows costs a pass over every match (70 ms at 100,000 jobs, ten
   * times that at a million), so a filter on state, template and folder only is answered from the
   * kept counts, less the hidden jobs that match (computers too: the counts keep them); a date
   * range or a search counts its matches.
   */
  private total(q: IndexQuery, cond: string, params: SqlValue[]): number {
    const counted = (sql: string, p: SqlValue[]): number => Number(this.db.prepare(sql).get(...p)?.c ?? 0);
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
  computers(): string[] {
    return this.db
      .prepare("SELECT host FROM counts WHERE host != '' GROUP BY host HAVING sum(c) > 0 ORDER BY host")
      .all()
      .map((r) => String(r.host));
  }

  /**
   * Archived jobs per state from the kept counts, less `exclude` (jobs back in the journal, which
   * wins): `sluice status` at 100,000 jobs without reading a row.
   */
  stateCounts(exclude: Iterable<string>): Map<string, number> {
    const out = new Map<string, number>();
    this.db.exec('BEGIN');
    try {
      this.fillTemp('hidden', exclude);
      for (const r of this.db.prepare('SELECT state, sum(c) AS c FROM counts GROUP BY state').all()) {
        out.set(String(r.state), Number(r.c));
      }
      const hidden = this.db.prepare(
        'SELECT j.state AS state, count(*) AS c FROM temp.hidden h CROSS JOIN jobs j ON j.id = h.id GROUP BY j.state',
      );
      for (const r of hidden.all()) out.set(String(r.state), (out.get(String(r.state)) ?? 0) - Number(r.c));
    } finally {
      this.db.exec('COMMIT');
    }
    return out;
  }

  /** A per-connection list of ids for the query at hand (emptied each time). */
  private fillTemp(table: 'hidden' | 'found', ids: Iterable<string> | undefined): void {
    this.db.exec(
      `CREATE TEMP TABLE IF NOT EXISTS ${table}(id TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM temp.${table};`,
    );
    const add = this.db.prepare(`INSERT OR IGNORE INTO temp.${table}(id) VALUES(?)`);
    for (const id of ids ?? []) add.run(id);
  }

  close(): void {
    this.db.close();
  }
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
