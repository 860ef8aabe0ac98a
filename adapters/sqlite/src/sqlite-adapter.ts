import { rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import {
  createPrivateFile,
  makePrivateDir,
  tightenModes,
  type BrainCatalog,
  type BrainRecord,
  type BrainStore,
  type StorageAdapter,
} from '@engram/core'
import { createSqliteBrainStore } from './sqlite-brain-store.js'
import { checkpointOnWorker } from './sqlite-checkpoint-worker.js'
import {
  statementCache,
  type SqliteDatabaseFactory,
  type SqliteDatabaseLike,
  type SqliteStatementLike,
} from './sqlite-database-like.js'
import { reopenableDatabase } from './sqlite-reopenable-database.js'
import { prepareDatabase } from './sqlite-schema.js'

export interface SqliteAdapterConfig {
  /**
   * Directory holding `catalog.sqlite`, `brains/<brain id>.sqlite` and the engine's index snapshots of
   * each brain, `brains/<brain id>.indexes/`. Created if missing. It holds every brain's data, so
   * its directories are 0700 and its files 0600: set at creation, and tightened at `open()` for a
   * directory an older version wrote.
   */
  dataDir: string
  /** Opens a database file; defaults to better-sqlite3. */
  database?: SqliteDatabaseFactory
  /**
   * Told the paths whose mode `open()` could not tighten (another owner, a file system without Unix
   * permissions); defaults to a process warning. The data stays usable, so the adapter opens anyway.
   */
  onLoosePermissions?: (paths: string[]) => void
  /**
   * Most brain connections open at once (default {@link MAX_OPEN_BRAINS}). Opening one more closes the
   * least recently used (after its transaction or checkpoint, if it has one running), to be opened again
   * on its next use.
   */
  maxOpenBrains?: number
}

/**
 * Default of `maxOpenBrains`. The engine releases a brain's connection when it evicts the brain's indexes
 * or finds it cold in a scan; a brain read only through its store (task records, entity pages, the
 * changelog) holds no indexes, and its connection would otherwise stay open for good with whatever
 * page cache its reads filled (up to 64 MiB each). Reopening costs about a millisecond.
 */
export const MAX_OPEN_BRAINS = 256

/** A database file and the files SQLite keeps beside it. */
const SQLITE_SUFFIXES = ['', '-wal', '-shm', '-journal']

const warnLoosePermissions = (paths: string[]) =>
  process.emitWarning(
    `Could not restrict to the owner (0700/0600): ${paths.slice(0, 5).join(', ')}${paths.length > 5 ? ` and ${paths.length - 5} more` : ''}. They hold brain data; fix their owner or mode.`,
    { code: 'ENGRAM_LOOSE_PERMISSIONS' },
  )

interface CatalogRow {
  id: string
  name_key: string
  token_hash: string
  token_last4: string
  created_at: string
}

const toRecord = (row: CatalogRow): BrainRecord => ({
  id: row.id,
  nameKey: row.name_key,
  tokenHash: row.token_hash,
  tokenLast4: row.token_last4,
  createdAt: row.created_at,
})

const defaultFactory: SqliteDatabaseFactory = (path) =>
  new Database(path) as unknown as SqliteDatabaseLike

/**
 * The embedded default storage: one catalog database plus one SQLite file per brain, so brains are
 * isolated by construction and a brain is backed up or deleted as a file.
 */
export function sqliteAdapter(config: SqliteAdapterConfig): StorageAdapter {
  const open = config.database ?? defaultFactory
  const brainsDir = join(config.dataDir, 'brains')
  let catalogDb: SqliteDatabaseLike | null = null
  const databases = new Map<string, SqliteDatabaseLike>()
  const stores = new Map<string, BrainStore>()
  const maxOpenBrains = Math.max(1, config.maxOpenBrains ?? MAX_OPEN_BRAINS)
  /** Brains whose connection is open, least recently used first (`brain()` moves one to the end). */
  const connected = new Map<string, true>()
  /** Past `maxOpenBrains`, releases the least recently used connections other than `opening`'s. */
  function closeLeastRecent(opening: string) {
    for (const brainId of connected.keys()) {
      if (connected.size <= maxOpenBrains) return
      if (brainId !== opening) stores.get(brainId)?.release?.()
    }
  }
  /** Checkpoints running on worker threads, per brain (awaited before a brain's files go away). */
  const checkpoints = new Map<string, Promise<void>>()

  /** Only with the default driver: the worker opens the file with better-sqlite3 itself. */
  const checkpointElsewhere = (brainId: string) =>
    config.database !== undefined
      ? {}
      : {
          checkpointElsewhere: () => {
            const previous = checkpoints.get(brainId) ?? Promise.resolve()
            const next = previous.then(() => checkpointOnWorker(brainPath(brainId)))
            const settled = next.then(
              () => {},
              () => {},
            )
            checkpoints.set(brainId, settled)
            void settled.then(() => {
              if (checkpoints.get(brainId) === settled) checkpoints.delete(brainId)
            })
            return next
          },
        }

  /** Prepared once per open: the engine looks a brain up in the catalog on every store access. */
  let catalogStatements: ((sql: string) => SqliteStatementLike) | null = null
  const stmt = (sql: string) => {
    if (catalogStatements === null) throw new Error('sqlite adapter: open() was not called')
    return catalogStatements(sql)
  }
  const brainPath = (brainId: string) => join(brainsDir, `${brainId}.sqlite`)
  /**
   * Index snapshots are files beside the brain's database, not `snapshots` rows: hnswlib reads and
   * writes only files, and measured on the 2-core reference machine, a 100,000 x 512-d vector snapshot
   * (~405 MB) stored as two blobs held the event loop 1.5 s to write and 0.4 s to read (better-sqlite3
   * is synchronous) and passed through the WAL before its checkpoint; as files it is written in 0.75 s
   * and read in 0.6 s, both on libuv threads (longest event-loop stall 48 ms).
   */
  const snapshotPath = (brainId: string) => join(brainsDir, `${brainId}.indexes`)

  function closeBrain(brainId: string) {
    databases.get(brainId)?.close()
    databases.delete(brainId)
    stores.delete(brainId)
    connected.delete(brainId)
  }

  async function brain(brainId: string): Promise<BrainStore> {
    let store = stores.get(brainId)
    if (store !== undefined) {
      if (connected.delete(brainId)) connected.set(brainId, true)
      return store
    }
    if ((await catalog.get(brainId)) === null)
      throw new Error(`sqlite adapter: brain '${brainId}' does not exist`)
    createPrivateFile(brainPath(brainId))
    // Closed while the engine holds none of the brain's indexes (`store.release`), opened again on use.
    const database = reopenableDatabase(() => {
      const connection = open(brainPath(brainId))
      prepareDatabase(connection, 'brain')
      connected.delete(brainId)
      connected.set(brainId, true)
      closeLeastRecent(brainId)
      return connection
    })
    databases.set(brainId, database)
    store = createSqliteBrainStore(brainId, database, {
      ...checkpointElsewhere(brainId),
      snapshotDir: snapshotPath(brainId),
      release: () => {
        if (database.release()) connected.delete(brainId)
      },
    })
    stores.set(brainId, store)
    return store
  }

  const catalog: BrainCatalog = {
    async create(record) {
      const result = stmt(
        'INSERT OR IGNORE INTO brains (id, name_key, token_hash, token_last4, created_at) VALUES (?, ?, ?, ?, ?)',
      ).run(record.id, record.nameKey, record.tokenHash, record.tokenLast4, record.createdAt)
      return result.changes === 1
    },
    async get(brainId) {
      const row = stmt('SELECT * FROM brains WHERE id = ?').get(brainId) as CatalogRow | undefined
      return row === undefined ? null : toRecord(row)
    },
    async list() {
      return (stmt('SELECT * FROM brains ORDER BY created_at, id').all() as CatalogRow[]).map(
        toRecord,
      )
    },
    async findByTokenHash(tokenHash) {
      const row = stmt('SELECT * FROM brains WHERE token_hash = ?').get(tokenHash) as
        CatalogRow | undefined
      return row === undefined ? null : toRecord(row)
    },
    async updateToken(brainId, tokenHash, tokenLast4) {
      return (
        stmt('UPDATE brains SET token_hash = ?, token_last4 = ? WHERE id = ?').run(
          tokenHash,
          tokenLast4,
          brainId,
        ).changes === 1
      )
    },
    async delete(brainId) {
      if ((await catalog.get(brainId)) === null) return null
      const stats = await (await brain(brainId)).stats()
      await checkpoints.get(brainId)
      closeBrain(brainId)
      stmt('DELETE FROM brains WHERE id = ?').run(brainId)
      for (const suffix of SQLITE_SUFFIXES) rmSync(brainPath(brainId) + suffix, { force: true })
      rmSync(snapshotPath(brainId), { recursive: true, force: true })
      return stats
    },
  }

  return {
    name: 'sqlite',
    catalog,
    async open() {
      if (catalogDb !== null) return
      makePrivateDir(brainsDir)
      const catalogPath = join(config.dataDir, 'catalog.sqlite')
      // The data directory itself and what this adapter writes in it, not whatever else it holds.
      const loose = [
        ...tightenModes(config.dataDir, { recursive: false }),
        ...tightenModes(brainsDir),
        ...SQLITE_SUFFIXES.flatMap((suffix) => tightenModes(catalogPath + suffix)),
      ]
      if (loose.length > 0) (config.onLoosePermissions ?? warnLoosePermissions)(loose)
      createPrivateFile(catalogPath)
      catalogDb = open(catalogPath)
      prepareDatabase(catalogDb, 'catalog')
      catalogStatements = statementCache(catalogDb)
    },
    async close() {
      await Promise.all(checkpoints.values())
      for (const brainId of [...databases.keys()]) closeBrain(brainId)
      catalogDb?.close()
      catalogDb = null
      catalogStatements = null
    },
    brain,
  }
}
