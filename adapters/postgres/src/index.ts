export { postgresAdapter, type PostgresAdapterConfig } from './postgres-adapter.js'
export { MIGRATIONS } from './postgres-schema.js'
export { postgresStorage, type PostgresStorageOptions } from './postgres-storage.js'
