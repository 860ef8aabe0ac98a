/**
 * The part of a better-sqlite3 `Database` the adapter uses, typed structurally so the public API does
 * not depend on the driver's types (the approach of kysely's `SqliteDatabase`).
 */
export interface SqliteStatementLike {
  run(...params: unknown[]): { changes: number }
  get(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
}

export interface SqliteDatabaseLike {
  prepare(sql: string): SqliteStatementLike
  exec(sql: string): unknown
  pragma(source: string, options?: { simple?: boolean }): unknown
  transaction<F extends (...args: never[]) => unknown>(fn: F): F
  close(): unknown
}

/** Opens (creating if needed) the database file at `path`. */
export type SqliteDatabaseFactory = (path: string) => SqliteDatabaseLike
