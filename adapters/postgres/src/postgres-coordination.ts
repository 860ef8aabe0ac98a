import { AsyncLocalStorage } from 'node:async_hooks'
import type pg from 'pg'
import {
  StorageUnavailableError,
  type Coordination,
  type ExclusiveRun,
  type FeedEntry,
  type StorageRuntime,
  type TaskKey,
  type TaskLeases,
  type WriteFeed,
  type WriteSummary,
} from '@engram/core'
import { guardPool, type GuardedClient, type GuardedPool } from './postgres-guarded-pool.js'
import { Notifications, TASKS_CHANNEL, WRITES_CHANNEL } from './postgres-notifications.js'
import type { Queryable } from './postgres-sql.js'

/** First key of the brains' advisory write locks ('eng'); the second is `hashtext(brain id)`. */
const BRAIN_LOCK = 0x656e67

/** First key of `tryExclusive`'s job locks ('ejb'); the second is `hashtext(job name)`. */
const JOB_LOCK = 0x656a62

/**
 * Leases runnable tasks: the oldest of each brain first, brains in turn (a brain with a backlog does
 * not keep another's first task waiting). LIMIT sits above the row locks, so rows another claimer
 * holds are skipped without using up the limit; the runnable test is repeated on the locked row, so a
 * row another claimer leased and committed meanwhile is re-read (READ COMMITTED) and skipped too.
 */
const CLAIM = `WITH runnable AS (
    SELECT brain_id, id, created_at,
      row_number() OVER (PARTITION BY brain_id ORDER BY created_at, id) AS turn
    FROM tasks
    WHERE status IN ('queued', 'started') AND (lease_until IS NULL OR lease_until < now())
      AND NOT (brain_id = ANY($3::text[]))
  ), picked AS (
    SELECT t.brain_id, t.id FROM tasks t
    JOIN runnable r ON t.brain_id = r.brain_id AND t.id = r.id
    WHERE t.status IN ('queued', 'started') AND (t.lease_until IS NULL OR t.lease_until < now())
    ORDER BY r.turn, r.created_at, r.brain_id, r.id
    LIMIT $1
    FOR UPDATE OF t SKIP LOCKED
  )
  UPDATE tasks t SET lease_owner = $2, lease_until = now() + $4 * interval '1 millisecond'
  FROM picked p WHERE t.brain_id = p.brain_id AND t.id = p.id
  RETURNING t.brain_id, t.id`

/**
 * Task ids by brain: lease statements run once per brain, each with `brain_id = $2`, so that on a
 * cluster sharded by `brain_id` each touches one shard (docs/scaling-out.md).
 */
function byBrain(keys: TaskKey[]): Map<string, string[]> {
  const ids = new Map<string, string[]>()
  for (const k of keys) {
    const list = ids.get(k.brainId)
    if (list === undefined) ids.set(k.brainId, [k.taskId])
    else list.push(k.taskId)
  }
  return ids
}

const KEYS = 'brain_id = $2 AND id = ANY($3::text[])'

/** How long the write feed keeps entries: a process behind by more reloads the brain's indexes. */
const FEED_RETENTION = '1 day'

/**
 * The brain lock the current async context holds (`withBrainLock`), with the brain's write number as
 * it was once the lock was taken: a fencing token. The lock is a session lock, so it goes with its
 * connection; if that connection drops while the work runs, another process may take the lock and
 * write the brain before this work commits what it built from its reads. `appendWrite` commits only
 * if the write number is still the one seen under the lock (Kleppmann, "How to do distributed
 * locking", 2016: fencing tokens).
 */
interface HeldLock {
  brainId: string
  seq: string | null
}
const heldLock = new AsyncLocalStorage<HeldLock>()

/**
 * Appends a batch's entry to its brain's write feed, inside the batch's transaction: the brain row's
 * `write_seq` is incremented first (which locks the row until commit, so one brain's entries commit
 * in number order), then the entry is written and announced (NOTIFY is sent at commit). Under
 * `withBrainLock`, the increment is fenced: a write number moved by another process (this one's lock
 * went with a dropped connection) fails the batch with `StorageUnavailableError`, to be retried from
 * its reads.
 */
export async function appendWrite(
  db: Queryable,
  brainId: string,
  origin: string,
  summary: WriteSummary,
): Promise<void> {
  const held = heldLock.getStore()
  const fence = held?.brainId === brainId ? held.seq : null
  const { rows } = await db.query<{ seq: string }>(
    `UPDATE brains SET write_seq = write_seq + 1
     WHERE id = $1 AND ($2::bigint IS NULL OR write_seq = $2::bigint) RETURNING write_seq AS seq`,
    [brainId, fence],
  )
  if (rows[0] === undefined) {
    const { rowCount } = await db.query('SELECT 1 FROM brains WHERE id = $1', [brainId])
    if (rowCount === 0) throw new Error(`postgres adapter: brain '${brainId}' does not exist`)
    throw new StorageUnavailableError(
      new Error(`brain '${brainId}': write number moved from ${fence} under a lost lock`),
      "The brain's write lock was lost with its database connection; the write was not committed.",
    )
  }
  if (held !== undefined && fence !== null) held.seq = rows[0].seq
  await db.query('INSERT INTO writes (brain_id, seq, origin, summary) VALUES ($1, $2, $3, $4)', [
    brainId,
    rows[0].seq,
    origin,
    JSON.stringify(summary),
  ])
  await db.query('SELECT pg_notify($1, $2)', [WRITES_CHANNEL, `${rows[0].seq} ${brainId}`])
}

export interface PostgresCoordination extends Coordination {
  /** Starts the lock pool and the feed's retention sweep. */
  open(): void
  close(): Promise<void>
}

/**
 * The `Coordination` of the postgres adapter (see `contracts/coordination.ts`): brain write locks are
 * session advisory locks, held on a pool of their own (a lock holder waits for no connection the
 * work it guards needs); the write feed is the `writes` table with LISTEN/NOTIFY; task leases are
 * columns of `tasks`, claimed with `FOR UPDATE SKIP LOCKED`.
 *
 * Sources: PostgreSQL 15 documentation, "SELECT: The Locking Clause" (SKIP LOCKED "to avoid lock
 * contention with multiple consumers accessing a queue-like table"), "Advisory Locks" (13.3.5) and
 * "NOTIFY" (delivered at commit, to sessions listening then); the lease-and-heartbeat scheme is the
 * one of pg-boss and Que, without their job tables.
 */
export interface PostgresCoordinationOptions {
  origin: string
  /** The adapter's pool (open). */
  db: () => GuardedPool
  /** Connection settings for the lock pool and the LISTEN connection. */
  clientConfig: () => pg.PoolConfig
  makePool: (config: pg.PoolConfig) => pg.Pool
  /** The engine's logger and `fatal`, as given to the adapter's `open()`. */
  runtime: () => StorageRuntime
}

export function postgresCoordination(options: PostgresCoordinationOptions): PostgresCoordination {
  const { origin, db, clientConfig, makePool } = options
  let lockPool: { pool: pg.Pool; guarded: GuardedPool } | null = null
  let notifications: Notifications | null = null
  let sweep: NodeJS.Timeout | undefined

  const channel = () => (notifications ??= new Notifications(clientConfig(), options.runtime))

  /**
   * Runs `held` on a lock-pool connection holding the session advisory lock (`lock`, hashed `key`):
   * waited for (`pg_advisory_lock`), or only tried (`pg_try_advisory_lock`, PostgreSQL 15
   * documentation, 9.27.10 "Advisory Lock Functions": it "will either obtain the lock immediately and
   * return true, or return false without waiting"). The lock is released when `held` settles; a client
   * whose unlock failed is closed, which ends its session and so releases the lock.
   */
  async function withAdvisoryLock<T>(
    lock: number,
    key: string,
    mode: 'wait' | 'try',
    held: (client: GuardedClient) => Promise<T>,
  ): Promise<ExclusiveRun<T>> {
    if (lockPool === null) throw new Error('postgres adapter: open() was not called')
    const client = await lockPool.guarded.connect()
    let broken = false
    try {
      if (mode === 'wait') {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [lock, key])
      } else {
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
          [lock, key],
        )
        if (rows[0]?.locked !== true) return { acquired: false }
      }
      try {
        return { acquired: true, value: await held(client) }
      } finally {
        await client
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [lock, key])
          .catch(() => (broken = true))
      }
    } catch (error) {
      broken = true
      throw error
    } finally {
      client.release(broken)
    }
  }

  async function withBrainLock<T>(brainId: string, work: () => Promise<T>): Promise<T> {
    const run = await withAdvisoryLock(BRAIN_LOCK, brainId, 'wait', async (client) => {
      // Read after the lock is held (its own statement: a statement's snapshot predates its locks).
      const { rows } = await client.query<{ seq: string }>(
        'SELECT write_seq::text AS seq FROM brains WHERE id = $1',
        [brainId],
      )
      return heldLock.run({ brainId, seq: rows[0]?.seq ?? null }, work)
    })
    return (run as { acquired: true; value: T }).value
  }

  /**
   * The job lock `name`, tried: a connection of the lock pool holds it while `work` runs. A dropped
   * connection frees the lock early: the jobs run under it must bear being run twice.
   */
  function tryExclusive<T>(name: string, work: () => Promise<T>): Promise<ExclusiveRun<T>> {
    return withAdvisoryLock(JOB_LOCK, name, 'try', () => work())
  }

  const writes: WriteFeed = {
    async heads(brainIds) {
      const { rows } = await db().query<{ id: string; seq: string; incarnation: string }>(
        `SELECT id, write_seq AS seq, created_at AS incarnation FROM brains
         WHERE id = ANY($1::text[])`,
        [brainIds],
      )
      return new Map(rows.map((r) => [r.id, { seq: Number(r.seq), incarnation: r.incarnation }]))
    },
    async since(brainId, seq, limit) {
      const { rows } = await db().query<{ seq: string; origin: string; summary: string }>(
        `SELECT seq, origin, summary::text AS summary FROM writes
         WHERE brain_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [brainId, seq, limit],
      )
      return rows.map((r): FeedEntry => ({
        seq: Number(r.seq),
        origin: r.origin,
        summary: JSON.parse(r.summary) as WriteSummary,
      }))
    },
    subscribe(listener) {
      return channel().subscribe(WRITES_CHANNEL, (payload) => {
        const space = payload.indexOf(' ')
        if (space > 0) listener(payload.slice(space + 1), Number(payload.slice(0, space)))
      })
    },
  }

  const tasks: TaskLeases = {
    async claim(limit, leaseMs, exclude) {
      if (limit <= 0) return []
      const { rows } = await db().query<{ brain_id: string; id: string }>(CLAIM, [
        limit,
        origin,
        exclude,
        leaseMs,
      ])
      return rows.map((r) => ({ brainId: r.brain_id, taskId: r.id }))
    },
    async renew(keys, leaseMs) {
      await Promise.all(
        [...byBrain(keys)].map(([brainId, ids]) =>
          db().query(
            `UPDATE tasks SET lease_until = now() + $4 * interval '1 millisecond'
             WHERE ${KEYS} AND lease_owner = $1`,
            [origin, brainId, ids, leaseMs],
          ),
        ),
      )
    },
    async release(keys) {
      await Promise.all(
        [...byBrain(keys)].map(([brainId, ids]) =>
          db().query(
            `UPDATE tasks SET lease_owner = NULL, lease_until = NULL WHERE ${KEYS} AND lease_owner = $1`,
            [origin, brainId, ids],
          ),
        ),
      )
    },
    async pending(brainId) {
      const { rows } = await db().query<{ total: number; brain: number; brains: number }>(
        `SELECT count(*)::int AS total, (count(*) FILTER (WHERE brain_id = $1))::int AS brain,
           count(DISTINCT brain_id)::int AS brains
         FROM tasks WHERE status IN ('queued', 'started')`,
        [brainId],
      )
      return rows[0]!
    },
    subscribe: (listener) => channel().subscribe(TASKS_CHANNEL, () => listener()),
  }

  return {
    origin,
    withBrainLock,
    tryExclusive,
    writes,
    tasks,
    async claimSetting(key, value) {
      await db().query(
        'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
        [key, value],
      )
      const { rows } = await db().query<{ value: string }>(
        'SELECT value FROM settings WHERE key = $1',
        [key],
      )
      return rows[0]!.value
    },
    open() {
      const pool = makePool({ ...clientConfig(), max: 8 })
      lockPool = { pool, guarded: guardPool(pool) }
      sweep = setInterval(() => {
        db()
          .query(`DELETE FROM writes WHERE written_at < now() - interval '${FEED_RETENTION}'`)
          .catch(() => {})
      }, 3_600_000)
      sweep.unref()
    },
    async close() {
      clearInterval(sweep)
      const locks = lockPool
      lockPool = null
      await notifications?.close()
      notifications = null
      await locks?.pool.end()
    },
  }
}
