import {
  createEngine,
  createForeground,
  generateToken,
  hashToken,
  memoryAdapter,
  silentLogger,
  type Engram,
  type Logger,
  type StorageAdapter,
} from '@engram/core'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.js'
import { configSummary } from './config-summary.js'
import { ConfigError, type ServerConfig } from './config.js'
import {
  demoRateLimiterFromConfig,
  type ConfiguredDemoRateLimiter,
} from './demo-rate-limiter-from-config.js'
import { embedderFromConfig, type ConfiguredEmbedder } from './embedder-from-config.js'
import { extractorFromConfig } from './extractor-from-config.js'
import { pluginsFromConfig } from './plugins-from-config.js'
import { serverLogger } from './server-logger.js'
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

/** The configured adapter; only its own driver is loaded (pg is not imported for SQLite, nor the reverse). */
async function storageFor(config: ServerConfig): Promise<StorageAdapter> {
  switch (config.storage) {
    case 'sqlite': {
      const { sqliteAdapter } = await import('@engram/adapter-sqlite')
      return sqliteAdapter({
        dataDir: config.dataDir,
        ...(config.sqliteMaxOpenBrains === undefined
          ? {}
          : { maxOpenBrains: config.sqliteMaxOpenBrains }),
      })
    }
    case 'memory':
      return memoryAdapter()
    case 'postgres': {
      // loadConfig refuses STORAGE=postgres without DATABASE_URL; a config built in code may not have.
      if (config.databaseUrl === undefined)
        throw new ConfigError('STORAGE=postgres needs DATABASE_URL.')
      const { postgresAdapter } = await import('@engram/adapter-postgres')
      return postgresAdapter({
        connectionString: config.databaseUrl,
        ...(config.indexSnapshotDir === undefined ? {} : { snapshotDir: config.indexSnapshotDir }),
      })
    }
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
  /**
   * The embedder, when the caller created it early (`engram serve` does, so that its model loads on
   * its own thread while this module's imports load on the main one). Closed here if the start fails.
   */
  early?: { embedder: Promise<ConfiguredEmbedder | null> },
): Promise<RunningServer> {
  try {
    return await start(config, print, early?.embedder)
  } catch (error) {
    await (await early?.embedder.catch(() => null))?.close?.()
    throw error
  }
}

async function start(
  config: ServerConfig,
  print: (line: string) => void,
  earlyEmbedder: Promise<ConfiguredEmbedder | null> | undefined,
): Promise<RunningServer> {
  const storage = await storageFor(config)
  const systemToken = await systemTokenOf(config, storage)
  if (systemToken.generated !== null) {
    print(
      `Generated the system token (shown once; only its hash is stored): ${systemToken.generated}`,
    )
  }
  const logger = serverLogger({ level: config.logLevel, format: config.logFormat })
  let closing: Promise<void> | null = null
  const extractor = await extractorFromConfig(config)
  // Search plugins first: a bad ENGRAM_PLUGINS stops the start before any worker is spawned.
  const plugins = await pluginsFromConfig(config)
  const embedder = await (earlyEmbedder ?? embedderFromConfig(config))
  // One embedder worker loads its model (and runs one embedding, see use-lite's worker) while the
  // engine and the app are built; the server listens once it is ready, so the first search after
  // /health answers is as fast as the next ones. More workers start when ingestion needs them. A
  // model that cannot load stops the start.
  const embedderReady = embedder?.warmUp?.(1)
  embedderReady?.catch(() => {})
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
      foreground: createForeground({ spacingMs: config.taskYieldMs }),
      logger: engineLogger,
      embedder,
      extractor,
      plugins,
      ...(config.indexMemoryMb === undefined ? {} : { indexMemoryMb: config.indexMemoryMb }),
      bm25: config.bm25,
      expirySweepSeconds: config.expirySweepSeconds,
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
    // In the background from here: every brain's indexes (from snapshots when valid), built while the
    // app is built and the embedder loads, then while the server answers (/health at once; a brain's
    // first search waits only if its build has not finished; the builds yield to the event loop).
    if (config.warmIndexes && config.role !== 'worker')
      void warmIndexes(engram, engineLogger, () => closing !== null).catch((error: unknown) =>
        engineLogger.warn({ err: error }, 'index warm-up stopped'),
      )
    app = await buildApp({
      engram,
      basePath: config.basePath,
      maxFileBytes: config.maxFileBytes,
      maxBodyBytes: config.maxBodyBytes,
      logger,
      demoRateLimiter,
      slowRequestMs: config.slowRequestMs,
    })
    engineLog = app.log
    if (embedderReady !== undefined) {
      const loadMs = await embedderReady
      // use-lite names the engine it runs on (onnx, or tfjs when the optional onnxruntime-node is absent)
      // and its arithmetic (int8 or fp32).
      const { runtime, precision } = (embedder ?? {}) as { runtime?: unknown; precision?: unknown }
      app.log.info(
        {
          loadMs: loadMs.map(Math.round),
          ...(typeof runtime === 'string' ? { runtime } : {}),
          ...(typeof precision === 'string' ? { precision } : {}),
        },
        'embedder workers ready',
      )
    }
    address =
      config.role === 'worker' ? '' : await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    await demoRateLimiter?.close()
    await embedder?.close?.()
    await extractor?.close?.()
    throw error
  }
  app.log.info(configSummary(config, embedder, plugins), 'configuration')
  // Extraction workers (about 1 s and 90 MB each for their NLP models) start with the first
  // extraction in a process that serves HTTP, so an idle server stays small; a worker-only process
  // exists to run tasks and starts them now. A failure here is reported; the first task retries it.
  if (config.role === 'worker')
    void extractor?.warmUp?.().then(
      (startMs) => app.log.info({ startMs: startMs.map(Math.round) }, 'extractor workers ready'),
      (error: unknown) => {
        if (closing === null) app.log.error({ err: error }, 'extractor workers failed to start')
      },
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
