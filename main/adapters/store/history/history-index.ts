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
import { foldText, searchable } from '../../../engine/transcript/search-text.js';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import { eachLine, tailHash } from './rows-file.js';
import { CREATE, INDEXES } from './history-index-sql.js';
import { computersOf, queryJobs, stateCountsOf, type IndexedJob, type IndexQuery } from './history-query.js';
import { openSqlite, type SqlDatabase, type SqlValue } from '../sqlite.js';

// 6: names folded NFKD before lower case (common/text-fold.ts), so "ℍ" and "™" fold as "h" and "tm".
const SCHEMA = 6;
const FILE = 'history.sqlite';

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

  /** The matching jobs' count and the slice [offset, offset + limit) in the asked order (history-query.ts). */
  query(q: IndexQuery): { total: number; rows: IndexedJob[] } {
    return queryJobs(this.db, q);
  }

  /** The computers named as having processed an archived job, from the kept counts (a few rows). */
  computers(): string[] {
    return computersOf(this.db);
  }

  /** Archived jobs per state from the kept counts, less `exclude` (history-query.ts). */
  stateCounts(exclude: Iterable<string>): Map<string, number> {
    return stateCountsOf(this.db, exclude);
  }

  close(): void {
    this.db.close();
  }
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
