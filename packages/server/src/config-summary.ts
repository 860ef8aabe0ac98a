import type { SearchPlugin } from '@engram/core'
import type { ServerConfig } from './config.js'
import { redactUrl } from './redact-url.js'

/**
 * The one `info` line a start logs about its configuration: what a person reading the log needs to
 * know which server this is. No secret reaches it: tokens, API keys and URL credentials are left out.
 */
export function configSummary(
  config: ServerConfig,
  embedder: { name: string; dimension: number } | null,
  plugins: readonly SearchPlugin[],
): Record<string, unknown> {
  return {
    version: config.version,
    role: config.role,
    storage: config.storage,
    ...(config.storage === 'postgres' && config.databaseUrl !== undefined
      ? { database: redactUrl(config.databaseUrl) }
      : config.storage === 'sqlite'
        ? { dataDir: config.dataDir }
        : {}),
    ...(config.role === 'worker' ? {} : { listen: `${config.host}:${config.port}` }),
    ...(config.basePath === '' ? {} : { basePath: config.basePath }),
    embedder: embedder === null ? 'none' : `${embedder.name} (${embedder.dimension}-d)`,
    extractor:
      config.extractor === 'local'
        ? `local (${config.extractorWorkers} worker threads)`
        : `llm (${config.extractorOptions.model ?? '?'} at ${redactUrl(config.extractorOptions.url ?? '')})`,
    ...(plugins.length > 0 ? { plugins: plugins.map((p) => `${p.kind}:${p.name}`) } : {}),
    ...(config.redisUrl === undefined ? {} : { redis: redactUrl(config.redisUrl) }),
    ...(config.indexMemoryMb === undefined ? {} : { indexMemoryMb: config.indexMemoryMb }),
    ...(config.indexSnapshotDir === undefined ? {} : { indexSnapshotDir: config.indexSnapshotDir }),
    // Off by default; when set, ingestion slows under request load (README), so a reader of the log should see it.
    ...(config.taskYieldMs === 0 ? {} : { taskYieldMs: config.taskYieldMs }),
    logLevel: config.logLevel,
  }
}
