export { postgresAdapter, type PostgresAdapterConfig } from './postgres-adapter.js'
export { MIGRATIONS } from './postgres-schema.js'
