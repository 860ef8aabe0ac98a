import { storageOption, type StorageAdapter } from '@engram/core'
import { postgresAdapter } from './postgres-adapter.js'

export interface PostgresStorageOptions {
  /** e.g. `postgres://user:password@host:5432/engram`. */
  connectionString: string
}

/**
 * PostgreSQL storage for `createEngram`: every brain in one database, which several processes (other
 * library instances, `engram serve` with ROLE=api or worker) may share. A documented alias of
 * `postgresAdapter({ connectionString })`; to pass a pool of your own, use `postgresAdapter({ pool })`.
 * A missing `connectionString` or an unknown option is a VALIDATION_ERROR.
 *
 * ```js
 * const engram = await createEngram({ storage: postgresStorage({ connectionString }) })
 * ```
 */
export function postgresStorage(options: PostgresStorageOptions): StorageAdapter {
  const url = storageOption('postgresStorage', options, 'connectionString', 'a postgres:// URL')
  return postgresAdapter({ connectionString: url })
}
