import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { createEngine, useLiteEmbedder, type Embedder, type Logger } from '@engram/core'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'
import {
  loadScifact,
  manyBrainId,
  manyBrainsRequest,
  readQueryVectors,
  type ManyBrainsShape,
} from './many-brains-corpus.js'
import { ProcessMemory } from './process-memory.js'

const MB = 2 ** 20
/** Searches per brain in the warm phase, over the brains still loaded after the last sweep. */
const WARM_ROUNDS = 5
const WARM_BRAINS = 20

export interface SweepResult {
  readonly label: string
  /** First search of each brain (its indexes evicted or never built): build + search, ms. */
  readonly cold: LatencySummary
  /** Parts of the builds, medians over the sweep, from the engine's `brain indexes built` lines. */
  readonly build: { snapshotLoadMs: number; lexicalMs: number; vectorRebuildMs: number }
  /** Where each brain's passages vector index came from. */
  readonly origins: Record<string, number>
  /** Brains found loaded (not cold), left out of `cold`: the budget held them since the last sweep. */
  readonly stillLoaded: number
  readonly evictions: number
  readonly peakRssMb: number
  readonly peakSource: 'VmHWM' | 'sampled'
  /** Largest sum of the index estimates seen after a request. */
  readonly peakEstimatedMb: number
  readonly end: { rssMb: number; estimatedMb: number; loadedBrains: number }
  readonly wallS: number
  readonly load1: number
}

export interface ManyBrainsServe {
  readonly budgetMb: number
  /** Engine started, embedder loaded, nothing built: the fixed overhead. */
  readonly baselineRssMb: number
  /** The same before the embedder's workers loaded their model. */
  readonly beforeEmbedderRssMb: number
  readonly sweeps: readonly SweepResult[]
  readonly warm: {
    readonly latency: LatencySummary
    readonly brains: number
    readonly evictions: number
  }
  readonly warnings: readonly string[]
}

/** Keeps what the report needs from the engine's log: build timings and warnings. */
function buildLog(): Logger & { builds: Record<string, unknown>[]; warnings: string[] } {
  const builds: Record<string, unknown>[] = []
  const warnings: string[] = []
  return {
    builds,
    warnings,
    debug: () => {},
    info: (obj, msg) => {
      if (msg === 'brain indexes built') builds.push(obj as Record<string, unknown>)
    },
    warn: (_obj, msg) => warnings.push(msg ?? ''),
    error: (_obj, msg) => warnings.push(`error: ${msg ?? ''}`),
  }
}

const median = (values: number[]) => summarizeLatency(values).p50

/**
 * `inner` (the model, loaded as the server loads it, under its own name) answering the texts of `known`
 * (the query vectors the parent read from the benchmark vector cache) without running; any other text
 * runs the model.
 */
function queryVectorsFirst(inner: Embedder, known: Map<string, Float32Array>): Embedder {
  return {
    ...inner,
    async embed(texts, signal, how) {
      const missing = texts.filter((text) => !known.has(text))
      if (missing.length > 0) {
        const vectors = await inner.embed(missing, signal, how)
        missing.forEach((text, i) => known.set(text, vectors[i]!))
      }
      return texts.map((text) => known.get(text)!)
    },
  }
}

/**
 * The measured process: an engine on the seeded SQLite data dir with `indexMemoryMb` (the engine
 * option behind INDEX_MEMORY_MB), use-lite loaded as the server loads it, and queries answered with the
 * vectors the parent read from the vector cache (`readQueryVectors`; so latencies exclude the query
 * embedding). Two sweeps search every brain once, in
 * order (on a fresh data dir, the first builds each brain from SQLite and evictions save snapshots;
 * later ones read them). Then the brains still loaded are searched again (warm).
 */
export async function serveManyBrains(
  dataDir: string,
  datasetsDir: string,
  shape: ManyBrainsShape,
  budgetMb: number,
  log: (line: string) => void,
): Promise<ManyBrainsServe> {
  const { queries } = loadScifact(datasetsDir)
  const memory = new ProcessMemory()
  const inner = useLiteEmbedder()
  const embedder = queryVectorsFirst(inner, readQueryVectors(dataDir))
  const logger = buildLog()
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir }),
    version: 'bench',
    defaultBrain: null,
    embedder,
    logger,
    indexMemoryMb: budgetMb,
  })
  await engram.start()
  await sleep(500)
  const beforeEmbedderRssMb = memory.rssMb()
  await inner.warmUp()
  await sleep(1000)
  const baselineRssMb = memory.rssMb()
  const queryOf = (i: number) => queries[i % queries.length]!.text

  const sweep = async (label: string): Promise<SweepResult> => {
    const load1 = loadavg()[0]!
    const evictionsBefore = engram.indexes.stats().evictions
    logger.builds.length = 0
    memory.resetPeak()
    const ticker = setInterval(() => memory.rssMb(), 50)
    const cold: number[] = []
    let stillLoaded = 0
    const origins: Record<string, number> = {}
    let peakEstimated = 0
    const t0 = performance.now()
    try {
      for (let i = 0; i < shape.brains; i++) {
        const id = manyBrainId(i)
        const loaded = engram.indexes.peek(id) !== undefined
        const started = performance.now()
        const { hits } = await engram.search.search(id, manyBrainsRequest(queryOf(i)))
        // A brain still loaded from before (a budget holding more brains than the sweep evicts).
        if (loaded) stillLoaded++
        else cold.push(performance.now() - started)
        if (hits.length === 0) throw new Error(`${label}: no hit in ${id} for '${queryOf(i)}'`)
        const origin = engram.indexes.peek(id)?.vectorOrigin.get('passages') ?? 'none'
        origins[origin] = (origins[origin] ?? 0) + 1
        peakEstimated = Math.max(peakEstimated, engram.indexes.stats().estimatedBytes)
        if ((i + 1) % 250 === 0)
          log(
            `  ${label}: ${i + 1} brains, RSS ${memory.rssMb().toFixed(0)} MB, ` +
              `estimate ${(engram.indexes.stats().estimatedBytes / MB).toFixed(0)} MB`,
          )
      }
    } finally {
      clearInterval(ticker)
    }
    const wallS = (performance.now() - t0) / 1000
    const peak = memory.peakMb()
    const stats = engram.indexes.stats()
    const part = (key: string) => median(logger.builds.map((b) => Number(b[key] ?? 0)))
    return {
      label,
      cold: summarizeLatency(cold),
      build: {
        snapshotLoadMs: part('snapshotLoadMs'),
        lexicalMs: part('lexicalMs'),
        vectorRebuildMs: part('vectorRebuildMs'),
      },
      origins,
      stillLoaded,
      evictions: stats.evictions - evictionsBefore,
      peakRssMb: peak.mb,
      peakSource: peak.source,
      peakEstimatedMb: peakEstimated / MB,
      end: {
        rssMb: memory.rssMb(),
        estimatedMb: stats.estimatedBytes / MB,
        loadedBrains: stats.loadedBrains,
      },
      wallS,
      load1,
    }
  }

  const sweeps: SweepResult[] = []
  for (const label of ['sweep 1', 'sweep 2']) {
    log(`many-brains: ${label} over ${shape.brains} brains ...`)
    sweeps.push(await sweep(label))
  }
  // The brains the last sweep left loaded, most recent last.
  const warmIds: string[] = []
  for (let i = shape.brains - 1; i >= 0 && warmIds.length < WARM_BRAINS; i--)
    if (engram.indexes.peek(manyBrainId(i)) !== undefined) warmIds.push(manyBrainId(i))
  warmIds.reverse()
  const evictionsBefore = engram.indexes.stats().evictions
  const warm: number[] = []
  for (let round = 0; round < WARM_ROUNDS; round++)
    for (const [j, id] of warmIds.entries()) {
      const started = performance.now()
      await engram.search.search(id, manyBrainsRequest(queryOf(j * WARM_ROUNDS + round + 1)))
      warm.push(performance.now() - started)
    }
  const result: ManyBrainsServe = {
    budgetMb,
    baselineRssMb,
    beforeEmbedderRssMb,
    sweeps,
    warm: {
      latency: summarizeLatency(warm),
      brains: warmIds.length,
      evictions: engram.indexes.stats().evictions - evictionsBefore,
    },
    warnings: [...new Set(logger.warnings)],
  }
  await engram.stop({ graceMs: 0 })
  await embedder.close?.()
  return result
}
