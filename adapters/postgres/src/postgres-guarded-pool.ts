import type pg from 'pg'
import { isConnectionLost, rethrowStorageError } from './postgres-connection-errors.js'
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
 * How long after a dropped connection every connection the pool hands out is checked first. A drop
 * rarely comes alone (a restart, a failover or a `pg_terminate_backend` of every session ends the idle
 * connections too), and pg-pool learns that an idle connection died only when the event loop reads
 * its socket, which may be after the next checkout.
 */
const SUSPECT_MS = 5_000

/**
 * Wraps a pool so that every query, on the pool or on a client checked out of it, reports a dropped
 * or refused connection as `StorageUnavailableError` (a 503 to a request, a retry to the task queue).
 *
 * After such a drop, and for {@link SUSPECT_MS}, a connection is checked with `SELECT 1` before it is
 * used and closed if it fails, until one passes or the pool opens a new one: so the request after a
 * 503 gets a live connection, as docs/scaling-out.md promises, instead of another dead idle one. The
 * check only runs in that window; the query itself is never retried (a write that met the drop may
 * have landed).
 *
 * A checked-out client also gets an `'error'` listener for as long as it is out. pg-pool listens on
 * idle clients only; a connection ending under a checked-out one (a terminated session while a brain
 * lock is held, or between the statements of a transaction) is emitted as `'error'` by `pg.Client`
 * even when a query also reports it, and an `'error'` event nobody listens to ends the process. The
 * loss is reported by the client's next query instead, and the pool discards the client at release
 * (it is no longer queryable).
 */
export function guardPool(pool: pg.Pool): GuardedPool {
  let suspectUntil = 0
  const noteDrop = (error: unknown): never => {
    if (isConnectionLost(error)) suspectUntil = Date.now() + SUSPECT_MS
    return rethrowStorageError(error)
  }

  /** A checked-out client, checked with `SELECT 1` while drops are recent (see above). */
  async function checkedOut(): Promise<pg.PoolClient> {
    // Each failed check closes one dead connection; the pool holds at most `max`, then opens new ones.
    for (let attempt = 0; ; attempt++) {
      const client = await pool.connect().catch(noteDrop)
      client.on('error', ignore)
      if (Date.now() >= suspectUntil) return client
      try {
        await client.query('SELECT 1')
        return client
      } catch (error) {
        client.removeListener('error', ignore)
        client.release(true)
        if (!isConnectionLost(error) || attempt >= (pool.options.max ?? 10)) noteDrop(error)
      }
    }
  }

  return {
    async query<R extends object>(sql: string, params?: unknown[]) {
      if (Date.now() >= suspectUntil)
        return pool.query<R & pg.QueryResultRow>(sql, params).catch(noteDrop)
      const client = await checkedOut()
      try {
        return await client.query<R & pg.QueryResultRow>(sql, params).catch(noteDrop)
      } finally {
        client.removeListener('error', ignore)
        client.release()
      }
    },
    async connect() {
      const client = await checkedOut()
      return {
        query: <R extends object>(sql: string, params?: unknown[]) =>
          client.query<R & pg.QueryResultRow>(sql, params).catch(noteDrop),
        release(broken = false) {
          client.removeListener('error', ignore)
          client.release(broken)
        },
      }
    },
  }
}
