// The SQL of History's index (history-index.ts): its tables, the indexes made after a rebuild's
// rows are in, and a name search as a condition on them.
import type { SqlValue } from '../sqlite.js';

/** Search terms shorter than a trigram cannot use the full-text index; `instr` alone decides them. */
const TRIGRAM = 3;

export const CREATE = `
  CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v);
  CREATE TABLE IF NOT EXISTS jobs(n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, o INTEGER NOT NULL,
    created INTEGER NOT NULL, completed INTEGER NOT NULL, name TEXT NOT NULL, folded TEXT NOT NULL,
    template TEXT NOT NULL, state TEXT NOT NULL, size INTEGER NOT NULL, folder TEXT NOT NULL,
    host TEXT NOT NULL, seek TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS streams(sid TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(sid, n)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS counts(state TEXT NOT NULL, template TEXT NOT NULL, folder TEXT NOT NULL,
    host TEXT NOT NULL, c INTEGER NOT NULL, PRIMARY KEY(state, template, folder, host)) WITHOUT ROWID;
  CREATE VIRTUAL TABLE IF NOT EXISTS names USING fts5(folded, tokenize='trigram', content='', contentless_delete=1);
`;

/** Made once the rows are in when building from nothing: sorting once beats updating per row. */
export const INDEXES = `
  CREATE INDEX IF NOT EXISTS jobs_created ON jobs(created, id);
  CREATE INDEX IF NOT EXISTS jobs_completed ON jobs(completed, created, id);
  CREATE INDEX IF NOT EXISTS jobs_folded ON jobs(folded, created, id);
  CREATE INDEX IF NOT EXISTS jobs_state ON jobs(state, created, id);
  CREATE INDEX IF NOT EXISTS jobs_size ON jobs(size, created, id);
  CREATE INDEX IF NOT EXISTS jobs_host ON jobs(host COLLATE NOCASE, created, id);
  CREATE INDEX IF NOT EXISTS streams_n ON streams(n);
`;

/**
 * The filters on a job's own fields as conditions (an empty list filters nothing). Computers are
 * matched with letter case ignored (ASCII, as SQLite's NOCASE): host names are not case-sensitive.
 */
export function listConditions(
  q: {
    states?: readonly string[] | undefined;
    templateIds?: readonly string[] | undefined;
    folderIds?: readonly string[] | undefined;
    computers?: readonly string[] | undefined;
  },
  prefix = '',
): { where: string[]; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  for (const [column, values] of [
    ['state', q.states],
    ['template', q.templateIds],
    ['folder', q.folderIds],
    ['host COLLATE NOCASE', q.computers],
  ] as const) {
    if (!values?.length) continue;
    where.push(`${prefix}${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  }
  return { where, params };
}

/**
 * The search as SQL: the trigram index narrows to names holding each long term, `instr` decides.
 * Both look in `seek`, the folded name and the folded computer that processed the job.
 */
export function nameCondition(s: { terms: readonly string[]; whole: string }): { sql: string; params: SqlValue[] } {
  const parts: string[] = [];
  const params: SqlValue[] = [];
  const terms = s.terms.length > 0 ? s.terms : [s.whole];
  const long = terms.filter((t) => [...t].length >= TRIGRAM);
  if (long.length > 0) {
    parts.push('n IN (SELECT rowid FROM names WHERE names MATCH ?)');
    params.push(long.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND '));
  }
  for (const t of terms) {
    parts.push('instr(seek, ?) > 0');
    params.push(t);
  }
  return { sql: parts.join(' AND '), params };
}
