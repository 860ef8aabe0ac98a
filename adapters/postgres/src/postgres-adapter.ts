import { randomUUID } from 'node:crypto'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import pg from 'pg'
import {
  BRAIN_ID_PATTERN,
  silentLogger,
  type BrainCatalog,
  type BrainRecord,
  type BrainStore,
  type StorageAdapter,
  type StorageRuntime,
} from '@engram/core'
import { brainStats, createPostgresBrainStore, inTransaction } from './postgres-brain-store.js'
import { postgresCoordination } from './postgres-coordination.js'
import { guardPool, type GuardedPool } from './postgres-guarded-pool.js'
import { migrate } from './postgres-schema.js'

export interface PostgresAdapterConfig {
  /** e.g. `postgres://user@host:5432/db`; used to create a pool when `pool` is not given. */
  connectionString?: string
  /** A pool to use instead of one made from `connectionString`. The caller owns it: `close()` leaves it open. */
  pool?: pg.Pool
  /**
   * A local directory, of this process alone, where the engine keeps index snapshots of the brains it
   * loads (`<snapshotDir>/<brain id>/`), validated against the brains' write feed at load
   * (`feed-snapshot-manifest.ts` in the core), so that a restart loads a large brain's indexes instead
   * of rebuilding them from its records. Unset (default): no local files, every load rebuilds.
   */
  snapshotDir?: string
}

interface CatalogRow {
  id: string
  name_key: string
  token_hash: string
  token_last4: string
  created_at: string
}

/** What the engine writes in a brain's snapshot directory (`index-snapshots.ts` in the core). */
const SNAPSHOT_FILE = /^(snapshots\.json(\.tmp)?|(vectors|lexical|graph)-[A-Za-z0-9-]+)$/

const toRecord = (row: CatalogRow): BrainRecord => ({
  id: row.id,
  nameKey: row.name_key,
  tokenHash: row.token_hash,
  tokenLast4: row.token_last4,
  createdAt: row.created_at,
})

/**
 * A pool of our own. An idle client's error (the server restarted, an administrator ended the
 * session) is emitted on the pool and would crash the process unheard; the pool has already dropped
 * that client, and the next query connects anew, so it is ignored here. (Checked-out clients are
 * covered by `guardPool`.)
 */
function ownPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config)
  pool.on('error', () => {})
  return pool
}

function poolConfig(config: PostgresAdapterConfig): pg.PoolConfig {
  if (config.pool !== undefined) return config.pool.options
  if (config.connectionString === undefined)
    throw new Error('postgres adapter: give a connectionString or a pool')
  return { connectionString: config.connectionString }
}

/**
 * Storage on PostgreSQL: one set of tables keyed by `brain_id` (see the README for why not a schema
 * per brain), migrated at `open()`. Several processes may share one database.
 *
 * Connections that drop (an administrator's `pg_terminate_backend`, a restart, a failover) are not
 * fatal: the pools open new ones on the next query, a query that met the drop throws
 * `StorageUnavailableError` (503; the task queue retries), and the LISTEN connection reconnects with
 * backoff (`postgres-notifications.ts`). A database that refuses this process for good (credentials,
 * dropped database) is reported to the engine's `fatal`.
 */
export function postgresAdapter(config: PostgresAdapterConfig): StorageAdapter {
  let pool: pg.Pool | null = null
  let guarded: GuardedPool | null = null
  let runtime: StorageRuntime = { logger: silentLogger, fatal: () => {} }
  const stores = new Map<string, BrainStore>()
  // This adapter's name in leases and the write feed: one per process, whatever restarts.
  const origin = randomUUID()
  const snapshotRoot = config.snapshotDir
  const snapshotPath = (brainId: string) =>
    snapshotRoot === undefined ? null : join(snapshotRoot, brainId)

  const db = () => {
    if (guarded === null) throw new Error('postgres adapter: open() was not called')
    return guarded
  }
  const coordination = postgresCoordination({
    origin,
    db,
    clientConfig: () => poolConfig(config),
    makePool: ownPool,
    runtime: () => runtime,
  })
  const oneRow = async (sql: string, params: unknown[]) => {
    const { rows } = await db().query<CatalogRow>(sql, params)
    return rows[0] === undefined ? null : toRecord(rows[0])
  }

  const catalog: BrainCatalog = {
    async create(record) {
      const { rowCount } = await db().query(
        `INSERT INTO brains (id, name_key, token_hash, token_last4, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO NOTHING`,
        [record.id, record.nameKey, record.tokenHash, record.tokenLast4, record.createdAt],
      )
      return rowCount === 1
    },
    get: (brainId) => oneRow('SELECT * FROM brains WHERE id = $1', [brainId]),
    async list() {
      const { rows } = await db().query<CatalogRow>('SELECT * FROM brains ORDER BY created_at, id')
      return rows.map(toRecord)
    },
    findByTokenHash: (tokenHash) =>
      oneRow('SELECT * FROM brains WHERE token_hash = $1 LIMIT 1', [tokenHash]),
    async updateToken(brainId, tokenHash, tokenLast4) {
      const { rowCount } = await db().query(
        'UPDATE brains SET token_hash = $2, token_last4 = $3 WHERE id = $1',
        [brainId, tokenHash, tokenLast4],
      )
      return rowCount === 1
    },
    /**
     * Counts and removes in one transaction: the brain row is locked first (a concurrent `apply` to
     * this brain waits, then fails on the missing brain), and every per-brain table references
     * `brains` with ON DELETE CASCADE, so deleting the row removes every record of the brain.
     */
    async delete(brainId) {
      stores.delete(brainId)
      const stats = await inTransaction(db(), async (client) => {
        const { rowCount } = await client.query('SELECT 1 FROM brains WHERE id = $1 FOR UPDATE', [
          brainId,
        ])
        if (rowCount !== 1) return null
        const stats = await brainStats(client, brainId)
        await client.query('DELETE FROM brains WHERE id = $1', [brainId])
        return stats
      })
      const dir = snapshotPath(brainId)
      if (dir !== null) await rm(dir, { recursive: true, force: true })
      return stats
    },
  }

  /**
   * Snapshots of brains deleted since this process last ran (another process deleted them, or this
   * one while the directory was elsewhere): removed, as the records they hold are gone. Only
   * directories holding nothing but the engine's snapshot files are touched, whatever else the
   * directory was given to hold. A brain deleted and created again keeps its directory; the engine
   * finds its snapshots of the other incarnation and replaces them.
   */
  async function removeDeletedBrainSnapshots(root: string): Promise<void> {
    await mkdir(root, { recursive: true, mode: 0o700 })
    const live = new Set((await catalog.list()).map((brain) => brain.id))
    for (const entry of await readdir(root, { withFileTypes: true })) {
      if (!entry.isDirectory() || live.has(entry.name) || !BRAIN_ID_PATTERN.test(entry.name))
        continue
      const dir = join(root, entry.name)
      if ((await readdir(dir)).every((name) => SNAPSHOT_FILE.test(name)))
        await rm(dir, { recursive: true, force: true })
    }
  }

  return {
    name: 'postgres',
    catalog,
    coordination,
    async open(given) {
      // The server opens the adapter once before the engine does (to agree on the system token);
      // the engine's runtime (its logger and `fatal`) arrives with the engine's call.
      if (given !== undefined) runtime = given
      if (pool !== null) return
      const next = config.pool ?? ownPool(poolConfig(config))
      const client = await next.connect()
      try {
        await migrate(client)
      } catch (error) {
        client.release()
        if (config.pool === undefined) await next.end()
        throw error
      }
      client.release()
      pool = next
      guarded = guardPool(next)
      coordination.open()
      if (snapshotRoot !== undefined) await removeDeletedBrainSnapshots(snapshotRoot)
    },
    async close() {
      const current = pool
      if (current !== null) await coordination.close()
      pool = null
      guarded = null
      stores.clear()
      if (current !== null && config.pool === undefined) await current.end()
    },
    async brain(brainId) {
      let store = stores.get(brainId)
      if (store !== undefined) return store
      if ((await catalog.get(brainId)) === null)
        throw new Error(`postgres adapter: brain '${brainId}' does not exist`)
      store = createPostgresBrainStore(brainId, db(), origin, snapshotPath(brainId))
      stores.set(brainId, store)
      return store
    },
  }
}
