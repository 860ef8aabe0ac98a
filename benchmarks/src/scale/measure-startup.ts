import { existsSync, readdirSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { createEngine, type Logger } from '@engram/core'
import { docToPassage } from '../systems/engine-brain.js'
import { syntheticPassages, syntheticQueries } from './synthetic-corpus.js'
import { fnv1a, syntheticEmbedder, syntheticUnitVector } from './synthetic-vectors.js'

export const STARTUP_BRAIN = 'bench'
const SEED_BATCH = 1000

/** How a restarted engine gets its vector indexes. */
export type StartupMode = 'snapshot' | 'rebuild'

export interface StartupSeed {
  readonly passages: number
  /** Dimension of the SYNTHETIC vector of every passage (USE-lite's). */
  readonly dimension: number
  /** Passages and their vectors committed through `engram.commit` to SQLite. */
  readonly commitMs: number
  /** First life: every index built from SQLite (BM25 + HNSW inserts), as a restart without snapshot does. */
  readonly indexMs: number
  readonly save: SnapshotSave
  readonly sqliteBytes: number
  readonly snapshotBytes: number
  readonly load1: number
}

/** `engram.indexes.saveSnapshots(brain)` of the seeded brain: what a background or shutdown save costs. */
export interface SnapshotSave {
  readonly ms: number
  /** hnswlib `writeIndex` + the flat vectors + ids: writes to the brain wait this long. */
  readonly writeMs: number
  /** fsync of the files and the directory (writes no longer wait). */
  readonly syncMs: number
  /** Longest time the event loop did not turn during the save (1 ms ticker). */
  readonly maxStallMs: number
}

export interface StartupTiming {
  readonly mode: StartupMode
  readonly passages: number
  readonly vectors: number
  /** Where the passages vector index came from (the engine's own account). */
  readonly vectorOrigin: string
  /** `createEngine(...)` + `engram.start()` (opens SQLite, ensures the brain, resumes tasks). */
  readonly engineStartMs: number
  /** `engram.indexes.get(brainId)`: snapshots loaded (if any), the rest rebuilt from the adapter. */
  readonly indexesMs: number
  /** Parts of `indexesMs`, from the engine's `brain indexes built` log line. */
  readonly snapshotLoadMs: number
  readonly lexicalMs: number
  readonly vectorRebuildMs: number
  /** Longest time the event loop did not turn while the indexes were built (what `/health` would wait). */
  readonly indexesMaxStallMs: number
  /** The first hybrid search (BM25 + dense, rrf) after the indexes exist. */
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
  /** The median (by time to searchable) of `snapshotRuns`. */
  readonly snapshot: StartupTiming
  /** Every start with the snapshot: they take seconds, so they are repeated to show the spread. */
  readonly snapshotRuns: readonly StartupTiming[]
  readonly rebuild: StartupTiming
}

/** The engine's log records, kept to read its own timings (snapshot write, index build). */
function recordingLogger(): Logger & { records: { msg: string; obj: Record<string, unknown> }[] } {
  const records: { msg: string; obj: Record<string, unknown> }[] = []
  const keep = (obj: object, msg?: string) =>
    records.push({ msg: msg ?? '', obj: obj as Record<string, unknown> })
  return { records, debug: keep, info: keep, warn: keep, error: keep }
}

function engine(dataDir: string, mode: StartupMode) {
  const logger = recordingLogger()
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir }),
    version: 'bench',
    defaultBrain: STARTUP_BRAIN,
    logger,
    // The query embedder is SYNTHETIC and instant: the first search times retrieval, not embedding.
    embedder: syntheticEmbedder(),
    // Background saves are pushed out of the measured window; the seed saves explicitly.
    snapshots: mode === 'rebuild' ? false : { idleMs: 3_600_000 },
  })
  return { engram, logger }
}

function sizeOf(path: string): number {
  if (!existsSync(path)) return 0
  if (!statSync(path).isDirectory()) return statSync(path).size
  let bytes = 0
  for (const entry of readdirSync(path)) bytes += sizeOf(join(path, entry))
  return bytes
}

/** Longest gap between ticks of a 1 ms interval while `work` runs: how long requests would wait. */
async function maxStall<T>(work: () => Promise<T>): Promise<{ result: T; maxStallMs: number }> {
  let last = performance.now()
  let max = 0
  const ticker = setInterval(() => {
    const now = performance.now()
    max = Math.max(max, now - last)
    last = now
  }, 1)
  try {
    const result = await work()
    max = Math.max(max, performance.now() - last)
    return { result, maxStallMs: max }
  } finally {
    clearInterval(ticker)
  }
}

/**
 * First life of the brain: `size` synthetic passages, each with a SYNTHETIC 512-d unit vector,
 * committed through `engram.commit` to SQLite; then every index built (the HNSW inserts a rebuild
 * repeats), the vector snapshot saved (timed, with the event-loop stall it causes), and a clean stop.
 */
export async function seedStartupBrain(dataDir: string, size: number): Promise<StartupSeed> {
  const load1 = loadavg()[0]!
  const { engram, logger } = engine(dataDir, 'snapshot')
  await engram.start()
  const docs = syntheticPassages(size)
  const now = new Date().toISOString()
  const t0 = performance.now()
  for (let i = 0; i < docs.length; i += SEED_BATCH) {
    const slice = docs.slice(i, i + SEED_BATCH)
    await engram.commit(STARTUP_BRAIN, {
      passages: slice.map((d, j) => docToPassage(d, i + j, now)),
      vectors: slice.map((d) => ({
        space: 'passages',
        id: d.id,
        vector: syntheticUnitVector(fnv1a(d.id)),
      })),
    })
  }
  const t1 = performance.now()
  await engram.indexes.get(STARTUP_BRAIN)
  const t2 = performance.now()
  const { maxStallMs } = await maxStall(() => engram.indexes.saveSnapshots(STARTUP_BRAIN))
  const t3 = performance.now()
  const saved = logger.records.find((r) => r.msg === 'vector snapshot saved')
  if (saved === undefined)
    throw new Error(`no vector snapshot saved: ${JSON.stringify(logger.records)}`)
  await engram.stop({ graceMs: 0 })
  const brains = join(dataDir, 'brains')
  return {
    passages: size,
    dimension: syntheticEmbedder().dimension,
    commitMs: t1 - t0,
    indexMs: t2 - t1,
    save: {
      ms: t3 - t2,
      writeMs: Number(saved.obj.writeMs),
      syncMs: Number(saved.obj.syncMs),
      maxStallMs,
    },
    sqliteBytes:
      sizeOf(join(brains, `${STARTUP_BRAIN}.sqlite`)) + sizeOf(join(dataDir, 'catalog.sqlite')),
    snapshotBytes: sizeOf(join(brains, `${STARTUP_BRAIN}.indexes`)),
    load1,
  }
}

/**
 * After the restart (a new process): a new engine on the same data dir, timed until the first successful
 * hybrid search. `snapshot` loads the vector index saved by the seed; `rebuild` (snapshots off)
 * re-inserts every vector from SQLite, as every start did before snapshots. BM25 is rebuilt in both.
 */
export async function openStartupBrain(dataDir: string, mode: StartupMode): Promise<StartupTiming> {
  const query = syntheticQueries(1)[0]!.text
  const load1 = loadavg()[0]!
  const t0 = performance.now()
  const { engram, logger } = engine(dataDir, mode)
  await engram.start()
  const t1 = performance.now()
  const { result: indexes, maxStallMs } = await maxStall(() => engram.indexes.get(STARTUP_BRAIN))
  const t2 = performance.now()
  const response = await engram.search.search(STARTUP_BRAIN, {
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
  const built = logger.records.find((r) => r.msg === 'brain indexes built')?.obj ?? {}
  const timing: StartupTiming = {
    mode,
    passages: indexes.passages.size,
    vectors: indexes.vectors.get('passages')?.size ?? 0,
    vectorOrigin: indexes.vectorOrigin.get('passages') ?? 'none',
    engineStartMs: t1 - t0,
    indexesMs: t2 - t1,
    snapshotLoadMs: Number(built.snapshotLoadMs ?? 0),
    lexicalMs: Number(built.lexicalMs ?? 0),
    vectorRebuildMs: Number(built.vectorRebuildMs ?? 0),
    indexesMaxStallMs: maxStallMs,
    firstSearchMs: t3 - t2,
    searchableMs: t3 - t0,
    sinceProcessStartMs: t3,
    rssMb: process.memoryUsage().rss / 2 ** 20,
    firstSearchHits: response.hits.length,
    load1,
  }
  if (timing.vectors !== indexes.passages.size)
    throw new Error(`${timing.vectors} vectors for ${indexes.passages.size} passages`)
  const expected = mode === 'snapshot' ? 'snapshot' : 'storage'
  if (timing.vectorOrigin !== expected)
    throw new Error(`${mode} start: vector index came from ${timing.vectorOrigin}`)
  await engram.stop({ graceMs: 0 })
  return timing
}
