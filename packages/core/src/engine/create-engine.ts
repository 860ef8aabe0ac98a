import { clearStemCache } from '../analysis/analyze.js'
import { createBrainSettings } from '../brain/brain-settings.js'
import { resolveBm25Settings } from '../indexes/bm25/bm25-index.js'
import { createIndexManager } from '../indexes/index-manager.js'
import { defaultIngestionComponents } from '../ingest/default-components.js'
import { registerIngestion } from '../ingest/register-ingestion.js'
import { createRecords } from '../records/create-records.js'
import { vectorReader } from '../search/dense-access.js'
import { createSearchService } from '../search/search-service.js'
import { embedMissing } from '../ingest/pipeline/embed-missing.js'
import { createExpirySweeper } from '../sources/expiry-sweeper.js'
import { createSourcesService } from '../sources/sources-service.js'
import { createEngineCore } from './engine-core.js'
import type { Engram, EngineOptions } from './engine-types.js'

/**
 * The composition root (DESIGN.md section 1a): builds the engine's core (storage, brains, graph
 * writes, task queue), the index manager that follows its commits, the search pipeline over those
 * indexes, the record lookups routes and tools read through, and the ingestion task handlers, in the
 * one order that works: the index manager and ingestion are registered before `start()`, because
 * tasks resumed by `start` commit through the manager's listeners and resolve entities against its
 * vectors. Nothing else wires these parts.
 *
 * ```ts
 * const engram = createEngine({ storage: sqliteAdapter({ dataDir }), version: '1.0.0', embedder })
 * await engram.start()
 * ```
 */
export function createEngine(options: EngineOptions): Engram {
  const {
    embedder = null,
    extractor,
    plugins,
    snapshots,
    graphChannels,
    indexMemoryMb,
    defaultFusion,
  } = options
  const bm25 = options.bm25 ?? {}
  try {
    resolveBm25Settings(bm25)
  } catch (error) {
    throw new Error(`createEngine: ${(error as Error).message}`, { cause: error })
  }
  const core = createEngineCore(options)
  // Ingestion's before-commit hook first (hooks run in registration order): it adds the vectors of
  // `/model/*` writes to their batch, and the index manager's hook must see every vector a batch will
  // store to invalidate the snapshots of the spaces it touches. Seeing the batch before, it let a
  // snapshot stay valid without the new vector, which a restart (or a reload after eviction) then read.
  const components =
    options.ingestion ??
    defaultIngestionComponents({ embedder, ...(extractor ? { extractor } : {}) })
  registerIngestion(core, {
    components,
    ...(options.contradictions === false ? { contradictions: false } : {}),
    // Entity resolution compares candidates with the brain's entity vectors, when there is an embedder.
    entityVectors: async (brainId) =>
      embedder === null ? null : vectorReader(brainId, await indexes.get(brainId)),
  })
  const indexes = createIndexManager(core, {
    ...(snapshots === undefined ? {} : { snapshots }),
    ...(indexMemoryMb === undefined ? {} : { memoryBudgetBytes: indexMemoryMb * 2 ** 20 }),
    bm25,
  })
  const search = createSearchService(core, indexes, {
    embedder,
    ...(plugins === undefined ? {} : { plugins }),
    ...(graphChannels === undefined ? {} : { graphChannels }),
    ...(options.graphWalk === undefined ? {} : { graphWalk: options.graphWalk }),
    ...(defaultFusion === undefined ? {} : { defaultFusion }),
  })
  const sources = createSourcesService(core, {
    async reembed(store, batch, signal) {
      await embedMissing(store, batch, components, signal)
    },
    forgetTexts(texts) {
      embedder?.forget?.(texts)
      clearStemCache()
    },
  })
  const expirySweepSeconds = options.expirySweepSeconds ?? 60
  if (!Number.isFinite(expirySweepSeconds) || expirySweepSeconds < 0)
    throw new Error(`createEngine: expirySweepSeconds must be >= 0, got ${expirySweepSeconds}`)
  const expiry = createExpirySweeper(core, sources, {
    intervalSeconds: expirySweepSeconds,
    cold: (brainId) => indexes.loading(brainId) === undefined && !core.tasks.holds(brainId),
  })
  // The sweeper runs while the engine does: its first round after one period, its last before the
  // task queue stops (a forget it submits is then left queued for the next start).
  const { start, stop } = core
  return Object.assign(core, {
    indexes,
    search,
    records: createRecords(core),
    brainSettings: createBrainSettings(core, indexes, bm25),
    sources,
    expiry,
    async start() {
      await start()
      expiry.start()
    },
    async stop(stopOptions?: { graceMs?: number }) {
      await expiry.stop()
      await stop(stopOptions)
    },
  })
}
