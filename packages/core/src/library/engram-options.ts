import { z } from 'zod'
import type { Embedder } from '../contracts/embedder.js'
import type { Extractor } from '../contracts/extractor.js'
import type { SearchPlugin } from '../contracts/search-plugins.js'
import type { StorageAdapter } from '../contracts/storage-adapter.js'
import { BM25_VARIANTS } from '../indexes/bm25/bm25-index.js'
import type { Logger } from '../logger.js'
import { BRAIN_ID_PATTERN } from '../model/brain-record.js'

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && (typeof v === 'object' || typeof v === 'function')
const hasFunctions = (v: unknown, ...names: string[]) =>
  isObject(v) && names.every((name) => typeof v[name] === 'function')

/** The default `maxFileBytes`: the server's `MAX_FILE_BYTES` default. */
export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024

const storage = z.custom<StorageAdapter>(
  (v) => hasFunctions(v, 'open', 'close', 'brain') && isObject((v as StorageAdapter).catalog),
  'must be a StorageAdapter: sqliteStorage({ dir }), postgresStorage({ connectionString }) or memoryStorage()',
)
const embedder = z.union(
  [
    z.literal('use-lite'),
    z.literal('none'),
    z.custom<Embedder>(
      (v) =>
        hasFunctions(v, 'embed') &&
        typeof (v as Embedder).name === 'string' &&
        typeof (v as Embedder).dimension === 'number',
    ),
  ],
  { error: "must be 'use-lite', 'none' or an Embedder ({ kind, name, dimension, embed })" },
)
const extractor = z.union(
  [z.literal('local'), z.custom<Extractor>((v) => hasFunctions(v, 'extract'))],
  { error: "must be 'local' or an Extractor ({ kind, name, extract })" },
)
const plugin = z.custom<SearchPlugin>(
  (v) =>
    isObject(v) &&
    ['channel', 'fusion', 'stage'].includes(v.kind as string) &&
    typeof v.name === 'string',
  'must be a search plugin ({ kind: channel | fusion | stage, name, ... })',
)
const logger = z.custom<Logger>(
  (v) => hasFunctions(v, 'debug', 'info', 'warn', 'error'),
  'must be a logger with debug, info, warn and error (pino fits)',
)
const names = z.array(z.string().min(1).max(200)).max(20)

/**
 * `createEngram` options. Only `storage` is required; what the engine creates from a name (the
 * `use-lite` embedder's and the `local` extractor's worker threads) `close()` closes, and what the
 * caller passes in (an Embedder, an Extractor, plugins, a logger) the caller owns.
 */
export const engramOptions = z.strictObject({
  /** Where brains live. */
  storage,
  /** Embeds passages, entities and queries (default `'use-lite'`, offline); `'none'`: lexical + graph. */
  embedder: embedder.default('use-lite'),
  /** Extraction of entities and relationships from text (default `'local'`, worker threads, no LLM). */
  extractor: extractor.default('local'),
  /** Extra channel, fusion and stage plugins (docs/writing-a-plugin.md). */
  plugins: z.array(plugin).max(1000).optional(),
  /** The brain the top-level methods act on, created at start (default `default`). */
  defaultBrain: z
    .string()
    .regex(BRAIN_ID_PATTERN, 'must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$')
    .default('default'),
  /** Where the engine logs (task failures, snapshots); default silent. */
  logger: logger.optional(),
  /** BM25 scoring of every brain unless a brain overrides it (`settings.update`). */
  bm25: z
    .strictObject({
      variant: z.enum(BM25_VARIANTS).optional(),
      k1: z.number().optional(),
      b: z.number().optional(),
      delta: z.number().optional(),
    })
    .optional(),
  /** Fusion of a search that names none (default `cc`; docs/search-fusion.md). */
  defaultFusion: z.string().min(1).max(200).optional(),
  /** Channels and fusion the graph operations take their candidates from. */
  graphChannels: z
    .strictObject({
      passages: names.optional(),
      seeds: names.optional(),
      fusion: z.string().max(200).optional(),
    })
    .optional(),
  /** Memory budget of the in-memory indexes in MiB; least recently used brains are evicted beyond it. */
  indexMemoryMb: z.number().positive().finite().optional(),
  /** Ingestion tasks run at once (default 2). */
  workers: z.number().int().min(1).max(64).default(2),
  /** Largest file `ingest.file` takes, in bytes (default 50 MiB, the server's). */
  maxFileBytes: z
    .number()
    .int()
    .min(1024)
    .max(4 * 1024 ** 3)
    .default(DEFAULT_MAX_FILE_BYTES),
  /** Written as `brainVersion` on passages (default the @engram/core version). */
  version: z.string().min(1).max(100).optional(),
})

export type EngramOptions = z.input<typeof engramOptions>
export type ResolvedEngramOptions = z.output<typeof engramOptions>
