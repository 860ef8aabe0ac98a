import { existsSync, readdirSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { createEngine, type Engram, type Logger } from '@engram/core'
import { docToPassage } from '../systems/engine-brain.js'
import { syntheticPassages, syntheticQueries } from './synthetic-corpus.js'
import { fnv1a, syntheticEmbedder, syntheticUnitVector } from './synthetic-vectors.js'

export const STARTUP_BRAIN = 'bench'
/** The brain meta key naming its valid snapshots (`SNAPSHOT_META` in core's `indexes/snapshot-meta.ts`). */
const SNAPSHOT_META = 'index.snapshots'
const SEED_BATCH = 1000

/**
 * How a restarted engine gets its indexes: `snapshot` loads every snapshot (vector and lexical);
 * `vectors-only` loads the vector snapshot and rebuilds BM25 and the entity attributes from SQLite (every
 * start before lexical snapshots, issue 29); `rebuild` (snapshots off) rebuilds everything.
 */
export type StartupMode = 'snapshot' | 'vectors-only' | 'rebuild'
export const STARTUP_MODES: readonly StartupMode[] = ['snapshot', 'vectors-only', 'rebuild']

export interface StartupSeed {
  readonly passages: number
  /** Dimension of the SYNTHETIC vector of every passage (USE-lite's). */
  readonly dimension: number
  /** Passages and their vectors committed through `engram.commit` to SQLite. */
  readonly commitMs: number
  /** First life: every index built from SQLite (BM25 + HNSW inserts), as a restart without snapshot does. */
  readonly indexMs: number
  readonly save: SnapshotSave
  /** The lexical snapshot's part of the save (written and synced in one go). */
  readonly lexicalSave: { readonly writeMs: number; readonly syncMs: number }
  readonly sqliteBytes: number
  readonly snapshotBytes: number
  /** Of `snapshotBytes`: the lexical snapshot's file. */
  readonly lexicalSnapshotBytes: number
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
  /** Where the BM25 indexes came from (the engine's own account): `snapshot` or `storage`. */
  readonly lexicalOrigin: string
  /** `createEngine(...)` + `engram.start()` (opens SQLite, ensures the brain, resumes tasks). */
  readonly engineStartMs: number
  /** `engram.indexes.get(brainId)`: snapshots loaded (if any), the rest rebuilt from the adapter. */
  readonly indexesMs: number
  /** Parts of `indexesMs`, from the engine's `brain indexes built` log line. */
  readonly snapshotLoadMs: number
  /** Of `snapshotLoadMs`: reading the lexical snapshot (0 when there was none). */
  readonly lexicalLoadMs: number
  readonly lexicalMs: number
  readonly vectorRebuildMs: number
  /**
   * Longest time the event loop did not turn from engine start until the HNSW graph was in (index
   * build, first search, graph read in the background): what `/health` would wait.
   */
  readonly indexesMaxStallMs: number
  /** The first hybrid search (BM25 + dense, rrf) after the indexes exist. */
  readonly firstSearchMs: number
  /** The passages index had its HNSW graph at the first search (false: the dense part was exact). */
  readonly graphAtFirstSearch: boolean
  /** Engine start until the passages HNSW graph was in (read in the background from a snapshot). */
  readonly graphReadyMs: number
  /** The same search again once the graph is in (the dense part through HNSW). */
  readonly graphSearchMs: number
  /** Engine start until the first search returned: the time to searchable after a restart. */
  readonly searchableMs: number
  /** The same end point measured from process start (includes Node, tsx and module loading). */
  readonly sinceProcessStartMs: number
  /** How the process ran: built JavaScript under node (as `npm start`), or tsx from the sources. */
  readonly runtime: 'node' | 'tsx'
  /** CPU time (user + system, every thread) of the process from its start until searchable. */
  readonly cpuMs: number
  readonly rssMb: number
  readonly firstSearchHits: number
  /** 1-minute load average when the restarted engine began. */
  readonly load1: number
}

/** The engine's log records, kept to read its own timings (snapshot write, index build). */
export function recordingLogger(): Logger & {
  records: { msg: string; obj: Record<string, unknown> }[]
} {
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

export function sizeOf(path: string): number {
  if (!existsSync(path)) return 0
  if (!statSync(path).isDirectory()) return statSync(path).size
  let bytes = 0
  for (const entry of readdirSync(path)) bytes += sizeOf(join(path, entry))
  return bytes
}

/** Longest gap between ticks of a 1 ms interval while `work` runs: how long requests would wait. */
export async function maxStall<T>(
  work: () => Promise<T>,
): Promise<{ result: T; maxStallMs: number }> {
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

/** Passages `from`..`to` of the startup corpus (`syntheticPassages`), each with its SYNTHETIC vector. */
export function startupBatch(
  docs: ReturnType<typeof syntheticPassages>,
  from: number,
  to: number,
  at: string,
) {
  const slice = docs.slice(from, to)
  return {
    passages: slice.map((d, j) => docToPassage(d, from + j, at)),
    vectors: slice.map((d) => ({
      space: 'passages',
      id: d.id,
      vector: syntheticUnitVector(fnv1a(d.id)),
    })),
  }
}

/**
 * The seeding process's build of every index from storage (the HNSW inserts a rebuild repeats), then
 * its snapshot save, timed with the event-loop stall it causes, read back from the engine's log.
 */
export async function buildAndSaveIndexes(
  engram: Engram,
  brainId: string,
  logger: ReturnType<typeof recordingLogger>,
): Promise<Pick<StartupSeed, 'indexMs' | 'save' | 'lexicalSave'>> {
  const t1 = performance.now()
  await engram.indexes.get(brainId)
  const t2 = performance.now()
  const { maxStallMs } = await maxStall(() => engram.indexes.saveSnapshots(brainId))
  const t3 = performance.now()
  const saved = logger.records.find((r) => r.msg === 'vector snapshot saved')
  const lexical = logger.records.find((r) => r.msg === 'lexical snapshot saved')
  if (saved === undefined || lexical === undefined)
    throw new Error(`no vector or lexical snapshot saved: ${JSON.stringify(logger.records)}`)
  return {
    indexMs: t2 - t1,
    save: {
      ms: t3 - t2,
      writeMs: Number(saved.obj.writeMs),
      syncMs: Number(saved.obj.syncMs),
      maxStallMs,
    },
    lexicalSave: { writeMs: Number(lexical.obj.writeMs), syncMs: Number(lexical.obj.syncMs) },
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
  for (let i = 0; i < docs.length; i += SEED_BATCH)
    await engram.commit(STARTUP_BRAIN, startupBatch(docs, i, i + SEED_BATCH, now))
  const t1 = performance.now()
  const built = await buildAndSaveIndexes(engram, STARTUP_BRAIN, logger)
  await engram.stop({ graceMs: 0 })
  const brains = join(dataDir, 'brains')
  return {
    passages: size,
    dimension: syntheticEmbedder().dimension,
    commitMs: t1 - t0,
    ...built,
    sqliteBytes:
      sizeOf(join(brains, `${STARTUP_BRAIN}.sqlite`)) + sizeOf(join(dataDir, 'catalog.sqlite')),
    snapshotBytes: sizeOf(join(brains, `${STARTUP_BRAIN}.indexes`)),
    lexicalSnapshotBytes: readdirSync(join(brains, `${STARTUP_BRAIN}.indexes`))
      .filter((name) => name.startsWith('lexical-'))
      .reduce((sum, name) => sum + sizeOf(join(brains, `${STARTUP_BRAIN}.indexes`, name)), 0),
    load1,
  }
}

/**
 * Drops the lexical snapshot from the brain's snapshot meta (its files are removed by the next save),
 * for a `vectors-only` start; that start saves a new one at stop, for the next `snapshot` start.
 */
async function forgetLexicalSnapshot(dataDir: string): Promise<void> {
  const storage = sqliteAdapter({ dataDir })
  await storage.open()
  try {
    const store = await storage.brain(STARTUP_BRAIN)
    const raw = await store.meta.get(SNAPSHOT_META)
    if (raw === null) throw new Error('the seeded brain has no snapshot meta')
    const { lexical: _, ...rest } = JSON.parse(raw) as Record<string, unknown>
    await store.meta.set(SNAPSHOT_META, JSON.stringify(rest))
  } finally {
    await storage.close()
  }
}

/** What `timedFirstSearches` measured; times are `performance.now()` readings. */
export interface FirstSearches {
  indexes: Awaited<ReturnType<Engram['indexes']['get']>>
  /** The indexes were built or loaded. */
  t2: number
  /** The first search answered. */
  t3: number
  /** The passages' HNSW graph was in (read in the background from a snapshot, or built). */
  t4: number
  graphAtFirstSearch: boolean
  /** Process CPU and RSS when the first search answered. */
  cpu: NodeJS.CpuUsage
  rss: number
  /** Longest event-loop stall from the indexes' build until the graph was in. */
  maxStallMs: number
  /** The second query's search, once the graph is in. */
  graphSearchMs: number
  /** Hits of the first search. */
  hits: number
}

/**
 * The timing fields every start-up measure derives from its first searches (`timedFirstSearches`),
 * `t0` being the engine's start and `t1` the end of `engram.start()`: what the indexes hold, how long
 * until searchable, the stall, CPU and memory then.
 */
export function firstSearchTimings(t1: number, t0: number, f: FirstSearches) {
  return {
    passages: f.indexes.passages.size,
    vectors: f.indexes.vectors.get('passages')?.size ?? 0,
    vectorOrigin: f.indexes.vectorOrigin.get('passages') ?? 'none',
    engineStartMs: t1 - t0,
    indexesMs: f.t2 - t1,
    indexesMaxStallMs: f.maxStallMs,
    firstSearchMs: f.t3 - f.t2,
    graphAtFirstSearch: f.graphAtFirstSearch,
    graphReadyMs: f.t4 - t0,
    graphSearchMs: f.graphSearchMs,
    searchableMs: f.t3 - t0,
    sinceProcessStartMs: f.t3,
    cpuMs: (f.cpu.user + f.cpu.system) / 1000,
    rssMb: f.rss / 2 ** 20,
    firstSearchHits: f.hits,
  }
}

/**
 * A restarted engine's indexes, its first hybrid search (BM25 + dense over passages, rrf, k = 10; the
 * time to searchable), then, once the passages' HNSW graph is in, a search for `later` (not one a
 * cache could answer). Both must find something.
 */
export async function timedFirstSearches(
  engram: Engram,
  brainId: string,
  query: string,
  later: string,
): Promise<FirstSearches> {
  const search = (text: string) =>
    engram.search.search(brainId, {
      query: text,
      k: 10,
      channels: ['passages'],
      expand: 'none',
      fusion: 'rrf',
      rerank: 'none',
      profileStages: false,
    })
  let t2 = 0
  let t3 = 0
  let t4 = 0
  let graphAtFirstSearch = false
  let cpu = process.cpuUsage()
  let rss = 0
  const { result, maxStallMs } = await maxStall(async () => {
    const indexes = await engram.indexes.get(brainId)
    t2 = performance.now()
    const passages = indexes.vectors.get('passages')
    graphAtFirstSearch = passages?.graphLoaded ?? false
    const response = await search(query)
    t3 = performance.now()
    cpu = process.cpuUsage()
    rss = process.memoryUsage().rss
    // The first search answered; the graph is read meanwhile (a snapshot start) or was built.
    await passages?.graphReady
    t4 = performance.now()
    return { indexes, response }
  })
  const { indexes, response } = result
  if (response.hits.length === 0) throw new Error(`first search for '${query}' found nothing`)
  const t5 = performance.now()
  const again = await search(later)
  const graphSearchMs = performance.now() - t5
  if (again.hits.length === 0)
    throw new Error(`search for '${later}' through the graph found nothing`)
  return {
    indexes,
    t2,
    t3,
    t4,
    graphAtFirstSearch,
    cpu,
    rss,
    maxStallMs,
    graphSearchMs,
    hits: response.hits.length,
  }
}

/**
 * After the restart (a new process): a new engine on the same data dir, timed until the first successful
 * hybrid search. `snapshot` loads the vector and lexical indexes saved before; `vectors-only` loads the
 * vector index and rebuilds BM25 from SQLite; `rebuild` (snapshots off) re-inserts every vector and
 * rebuilds BM25, as every start did before snapshots.
 */
export async function openStartupBrain(dataDir: string, mode: StartupMode): Promise<StartupTiming> {
  // A second query for the search once the graph is in (not one a cache could answer).
  const [query, later] = syntheticQueries(2).map((q) => q.text) as [string, string]
  if (mode === 'vectors-only') await forgetLexicalSnapshot(dataDir)
  const load1 = loadavg()[0]!
  const t0 = performance.now()
  const { engram, logger } = engine(dataDir, mode)
  await engram.start()
  const t1 = performance.now()
  const searches = await timedFirstSearches(engram, STARTUP_BRAIN, query, later)
  const built = logger.records.find((r) => r.msg === 'brain indexes built')?.obj ?? {}
  const lexicalLoad = logger.records.find((r) => r.msg === 'lexical index loaded from snapshot')
  const timing: StartupTiming = {
    mode,
    ...firstSearchTimings(t1, t0, searches),
    lexicalOrigin: String(built.lexicalOrigin ?? 'unknown'),
    snapshotLoadMs: Number(built.snapshotLoadMs ?? 0),
    lexicalLoadMs: Number(lexicalLoad?.obj.ms ?? 0),
    lexicalMs: Number(built.lexicalMs ?? 0),
    vectorRebuildMs: Number(built.vectorRebuildMs ?? 0),
    runtime: process.execArgv.some((arg) => arg.includes('tsx')) ? 'tsx' : 'node',
    load1,
  }
  if (timing.vectors !== timing.passages)
    throw new Error(`${timing.vectors} vectors for ${timing.passages} passages`)
  const vectorsFrom = mode === 'rebuild' ? 'storage' : 'snapshot'
  const lexicalFrom = mode === 'snapshot' ? 'snapshot' : 'storage'
  if (timing.vectorOrigin !== vectorsFrom || timing.lexicalOrigin !== lexicalFrom)
    throw new Error(
      `${mode} start: vector index from ${timing.vectorOrigin}, BM25 from ${timing.lexicalOrigin}`,
    )
  await engram.stop({ graceMs: 0 })
  return timing
}
