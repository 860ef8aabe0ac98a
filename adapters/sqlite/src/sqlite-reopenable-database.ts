import type { SqliteDatabaseLike, SqliteStatementLike } from './sqlite-database-like.js'

/** A connection that can be let go while idle and is opened again by its next call. */
export interface ReopenableDatabase extends SqliteDatabaseLike {
  /**
   * Closes the connection unless it is closed already or inside a transaction, and returns whether it
   * did. The next call opens it again (through the same `open`); statements and transaction functions
   * handed out before keep working.
   */
  release(): boolean
  /** The connection is open now (false after `release` until the next call). */
  readonly connected: boolean
}

/**
 * A {@link SqliteDatabaseLike} over connections made by `open`, one at a time: the first is opened
 * at once, and after `release` the next call opens another. Statements from `prepare` are resolved
 * against the connection of the moment (prepared once per connection), as are functions from
 * `transaction`. `close` is final: later calls throw, as they would on a closed better-sqlite3
 * database, and nothing is reopened (a deleted brain's file is never created again).
 *
 * Why: a process serving thousands of brains cannot keep each brain's connection open. One costs about
 * 0.2 MB once opened and up to its page cache (better-sqlite3 sets 16 MB) once read: measured on the
 * 2-core reference machine, 500 brains of 200 passages each read once held 760 MB; closed, 74 MB.
 */
export function reopenableDatabase(open: () => SqliteDatabaseLike): ReopenableDatabase {
  let db: SqliteDatabaseLike | null = open()
  let closed = false
  let statements = new Map<string, SqliteStatementLike>()
  let transactions = new Map<unknown, (...args: never[]) => unknown>()

  const connection = (): SqliteDatabaseLike => {
    if (closed) throw new TypeError('The database connection is not open')
    if (db === null) {
      db = open()
      statements = new Map()
      transactions = new Map()
    }
    return db
  }
  const statement = (sql: string): SqliteStatementLike => {
    const current = connection()
    let prepared = statements.get(sql)
    if (prepared === undefined) statements.set(sql, (prepared = current.prepare(sql)))
    return prepared
  }

  return {
    get connected() {
      return db !== null
    },
    prepare(sql) {
      // Prepared now, so that an error in the SQL is thrown here, as better-sqlite3 does.
      statement(sql)
      return {
        run: (...params) => statement(sql).run(...params),
        get: (...params) => statement(sql).get(...params),
        all: (...params) => statement(sql).all(...params),
      }
    },
    exec: (source) => connection().exec(source),
    pragma: (source, options) => connection().pragma(source, options),
    transaction<F extends (...args: never[]) => unknown>(fn: F): F {
      const run = (...args: Parameters<F>) => {
        const current = connection()
        let tx = transactions.get(fn)
        if (tx === undefined) transactions.set(fn, (tx = current.transaction(fn)))
        return (tx as F)(...args)
      }
      return run as F
    },
    get inTransaction() {
      return db?.inTransaction ?? false
    },
    release() {
      if (db === null || closed || db.inTransaction === true) return false
      db.close()
      db = null
      statements = new Map()
      transactions = new Map()
      return true
    },
    close() {
      closed = true
      db?.close()
      db = null
    },
  }
}
