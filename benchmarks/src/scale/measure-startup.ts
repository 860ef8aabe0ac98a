import { readdirSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { createEngram, createSearchService } from '@engram/core'
import { docToPassage } from '../systems/engine-brain.js'
import { syntheticPassages, syntheticQueries } from './synthetic-corpus.js'

export const STARTUP_BRAIN = 'bench'
const SEED_BATCH = 1000

export interface StartupSeed {
  readonly passages: number
  readonly commitMs: number
  readonly bytesOnDisk: number
}

export interface StartupTiming {
  readonly passages: number
  /** `createEngram(...)` + `engram.start()` (opens SQLite, ensures the brain, resumes tasks). */
  readonly engineStartMs: number
  /** `search.indexes(brainId)`: every index rebuilt from the adapter. */
  readonly indexesMs: number
  /** The first `search.search` after the indexes exist. */
  readonly firstSearchMs: number
  /** Engine start until the first search returned: the time to searchable after a restart. */
  readonly searchableMs: number
  /** The same end point measured from process start (includes Node, tsx and module loading). */
  readonly sinceProcessStartMs: number
  readonly rssMb: number
  readonly firstSearchHits: number
  /** 1-minute load average when the restarted engine began. */
  readonly load1: number
}

export interface StartupResult {
  readonly seed: StartupSeed
  readonly open: StartupTiming
}

function engine(dataDir: string) {
  return createEngram({
    storage: sqliteAdapter({ dataDir }),
    version: 'bench',
    defaultBrain: STARTUP_BRAIN,
  })
}

function sizeOf(dir: string): number {
  let bytes = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    bytes += entry.isDirectory() ? sizeOf(path) : statSync(path).size
  }
  return bytes
}

/** First life of the brain: `size` synthetic passages committed through the engine to SQLite, then a clean stop. */
export async function seedStartupBrain(dataDir: string, size: number): Promise<StartupSeed> {
  const engram = engine(dataDir)
  await engram.start()
  const docs = syntheticPassages(size)
  const now = new Date().toISOString()
  const t0 = performance.now()
  for (let i = 0; i < docs.length; i += SEED_BATCH) {
    const passages = docs.slice(i, i + SEED_BATCH).map((d, j) => docToPassage(d, i + j, now))
    await engram.commit(STARTUP_BRAIN, { passages })
  }
  const commitMs = performance.now() - t0
  await engram.stop({ graceMs: 0 })
  return { passages: size, commitMs, bytesOnDisk: sizeOf(dataDir) }
}

/**
 * After the restart (a new process): a new engine on the same data dir, timed until the first successful
 * search. This is issue 4's start-up figure: indexes are rebuilt from the adapter (no snapshots for BM25).
 */
export async function openStartupBrain(dataDir: string): Promise<StartupTiming> {
  const query = syntheticQueries(1)[0]!.text
  const load1 = loadavg()[0]!
  const t0 = performance.now()
  const engram = engine(dataDir)
  await engram.start()
  const t1 = performance.now()
  const search = createSearchService(engram)
  const indexes = await search.indexes(STARTUP_BRAIN)
  const t2 = performance.now()
  const response = await search.search(STARTUP_BRAIN, {
    query,
    k: 10,
    channels: ['passages'],
    expand: 'none',
    fusion: 'rrf',
    rerank: 'none',
    profileStages: false,
  })
  const t3 = performance.now()
  if (response.hits.length === 0) throw new Error(`first search for '${query}' found nothing`)
  const timing = {
    passages: indexes.passages.size,
    engineStartMs: t1 - t0,
    indexesMs: t2 - t1,
    firstSearchMs: t3 - t2,
    searchableMs: t3 - t0,
    sinceProcessStartMs: t3,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    firstSearchHits: response.hits.length,
    load1,
  }
  await engram.stop({ graceMs: 0 })
  return timing
}
