import {
  createEngram,
  createSearchService,
  defaultIngestionComponents,
  memoryAdapter,
  registerIngestion,
  type Engram,
  type StorageAdapter,
} from '@engram/core'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { ConfigError, type ServerConfig } from './config.js'
import { embedderFromConfig } from './embedder-from-config.js'
import { extractorFromConfig } from './extractor-from-config.js'
import { pluginsFromConfig } from './plugins-from-config.js'
import { resolveSystemToken } from './system-token.js'

export interface RunningServer {
  app: FastifyInstance
  engram: Engram
  url: string
  /** Graceful stop: stop accepting, let running tasks finish (or leave them queued), close storage. */
  close(): Promise<void>
}

function storageFor(config: ServerConfig): StorageAdapter {
  switch (config.storage) {
    case 'sqlite':
      return sqliteAdapter({ dataDir: config.dataDir })
    case 'memory':
      return memoryAdapter()
    case 'postgres':
      throw new ConfigError(
        'STORAGE=postgres is not available in this version; use sqlite (the default) or memory.',
      )
  }
}

/** Starts the engine and the HTTP server from a configuration. */
export async function startServer(
  config: ServerConfig,
  print: (line: string) => void = console.log,
): Promise<RunningServer> {
  const systemToken = resolveSystemToken(config.dataDir, config.systemToken)
  if (systemToken.generated !== null) {
    print(
      `Generated the system token (shown once; only its hash is stored): ${systemToken.generated}`,
    )
  }
  const logger = {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.servicepat', 'req.headers.authorization', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  }
  const extractor = extractorFromConfig(config)
  // Search plugins first: a bad ENGRAM_PLUGINS stops the start before any worker is spawned.
  const plugins = await pluginsFromConfig(config)
  const embedder = await embedderFromConfig(config)
  let engram: Engram
  let app: FastifyInstance
  let address: string
  try {
    engram = createEngram({
      storage: storageFor(config),
      version: config.version,
      systemTokenHash: systemToken.hash,
      defaultBrain: config.defaultBrain,
      workers: config.workers,
    })
    registerIngestion(engram, { components: defaultIngestionComponents({ embedder, extractor }) })
    await engram.start()
    app = await buildApp({
      engram,
      basePath: config.basePath,
      maxFileBytes: config.maxFileBytes,
      maxBodyBytes: config.maxBodyBytes,
      logger,
      search: createSearchService(engram, { embedder, plugins }),
    })
    address = await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    await embedder?.close?.()
    await extractor?.close?.()
    throw error
  }
  // Name and dimension only: the API key never reaches a log line.
  app.log.info({ embedder: embedder?.name ?? 'none', dimension: embedder?.dimension }, 'embedder')
  if (plugins.length > 0)
    app.log.info({ plugins: plugins.map((p) => `${p.kind}:${p.name}`) }, 'search plugins loaded')
  // Load use-lite's model now rather than on the first ingestion; a failure is reported, not fatal.
  void embedder?.warmUp?.().then(
    (loadMs) => app.log.info({ loadMs }, 'embedder workers ready'),
    (error: unknown) => app.log.error({ err: error }, 'embedder failed to load'),
  )
  let closing: Promise<void> | null = null
  return {
    app,
    engram,
    url: address,
    close() {
      closing ??= (async () => {
        await app.close()
        await engram.stop({ graceMs: config.shutdownGraceSeconds * 1000 })
        await embedder?.close?.()
        await extractor?.close?.()
      })()
      return closing
    },
  }
}
