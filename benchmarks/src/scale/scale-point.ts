import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'
import { unavailableVectors } from '../vectors/bench-vectors.js'
import { resolveScaleSystem } from './scale-systems.js'
import { syntheticPassages, syntheticQueries } from './synthetic-corpus.js'

export const SCALE_QUERIES = 200
/** Each query is timed this many times (rounds over the whole set), for steadier tails. */
export const SCALE_ROUNDS = 3
const WARMUP_QUERIES = 20

export interface ScalePoint {
  readonly system: string
  readonly label: string
  readonly size: number
  readonly buildMs: number
  /** Resident set growth across the build, after a full GC on both sides (native memory included). */
  readonly rssMb: number
  /** JS heap growth across the build, after a full GC on both sides. */
  readonly heapMb: number
  readonly latency: LatencySummary
  /** 1-minute load average when the point started (above the core count, others competed for the CPU). */
  readonly load1: number
}

/** A full garbage collection (V8's `gc()`, exposed at run time so the child needs no node flag). */
export function forceGc(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

/**
 * One point of the scale curve, meant to run in a fresh process (scale-main.ts): synthetic passages are
 * generated first, then memory is sampled, the system indexes them (timed), memory is sampled again, and
 * 200 synthetic queries are timed one by one at k = 10, in 3 rounds, after 20 untimed ones.
 */
export async function measureScalePoint(systemName: string, size: number): Promise<ScalePoint> {
  const resolution = resolveScaleSystem(systemName)
  if (!resolution.ready) throw new Error(`${systemName} is pending: ${resolution.missing}`)
  const load1 = loadavg()[0]!
  const docs = syntheticPassages(size)
  const queries = syntheticQueries(SCALE_QUERIES)
  forceGc()
  const before = process.memoryUsage()
  const system = await resolution.create({
    vectors: unavailableVectors('the scale curve indexes synthetic text'),
  })
  const t0 = performance.now()
  await system.index(docs)
  const buildMs = performance.now() - t0
  forceGc()
  const after = process.memoryUsage()
  if (system.stats().documents !== size)
    throw new Error(`${systemName} indexed ${system.stats().documents} of ${size} passages`)
  for (const q of queries.slice(0, WARMUP_QUERIES)) await system.search(q.text, 10)
  const samples: number[] = []
  for (let round = 0; round < SCALE_ROUNDS; round++) {
    for (const q of queries) {
      const s = performance.now()
      await system.search(q.text, 10)
      samples.push(performance.now() - s)
    }
  }
  await system.close?.()
  return {
    system: systemName,
    label: system.label,
    size,
    buildMs,
    rssMb: (after.rss - before.rss) / 2 ** 20,
    heapMb: (after.heapUsed - before.heapUsed) / 2 ** 20,
    latency: summarizeLatency(samples),
    load1,
  }
}
