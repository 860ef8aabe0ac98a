import { resolve } from 'node:path'
import { storageOption, type StorageAdapter } from '@engram/core'
import { sqliteAdapter } from './sqlite-adapter.js'

export interface SqliteStorageOptions {
  /**
   * The data directory: `catalog.sqlite`, one `brains/<id>.sqlite` per brain and their index
   * snapshots. Created if missing (0700); a relative path is resolved against the working directory
   * now, so a later `process.chdir` does not move it.
   */
  dir: string
}

/**
 * The embedded default storage for `createEngram`: SQLite files on disk, one per brain. A documented
 * alias of `sqliteAdapter({ dataDir })` (see it for the layout and file modes); one process at a time
 * per directory (processes sharing brains need `postgresStorage`). A missing `dir` or an unknown
 * option is a VALIDATION_ERROR.
 *
 * ```js
 * const engram = await createEngram({ storage: sqliteStorage({ dir: './engram-data' }) })
 * ```
 */
export function sqliteStorage(options: SqliteStorageOptions): StorageAdapter {
  const dir = storageOption(
    'sqliteStorage',
    options,
    'dir',
    'the data directory, e.g. ./engram-data',
  )
  return sqliteAdapter({ dataDir: resolve(dir) })
}
