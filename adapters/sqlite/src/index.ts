export { MAX_OPEN_BRAINS, sqliteAdapter, type SqliteAdapterConfig } from './sqlite-adapter.js'
export type {
  SqliteDatabaseFactory,
  SqliteDatabaseLike,
  SqliteStatementLike,
} from './sqlite-database-like.js'
export { sqliteStorage, type SqliteStorageOptions } from './sqlite-storage.js'
