// The embedded SQL database the archive's History index is kept in. Node 24 and Electron 45 carry
// SQLite themselves (`node:sqlite`); Node 20 has none, so there `better-sqlite3` is used when it is
// installed (a development dependency: `npm ci` builds it for the Node at hand). The two take the
// same SQL and the same calls used here (exec, prepare → run/get/all, positional `?` only). A native
// module built for one Node does not load in another, hence `node:sqlite` first whenever it exists.
// Without either, `openSqlite` returns undefined and History reads the archive's summary rows as
// before (slower, same answers).
import { createRequire } from 'node:module';

export type SqlValue = string | number | bigint | null | Uint8Array;

export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
  all(...params: SqlValue[]): Array<Record<string, unknown>>;
}

export interface SqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

type Open = (file: string, readOnly: boolean) => SqlDatabase;

let driver: { open: Open; name: string } | null | undefined;

function findDriver(): { open: Open; name: string } | null {
  const builtin = process.getBuiltinModule?.('node:sqlite') as
    { DatabaseSync: new (file: string, opts?: { readOnly?: boolean }) => SqlDatabase } | undefined;
  if (builtin?.DatabaseSync) {
    const { DatabaseSync } = builtin;
    return { name: 'node:sqlite', open: (file, readOnly) => new DatabaseSync(file, { readOnly }) };
  }
  try {
    const require = createRequire(import.meta.url);
    const Better = require('better-sqlite3') as new (file: string, opts?: { readonly?: boolean }) => SqlDatabase;
    // Loading succeeds only for the Node it was built for; a first database proves it works.
    new Better(':memory:').close();
    return { name: 'better-sqlite3', open: (file, readOnly) => new Better(file, { readonly: readOnly }) };
  } catch {
    return null;
  }
}

/** Which SQLite this process uses ('node:sqlite', 'better-sqlite3'), or undefined: none. */
export function sqliteDriver(): string | undefined {
  driver ??= findDriver();
  return driver?.name;
}

/** Opens (creating unless read-only) a database file; undefined when this Node has no SQLite. */
export function openSqlite(file: string, readOnly = false): SqlDatabase | undefined {
  driver ??= findDriver();
  return driver?.open(file, readOnly);
}
