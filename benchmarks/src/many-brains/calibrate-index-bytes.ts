import { setTimeout as sleep } from 'node:timers/promises'
import { createEngine, memoryAdapter, useLiteEmbedder } from '@engram/core'
import { cacheDir } from '../paths.js'
import { forceGc } from '../scale/scale-point.js'
import { vectorCacheDir } from '../vectors/bench-vectors.js'
import { vectorCacheName } from '../vectors/cached-embedder.js'
import { DiskVectorCache } from '../vectors/disk-vector-cache.js'
import { brainBatch, loadScifact, manyBrainsRequest } from './many-brains-corpus.js'

const MB = 2 ** 20

/** Brain sizes (passages) the estimate is checked at, and how many brains of each are built. */
export const CALIBRATION_SIZES = [50, 200, 1000, 5000] as const
export const calibrationBrains = (passages: number) =>
  Math.max(4, Math.min(40, Math.floor(20_000 / passages)))

export interface MemoryGrowth {
  /** Sum of `BrainIndexes.estimatedBytes()` of the brains loaded, MB. */
  readonly estimateMb: number
  /** Growth of `heapUsed + arrayBuffers` (what V8 accounts), MB. */
  readonly heapMb: number
  /** Growth of the resident set (hnswlib's native memory included), MB. */
  readonly rssMb: number
}

export interface CalibrationPoint {
  readonly passages: number
  readonly brains: number
  /** The first brains built in a fresh process. */
  readonly fresh: MemoryGrowth
  /**
   * As many other brains, each evicting one of the first (a budget of the first set's estimate): the
   * steady state of a process that has evicted before, where new indexes reuse freed memory.
   */
  readonly churned: MemoryGrowth
}

async function settled() {
  forceGc()
  // hnswlib's native memory is freed by finalizers, which run after the collection.
  await sleep(200)
  forceGc()
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage()
  return { rss, heap: heapUsed + arrayBuffers }
}

/**
 * One calibration point, in a fresh process: `brains` brains of `passages` SciFact documents with their
 * use-lite vectors in the memory adapter (so the store's memory is there before the first sample), each
 * built by the index manager and searched once, after a full collection on both sides.
 */
export async function calibrateIndexBytes(
  datasetsDir: string,
  passages: number,
): Promise<CalibrationPoint> {
  const brains = calibrationBrains(passages)
  const { docs, queries } = loadScifact(datasetsDir)
  const embedder = useLiteEmbedder()
  const cache = DiskVectorCache.open(
    vectorCacheDir(cacheDir),
    vectorCacheName(embedder),
    embedder.dimension,
  )
  const setup = async (budgetMb?: number) => {
    const engram = createEngine({
      storage: memoryAdapter(),
      version: 'bench',
      defaultBrain: null,
      ...(budgetMb === undefined ? {} : { indexMemoryMb: budgetMb }),
    })
    await engram.start()
    for (let i = 0; i < 2 * brains; i++) {
      await engram.brains.create(`c${i}`)
      await engram.commit(`c${i}`, brainBatch(docs, i % brains, passages, cache))
    }
    return engram
  }
  const load = async (engram: Awaited<ReturnType<typeof setup>>, from: number) => {
    for (let i = from; i < from + brains; i++)
      await engram.search.search(`c${i}`, manyBrainsRequest(queries[i % queries.length]!.text))
  }
  const estimateOf = (engram: Awaited<ReturnType<typeof setup>>) =>
    engram.indexes.stats().estimatedBytes / MB

  // The budget is the first set's estimate: each brain of the second set evicts one of the first.
  const probe = await setup()
  await load(probe, 0)
  const budgetMb = estimateOf(probe) * 1.001
  await probe.stop()

  const engram = await setup(budgetMb)
  const before = await settled()
  await load(engram, 0)
  const first = await settled()
  const fresh = {
    estimateMb: estimateOf(engram),
    heapMb: (first.heap - before.heap) / MB,
    rssMb: (first.rss - before.rss) / MB,
  }
  await load(engram, brains)
  const second = await settled()
  const churned = {
    estimateMb: estimateOf(engram),
    heapMb: (second.heap - before.heap) / MB,
    rssMb: (second.rss - before.rss) / MB,
  }
  await engram.stop()
  return { passages, brains, fresh, churned }
}
