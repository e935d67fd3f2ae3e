// Note: the transcript search's inverted index (folded word → jobs) kept in SQLite,
// `search/postings.sqlite`, so the first search after a start reads the postings of its words
// instead of every job's search file (22 s at 100,000 jobs when built in memory from the files).
// - Derived data: the search files (transcript-index.ts) stay the source of each hit's line and
//   time. A schema of another version means the tables are dropped and filled again from the files.
// - A job's version is a row of `docs` with a number never reused (AUTOINCREMENT): re-indexing a
//   job gives it a new number, so postings of its old version left behind (when its old words are
//   not known) can never match it again; a query only takes numbers that are in `docs`.
// - `pending` names jobs whose search file is being replaced: a crash between the file and the
//   tables leaves the job there, and the next build indexes it again.
// - Prefix search is a range over the term index: every term t with p <= t < next(p) in SQLite's
//   binary order (UTF-8 bytes, i.e. code points), next(p) being p with its last code point + 1.
// - A prefix of two or three letters starts thousands of words, each in most jobs (a range over
//   "th" reads millions of postings at 100,000 jobs); so each job also has, as terms, the heads
//   (first 2 and 3 code points) of its words, marked by HEAD, and such a query is one exact term.
//   HEAD sorts before every letter and digit, so no word's range ever takes a head.
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../private-files.js';
import { openSqlite, type SqlDatabase, type SqlStatement, type SqlValue } from '../sqlite.js';

// 2: words folded NFKD before lower case (common/text-fold.ts).
const SCHEMA = 2;
const HEAD = '\u0001';
/** Lengths (code points) of the words' heads kept as terms. */
const HEADS = [2, 3];

/** A job's words with their heads (see HEAD above). */
function withHeads(terms: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const t of terms) {
    out.add(t);
    const cps = [...t];
    for (const n of HEADS) if (cps.length >= n) out.add(HEAD + cps.slice(0, n).join(''));
  }
  return [...out];
}
const FILE = 'postings.sqlite';

const CREATE = `
  CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v);
  CREATE TABLE IF NOT EXISTS docs(n INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, key TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS terms(t INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
  CREATE TABLE IF NOT EXISTS postings(t INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(t, n)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS pending(id TEXT PRIMARY KEY) WITHOUT ROWID;
`;

/** One job's version as the tables take it: its key and its distinct folded words. */
export interface PostedDoc {
  id: string;
  key: string;
  terms: Iterable<string>;
}

/**
 * The smallest string greater than every string starting with `prefix`, in code point order;
 * undefined when there is none (the prefix is all U+10FFFF). Surrogates are skipped: SQLite holds
 * UTF-8, where a lone surrogate is not a character.
 */
export function prefixEnd(prefix: string): string | undefined {
  const cps = [...prefix].map((c) => c.codePointAt(0)!);
  while (cps.length > 0) {
    let last = cps.pop()! + 1;
    if (last === 0xd800) last = 0xe000;
    if (last <= 0x10ffff) return String.fromCodePoint(...cps, last);
  }
  return undefined;
}

export class TranscriptPostings {
  private readonly stmts = new Map<string, SqlStatement>();

  private constructor(private readonly db: SqlDatabase) {}

  /**
   * Opens (creating it private) the tables in `dir`, emptied when of another schema. Undefined when
   * this Node has no SQLite or the file cannot be used even once recreated (the caller then keeps
   * its index in memory, as before).
   */
  static open(dir: string): TranscriptPostings | undefined {
    const file = path.join(dir, FILE);
    for (let attempt = 0; attempt < 2; attempt++) {
      let db: SqlDatabase | undefined;
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
        fs.chmodSync(file, PRIVATE_FILE_MODE);
        db = openSqlite(file);
        if (!db) return undefined;
        db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
        const p = new TranscriptPostings(db);
        p.migrate();
        return p;
      } catch {
        // A damaged file: it only ever holds derived data, so it is made again from the files.
        db?.close();
        for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
      }
    }
    return undefined;
  }

  private migrate(): void {
    const known = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (known && Number(this.meta('schema')) === SCHEMA) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const t of ['postings', 'terms', 'docs', 'pending', 'meta']) this.db.exec(`DROP TABLE IF EXISTS ${t}`);
      this.db.exec(CREATE);
      this.setMeta('schema', SCHEMA);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  private sql(text: string): SqlStatement {
    let s = this.stmts.get(text);
    if (!s) this.stmts.set(text, (s = this.db.prepare(text)));
    return s;
  }

  private meta(k: string): unknown {
    return this.sql('SELECT v FROM meta WHERE k = ?').get(k)?.v;
  }

  private setMeta(k: string, v: SqlValue): void {
    this.sql('INSERT INTO meta(k, v) VALUES(?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v').run(k, v);
  }

  /** Whether every job's search file has been taken in once (after that, updates keep it in step). */
  get filled(): boolean {
    return Number(this.meta('filled') ?? 0) === 1;
  }

  markFilled(): void {
    this.setMeta('filled', 1);
  }

  /** The key of the job's indexed version; undefined when it is not in. */
  keyOf(id: string): string | undefined {
    const k = this.sql('SELECT key FROM docs WHERE id = ?').get(id)?.key;
    return k === undefined ? undefined : String(k);
  }

  /** Notes that the job's search file is about to change (see `pending` above). */
  markPending(id: string): void {
    this.sql('INSERT OR IGNORE INTO pending(id) VALUES(?)').run(id);
  }

  clearPending(id: string): void {
    this.sql('DELETE FROM pending WHERE id = ?').run(id);
  }

  pendingIds(): string[] {
    return this.sql('SELECT id FROM pending')
      .all()
      .map((r) => String(r.id));
  }

  /**
   * Puts in a job's version, replacing the one it had (`old`: that version's words, when known,
   * to drop its postings). With `ifAbsent`, a job already in is left as it is. The words go to
   * SQLite as one JSON array per job and are looked up there: one call per job, not per word.
   */
  put(docs: readonly PostedDoc[], opts: { ifAbsent?: boolean; old?: Map<string, Iterable<string>> } = {}): void {
    this.transaction(() => {
      // Postings go in in key order: a batch of jobs then fills the table's pages one after another.
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS batch(t INTEGER, n INTEGER); DELETE FROM temp.batch;');
      for (const d of docs) {
        const had = this.sql('SELECT n FROM docs WHERE id = ?').get(d.id)?.n as number | bigint | undefined;
        if (had !== undefined) {
          if (opts.ifAbsent) continue;
          this.sql('DELETE FROM docs WHERE n = ?').run(had);
          const old = opts.old?.get(d.id);
          if (old) {
            this.sql(
              'DELETE FROM postings WHERE n = ? AND t IN (SELECT w.t FROM json_each(?) j JOIN terms w ON w.term = j.value)',
            ).run(had, JSON.stringify(withHeads(old)));
          }
        }
        const n = this.sql('INSERT INTO docs(id, key) VALUES(?, ?)').run(d.id, d.key).lastInsertRowid;
        const terms = JSON.stringify(withHeads(d.terms));
        this.sql('INSERT OR IGNORE INTO terms(term) SELECT value FROM json_each(?)').run(terms);
        this.sql('INSERT INTO temp.batch(t, n) SELECT w.t, ? FROM json_each(?) j JOIN terms w ON w.term = j.value').run(
          n,
          terms,
        );
        this.sql('DELETE FROM pending WHERE id = ?').run(d.id);
      }
      this.db.exec(
        'INSERT OR IGNORE INTO postings(t, n) SELECT t, n FROM temp.batch ORDER BY t, n; DELETE FROM temp.batch;',
      );
    });
  }

  /** Takes the job out (its postings stay, unreachable, until its number's terms are known). */
  forget(id: string): void {
    this.transaction(() => {
      this.sql('DELETE FROM docs WHERE id = ?').run(id);
      this.sql('DELETE FROM pending WHERE id = ?').run(id);
    });
  }

  /** Jobs holding, for every term, a word that starts with it. */
  search(terms: readonly string[]): Set<string> {
    const conds: string[] = [];
    const params: SqlValue[] = [];
    // Longer terms first: usually the rarer, so the first set (which drives the query) is small.
    for (const term of [...terms].sort((a, b) => b.length - a.length)) {
      const sub = 'SELECT p.n FROM terms w JOIN postings p ON p.t = w.t WHERE';
      if (HEADS.includes([...term].length)) {
        conds.push(`n IN (${sub} w.term = ?)`);
        params.push(HEAD + term);
        continue;
      }
      const end = prefixEnd(term);
      conds.push(`n IN (${sub} ${end === undefined ? 'w.term >= ?' : 'w.term >= ? AND w.term < ?'})`);
      params.push(term, ...(end === undefined ? [] : [end]));
    }
    const out = new Set<string>();
    if (conds.length === 0) return out;
    const rows = this.db.prepare(`SELECT id FROM docs WHERE ${conds.join(' AND ')}`).all(...params);
    for (const r of rows) out.add(String(r.id));
    return out;
  }

  private transaction(body: () => void): void {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      body();
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  close(): void {
    this.stmts.clear();
    this.db.close();
  }
}
