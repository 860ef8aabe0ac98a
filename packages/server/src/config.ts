import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { BM25_VARIANTS, DEFAULT_BM25, type Bm25Settings } from '@engram/core'
import { PACKAGE_ROOT } from './package-root.js'
import { defaultLogFormat, type LogFormat } from './server-logger.js'

/** Server configuration from the environment (CONTRACT.md section 1); README documents each variable. */
export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  /** The system token in clear, when set by the operator (never logged). */
  systemToken: string | undefined
  defaultBrain: string | null
  basePath: string
  storage: 'sqlite' | 'memory' | 'postgres'
  databaseUrl: string | undefined
  redisUrl: string | undefined
  embedder: 'use-lite' | 'openai' | 'transformers' | 'none'
  /** Settings of the chosen embedder; each applies to the embedders named beside it. */
  embedderOptions: {
    /** openai: the server's base URL (`/v1/embeddings` is appended unless it ends in `/v1`). */
    url: string | undefined
    /** openai, transformers: the model id. */
    model: string | undefined
    /** openai: the bearer key, in clear (never logged). */
    apiKey: string | undefined
    /** openai: vector size, when the model is not a known OpenAI one. */
    dimension: number | undefined
    /** transformers: folder holding `<model>/config.json`, `tokenizer.json`, `onnx/model.onnx`. */
    modelDir: string | undefined
    /** transformers: allow downloads from the Hugging Face hub. */
    allowRemote: boolean
    /** use-lite: worker threads. */
    workers: number
    /** use-lite: the model's arithmetic; unset, the embedder's default (`int8` on ONNX Runtime). */
    precision: 'int8' | 'fp32' | undefined
  }
  extractor: 'local' | 'llm'
  /** `local`: worker threads for extraction; 0 runs it on the main thread. */
  extractorWorkers: number
  /** Settings of the `llm` extractor (checked when the server starts with EXTRACTOR=llm). */
  extractorOptions: {
    /** API root of an OpenAI-compatible server; `/chat/completions` is appended. */
    url: string | undefined
    model: string | undefined
    /** The bearer key, in clear (never logged). */
    apiKey: string | undefined
  }
  /** Module specifiers of search plugins (channels, fusions, stages) to register at start. */
  plugins: string[]
  /**
   * Channels and fusion graph operations take candidates from (`ENGRAM_RETRIEVE_CHANNELS` for
   * `/retrieve/` and context-pack passages, `ENGRAM_SEED_CHANNELS` for hop seeds,
   * `ENGRAM_RETRIEVE_FUSION`); empty or undefined: the engine's defaults.
   */
  graphChannels: { passages: string[]; seeds: string[]; fusion: string | undefined }
  /**
   * Fusion of a `/retrieve/search` (and graph operation) that names none (`ENGRAM_SEARCH_FUSION`);
   * undefined: the engine's default, `cc` with the brain's calibrated weights.
   */
  searchFusion: string | undefined
  /** Ingestion tasks run at once. */
  workers: number
  /** Ingestion tasks of one brain run at once (default `workers - 1`: one is left for other brains). */
  workersPerBrain: number
  /**
   * `TASK_YIELD_MS`: while requests keep coming, the tasks' main-thread steps go one at a time, at most
   * one per this many ms (default 0: steps never wait for requests). core's `foreground.ts`.
   */
  taskYieldMs: number
  logLevel: string
  /** `LOG_FORMAT`: `json` or `pretty`; default pretty when standard output is a terminal. */
  logFormat: LogFormat
  /** `SLOW_REQUEST_MS`: requests slower than this are logged at `info` (others at `debug`). */
  slowRequestMs: number
  maxBodyBytes: number
  maxFileBytes: number
  /** Seconds a graceful shutdown waits for running tasks before re-queueing them. */
  shutdownGraceSeconds: number
  /** Build every brain's search indexes in the background once listening (`WARM_INDEXES`). */
  warmIndexes: boolean
  /**
   * What this process does (`ROLE`): `all` serves HTTP and runs tasks; with postgres, `api` only serves
   * (tasks are stored for the processes that run them) and `worker` only runs tasks (no HTTP).
   */
  role: 'all' | 'api' | 'worker'
  /** Seconds a task claimed from the shared queue stays leased without a heartbeat (`TASK_LEASE_SECONDS`). */
  taskLeaseSeconds: number
  /** Memory budget of the in-memory indexes in MiB (`INDEX_MEMORY_MB`); undefined: unlimited. */
  indexMemoryMb: number | undefined
  /**
   * With sqlite: most brain database connections open at once (`SQLITE_MAX_OPEN_BRAINS`); undefined:
   * the adapter's default (`MAX_OPEN_BRAINS`, 256).
   */
  sqliteMaxOpenBrains: number | undefined
  /**
   * With postgres: this process's local directory for index snapshots (`INDEX_SNAPSHOT_DIR`);
   * undefined: none, every brain's indexes are rebuilt from the database when loaded.
   */
  indexSnapshotDir: string | undefined
  /**
   * BM25 scoring of brains without an override (`BM25_VARIANT`, `BM25_K1`, `BM25_B`, `BM25_DELTA`);
   * only the variables set, the engine's defaults for the rest.
   */
  bm25: Bm25Settings
  /**
   * Seconds between sweeps that forget expired sources (`ENGRAM_EXPIRY_SWEEP_SECONDS`, default 60; 0
   * disables them). With PostgreSQL one process sweeps at a time (docs/time.md, Expiry).
   */
  expirySweepSeconds: number
  version: string
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

function integer(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got '${raw}').`)
  }
  return value
}

function oneOf<T extends string>(
  env: NodeJS.ProcessEnv,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got '${raw}').`)
  }
  return raw as T
}

function optionalInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  min: number,
  max: number,
): number | undefined {
  return env[name] === undefined || env[name] === '' ? undefined : integer(env, name, 0, min, max)
}

/** A finite number in [min, max] from `name`, or undefined when unset. */
function optionalNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  min: number,
  max: number,
): number | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  const value = Number(raw)
  if (!Number.isFinite(value) || value < min || value > max)
    throw new ConfigError(`${name} must be a number between ${min} and ${max} (got '${raw}').`)
  return value
}

/** The BM25 defaults from the environment: only the variables that are set. */
function bm25FromEnv(env: NodeJS.ProcessEnv): Bm25Settings {
  const variant =
    env.BM25_VARIANT === undefined || env.BM25_VARIANT === ''
      ? undefined
      : oneOf(env, 'BM25_VARIANT', BM25_VARIANTS, DEFAULT_BM25.variant)
  const fields: Bm25Settings = {
    variant,
    k1: optionalNumber(env, 'BM25_K1', 0, 100),
    b: optionalNumber(env, 'BM25_B', 0, 1),
    delta: optionalNumber(env, 'BM25_DELTA', 0, 100),
  }
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined),
  ) as Bm25Settings
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  return oneOf(env, name, ['true', 'false'] as const, fallback ? 'true' : 'false') === 'true'
}

function embedderOptions(
  env: NodeJS.ProcessEnv,
  embedder: ServerConfig['embedder'],
): ServerConfig['embedderOptions'] {
  const options = {
    url: env.EMBEDDER_URL || undefined,
    model: env.EMBEDDER_MODEL || undefined,
    apiKey: env.EMBEDDER_API_KEY || undefined,
    dimension: optionalInteger(env, 'EMBEDDER_DIMENSION', 1, 65536),
    modelDir: env.EMBEDDER_MODEL_DIR || undefined,
    allowRemote: flag(env, 'EMBEDDER_ALLOW_REMOTE'),
    workers: integer(env, 'EMBEDDER_WORKERS', Math.min(2, availableParallelism()), 1, 64),
    precision: env.EMBEDDER_PRECISION
      ? oneOf(env, 'EMBEDDER_PRECISION', ['int8', 'fp32'] as const, 'int8')
      : undefined,
  }
  if (embedder === 'openai') {
    if (options.url === undefined || !/^https?:\/\/[^/]/.test(options.url)) {
      throw new ConfigError(
        `EMBEDDER_URL must be the http(s) base URL of an OpenAI-compatible server when EMBEDDER=openai (got '${options.url ?? ''}').`,
      )
    }
    if (options.model === undefined) {
      throw new ConfigError('EMBEDDER_MODEL must name the embedding model when EMBEDDER=openai.')
    }
  }
  if (embedder === 'transformers' && options.model === undefined) {
    throw new ConfigError(
      'EMBEDDER_MODEL must name the model (a hub id or a folder under EMBEDDER_MODEL_DIR) when EMBEDDER=transformers.',
    )
  }
  return options
}

/** The server package's version: reported by /health and written as `brain_version`. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string
  }
  return pkg.version
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const basePath = (env.BASE_PATH ?? '').replace(/\/+$/, '')
  if (basePath !== '' && !/^\/[A-Za-z0-9/_-]*$/.test(basePath)) {
    throw new ConfigError(
      `BASE_PATH must start with '/' and hold only letters, digits, '/', '_' or '-' (got '${env.BASE_PATH}').`,
    )
  }
  const defaultBrain =
    env.DEFAULT_BRAIN === undefined ? 'default' : env.DEFAULT_BRAIN.trim() || null
  if (defaultBrain !== null && !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(defaultBrain)) {
    throw new ConfigError(
      `DEFAULT_BRAIN must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$ (got '${defaultBrain}').`,
    )
  }
  const systemToken =
    env.SERVICEPAT_TOKEN === undefined || env.SERVICEPAT_TOKEN === ''
      ? undefined
      : env.SERVICEPAT_TOKEN
  if (systemToken !== undefined && systemToken.length < 16) {
    throw new ConfigError('SERVICEPAT_TOKEN must be at least 16 characters long.')
  }
  const embedder = oneOf(
    env,
    'EMBEDDER',
    ['use-lite', 'openai', 'transformers', 'none'] as const,
    'use-lite',
  )
  const workers = integer(env, 'WORKERS', 9, 1, 64)
  const storage = oneOf(env, 'STORAGE', ['sqlite', 'memory', 'postgres'] as const, 'sqlite')
  const databaseUrl = env.DATABASE_URL || undefined
  if (storage === 'postgres' && databaseUrl === undefined) {
    throw new ConfigError(
      'STORAGE=postgres needs DATABASE_URL (e.g. postgres://user:password@host:5432/engram).',
    )
  }
  const role = oneOf(env, 'ROLE', ['all', 'api', 'worker'] as const, 'all')
  const indexSnapshotDir = env.INDEX_SNAPSHOT_DIR?.trim() || undefined
  if (indexSnapshotDir !== undefined && storage !== 'postgres') {
    throw new ConfigError(
      `INDEX_SNAPSHOT_DIR is for STORAGE=postgres: with ${storage} storage, snapshots are kept in ENGRAM_DATA_DIR (sqlite) or not at all (memory).`,
    )
  }
  if (env.SQLITE_MAX_OPEN_BRAINS && storage !== 'sqlite') {
    throw new ConfigError(
      `SQLITE_MAX_OPEN_BRAINS is for STORAGE=sqlite: with ${storage} storage there are no brain database files to keep open.`,
    )
  }
  if (role !== 'all' && storage !== 'postgres') {
    throw new ConfigError(
      `ROLE=${role} needs STORAGE=postgres: with ${storage} storage one process serves and runs tasks (ROLE=all).`,
    )
  }
  return {
    port: integer(env, 'PORT', 8000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    dataDir: env.ENGRAM_DATA_DIR || './data',
    systemToken,
    defaultBrain,
    basePath,
    storage,
    databaseUrl,
    redisUrl: env.REDIS_URL || undefined,
    embedder,
    embedderOptions: embedderOptions(env, embedder),
    extractor: oneOf(env, 'EXTRACTOR', ['local', 'llm'] as const, 'local'),
    extractorWorkers: integer(env, 'EXTRACTOR_WORKERS', 2, 0, 64),
    extractorOptions: {
      url: env.EXTRACTOR_URL || undefined,
      model: env.EXTRACTOR_MODEL || undefined,
      apiKey: env.EXTRACTOR_API_KEY || undefined,
    },
    plugins: csv(env.ENGRAM_PLUGINS),
    graphChannels: {
      passages: csv(env.ENGRAM_RETRIEVE_CHANNELS),
      seeds: csv(env.ENGRAM_SEED_CHANNELS),
      fusion: env.ENGRAM_RETRIEVE_FUSION?.trim() || undefined,
    },
    searchFusion: env.ENGRAM_SEARCH_FUSION?.trim() || undefined,
    workers,
    workersPerBrain: integer(env, 'WORKERS_PER_BRAIN', Math.max(1, workers - 1), 1, workers),
    taskYieldMs: integer(env, 'TASK_YIELD_MS', 0, 0, 1000),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    logFormat: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, defaultLogFormat()),
    slowRequestMs: integer(env, 'SLOW_REQUEST_MS', 1000, 1, 3_600_000),
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxFileBytes: integer(env, 'MAX_FILE_BYTES', 50 * 1024 * 1024, 1024, 4 * 1024 * 1024 * 1024),
    shutdownGraceSeconds: integer(env, 'SHUTDOWN_GRACE_SECONDS', 10, 0, 3600),
    // Several processes share a postgres database, each loading the brains it is asked for.
    warmIndexes: flag(env, 'WARM_INDEXES', storage !== 'postgres'),
    role,
    taskLeaseSeconds: integer(env, 'TASK_LEASE_SECONDS', 30, 2, 3600),
    indexMemoryMb: optionalInteger(env, 'INDEX_MEMORY_MB', 1, 16 * 1024 * 1024),
    sqliteMaxOpenBrains: optionalInteger(env, 'SQLITE_MAX_OPEN_BRAINS', 1, 1_000_000),
    indexSnapshotDir,
    bm25: bm25FromEnv(env),
    expirySweepSeconds: integer(env, 'ENGRAM_EXPIRY_SWEEP_SECONDS', 60, 0, 86_400),
    version: packageVersion(),
  }
}

/** A comma-separated setting as its non-empty trimmed items. */
function csv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}
