import {
  createEngine,
  generateToken,
  hashToken,
  memoryAdapter,
  silentLogger,
  type Engram,
  type Logger,
  type StorageAdapter,
} from '@engram/core'
import { postgresAdapter } from '@engram/adapter-postgres'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { ConfigError, type ServerConfig } from './config.js'
import {
  demoRateLimiterFromConfig,
  type ConfiguredDemoRateLimiter,
} from './demo-rate-limiter-from-config.js'
import { embedderFromConfig } from './embedder-from-config.js'
import { extractorFromConfig } from './extractor-from-config.js'
import { pluginsFromConfig } from './plugins-from-config.js'
import { resolveSystemToken } from './system-token.js'
import { warmIndexes } from './warm-indexes.js'

export interface RunningServer {
  app: FastifyInstance
  engram: Engram
  /** Where the server listens; empty for `ROLE=worker`, which serves no HTTP. */
  url: string
  /**
   * Graceful stop: stop accepting, let running tasks finish (or leave them queued), save changed
   * vector index snapshots, close storage.
   */
  close(): Promise<void>
}

function storageFor(config: ServerConfig): StorageAdapter {
  switch (config.storage) {
    case 'sqlite':
      return sqliteAdapter({ dataDir: config.dataDir })
    case 'memory':
      return memoryAdapter()
    case 'postgres':
      // loadConfig refuses STORAGE=postgres without DATABASE_URL; a config built in code may not have.
      if (config.databaseUrl === undefined)
        throw new ConfigError('STORAGE=postgres needs DATABASE_URL.')
      return postgresAdapter({ connectionString: config.databaseUrl })
  }
}

/**
 * The system token's hash. With postgres, processes sharing the database agree on one through the
 * database (the first to start generates it); otherwise it is kept in the data directory.
 */
async function systemTokenOf(config: ServerConfig, storage: StorageAdapter) {
  if (storage.coordination === undefined || config.systemToken !== undefined)
    return resolveSystemToken(config.dataDir, config.systemToken)
  await storage.open()
  const token = generateToken()
  const hash = await storage.coordination.claimSetting('system_token_sha256', hashToken(token))
  return { hash, generated: hash === hashToken(token) ? token : null }
}

/**
 * Starts the engine and the HTTP server from a configuration; with `ROLE=worker`, the engine only:
 * it runs tasks from the shared queue and serves no HTTP.
 */
export async function startServer(
  config: ServerConfig,
  print: (line: string) => void = console.log,
): Promise<RunningServer> {
  const storage = storageFor(config)
  const systemToken = await systemTokenOf(config, storage)
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
  // The engine exists before the app and its pino logger: its lines (task queue, index snapshots,
  // failed commit listeners) go to the app's log once there is one.
  let engineLog: Logger = silentLogger
  const engineLogger: Logger = {
    debug: (obj, msg) => engineLog.debug(obj, msg),
    info: (obj, msg) => engineLog.info(obj, msg),
    warn: (obj, msg) => engineLog.warn(obj, msg),
    error: (obj, msg) => engineLog.error(obj, msg),
  }
  let engram: Engram
  let app: FastifyInstance
  let address: string
  let demoRateLimiter: ConfiguredDemoRateLimiter | undefined
  try {
    demoRateLimiter = await demoRateLimiterFromConfig(config, engineLogger)
    engram = createEngine({
      storage,
      runTasks: config.role !== 'api',
      taskLeaseMs: config.taskLeaseSeconds * 1000,
      version: config.version,
      systemTokenHash: systemToken.hash,
      defaultBrain: config.defaultBrain,
      workers: config.workers,
      workersPerBrain: config.workersPerBrain,
      logger: engineLogger,
      embedder,
      extractor,
      plugins,
      ...(config.indexMemoryMb === undefined ? {} : { indexMemoryMb: config.indexMemoryMb }),
      bm25: config.bm25,
      ...(config.searchFusion === undefined ? {} : { defaultFusion: config.searchFusion }),
      graphChannels: {
        passages: config.graphChannels.passages,
        seeds: config.graphChannels.seeds,
        ...(config.graphChannels.fusion !== undefined
          ? { fusion: config.graphChannels.fusion }
          : {}),
      },
    })
    await engram.start()
    app = await buildApp({
      engram,
      basePath: config.basePath,
      maxFileBytes: config.maxFileBytes,
      maxBodyBytes: config.maxBodyBytes,
      logger,
      demoRateLimiter,
    })
    engineLog = app.log
    address =
      config.role === 'worker' ? '' : await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    await demoRateLimiter?.close()
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
  // Start the extraction workers now too (~1 s each to load their NLP models), not on the first task.
  void extractor?.warmUp?.().then(
    (startMs) => app.log.info({ startMs }, 'extractor workers ready'),
    (error: unknown) => app.log.error({ err: error }, 'extractor workers failed to start'),
  )
  let closing: Promise<void> | null = null
  // After the listen, in the background: a restarted server answers /health at once, and each brain's
  // first search finds its indexes built (from snapshots when valid) instead of building them.
  if (config.warmIndexes && config.role !== 'worker')
    void warmIndexes(engram, app.log, () => closing !== null).catch((error: unknown) =>
      app.log.warn({ err: error }, 'index warm-up stopped'),
    )
  return {
    app,
    engram,
    url: address,
    close() {
      closing ??= (async () => {
        await app.close()
        await engram.stop({ graceMs: config.shutdownGraceSeconds * 1000 })
        await demoRateLimiter?.close()
        await embedder?.close?.()
        await extractor?.close?.()
      })()
      return closing
    },
  }
}
