import type pg from 'pg'
import type {
  Coordination,
  FeedEntry,
  TaskKey,
  TaskLeases,
  WriteFeed,
  WriteSummary,
} from '@engram/core'
import { Notifications, TASKS_CHANNEL, WRITES_CHANNEL } from './postgres-notifications.js'
import type { Queryable } from './postgres-sql.js'

/** First key of the brains' advisory write locks ('eng'); the second is `hashtext(brain id)`. */
const BRAIN_LOCK = 0x656e67

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

const KEYS = `(brain_id, id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`

const keyParams = (keys: TaskKey[]) => [keys.map((k) => k.brainId), keys.map((k) => k.taskId)]

/** How long the write feed keeps entries: a process behind by more reloads the brain's indexes. */
const FEED_RETENTION = '1 day'

/**
 * Appends a batch's entry to its brain's write feed, inside the batch's transaction: the brain row's
 * `write_seq` is incremented first (which locks the row until commit, so one brain's entries commit
 * in number order), then the entry is written and announced (NOTIFY is sent at commit).
 */
export async function appendWrite(
  db: Queryable,
  brainId: string,
  origin: string,
  summary: WriteSummary,
): Promise<void> {
  const { rows } = await db.query<{ seq: string }>(
    'UPDATE brains SET write_seq = write_seq + 1 WHERE id = $1 RETURNING write_seq AS seq',
    [brainId],
  )
  if (rows[0] === undefined) throw new Error(`postgres adapter: brain '${brainId}' does not exist`)
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
export function postgresCoordination(
  origin: string,
  db: () => pg.Pool,
  clientConfig: () => pg.PoolConfig,
  makePool: (config: pg.PoolConfig) => pg.Pool,
): PostgresCoordination {
  let lockPool: pg.Pool | null = null
  let notifications: Notifications | null = null
  let sweep: NodeJS.Timeout | undefined

  const channel = () => (notifications ??= new Notifications(clientConfig()))

  async function withBrainLock<T>(brainId: string, work: () => Promise<T>): Promise<T> {
    if (lockPool === null) throw new Error('postgres adapter: open() was not called')
    const client = await lockPool.connect()
    let broken = false
    try {
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [BRAIN_LOCK, brainId])
      try {
        return await work()
      } finally {
        await client
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [BRAIN_LOCK, brainId])
          .catch(() => (broken = true))
      }
    } catch (error) {
      broken = true
      throw error
    } finally {
      // A client whose unlock failed is closed, which ends its session and so releases the lock.
      client.release(broken)
    }
  }

  const writes: WriteFeed = {
    async heads(brainIds) {
      const { rows } = await db().query<{ id: string; seq: string }>(
        'SELECT id, write_seq AS seq FROM brains WHERE id = ANY($1::text[])',
        [brainIds],
      )
      return new Map(rows.map((r) => [r.id, Number(r.seq)]))
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
      if (keys.length === 0) return
      await db().query(
        `UPDATE tasks SET lease_until = now() + $4 * interval '1 millisecond'
         WHERE lease_owner = $1 AND ${KEYS}`,
        [origin, ...keyParams(keys), leaseMs],
      )
    },
    async release(keys) {
      if (keys.length === 0) return
      await db().query(
        `UPDATE tasks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND ${KEYS}`,
        [origin, ...keyParams(keys)],
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
      lockPool = makePool({ ...clientConfig(), max: 8 })
      sweep = setInterval(() => {
        db()
          .query(`DELETE FROM writes WHERE written_at < now() - interval '${FEED_RETENTION}'`)
          .catch(() => {})
      }, 3_600_000)
      sweep.unref()
    },
    async close() {
      clearInterval(sweep)
      const pool = lockPool
      lockPool = null
      await notifications?.close()
      notifications = null
      await pool?.end()
    },
  }
}
