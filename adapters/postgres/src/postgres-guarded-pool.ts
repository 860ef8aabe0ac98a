import type pg from 'pg'
import { rethrowStorageError } from './postgres-connection-errors.js'
import type { Queryable } from './postgres-sql.js'

/** A client checked out of a {@link GuardedPool}; `release(true)` closes it instead of pooling it. */
export interface GuardedClient extends Queryable {
  release(broken?: boolean): void
}

/** What the adapter queries through: a pool whose dropped connections throw `StorageUnavailableError`. */
export interface GuardedPool extends Queryable {
  connect(): Promise<GuardedClient>
}

const ignore = () => {}

/**
 * Wraps a pool so that every query, on the pool or on a client checked out of it, reports a dropped
 * or refused connection as `StorageUnavailableError` (a 503 to a request, a retry to the task queue).
 *
 * A checked-out client also gets an `'error'` listener for as long as it is out. pg-pool listens on
 * idle clients only; a connection ending under a checked-out one (a terminated session while a brain
 * lock is held, or between the statements of a transaction) is emitted as `'error'` by `pg.Client`
 * even when a query also reports it, and an `'error'` event nobody listens to ends the process. The
 * loss is reported by the client's next query instead, and the pool discards the client at release
 * (it is no longer queryable).
 */
export function guardPool(pool: pg.Pool): GuardedPool {
  return {
    query: <R extends object>(sql: string, params?: unknown[]) =>
      pool.query<R & pg.QueryResultRow>(sql, params).catch(rethrowStorageError),
    async connect() {
      const client = await pool.connect().catch(rethrowStorageError)
      client.on('error', ignore)
      return {
        query: <R extends object>(sql: string, params?: unknown[]) =>
          client.query<R & pg.QueryResultRow>(sql, params).catch(rethrowStorageError),
        release(broken = false) {
          client.removeListener('error', ignore)
          client.release(broken)
        },
      }
    },
  }
}
