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
  /** True inside a transaction (better-sqlite3 has it; a driver without it is taken as never in one). */
  readonly inTransaction?: boolean
  close(): unknown
}

/** Opens (creating if needed) the database file at `path`. */
export type SqliteDatabaseFactory = (path: string) => SqliteDatabaseLike

/** Prepares each SQL string once on `db` and hands back the same statement afterwards. */
export function statementCache(db: SqliteDatabaseLike): (sql: string) => SqliteStatementLike {
  const cache = new Map<string, SqliteStatementLike>()
  return (sql) => {
    let statement = cache.get(sql)
    if (statement === undefined) cache.set(sql, (statement = db.prepare(sql)))
    return statement
  }
}
