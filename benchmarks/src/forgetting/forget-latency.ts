import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import { createEngine, INGEST_TEXT, type Engram, type WriteBatch } from '@engram/core'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'
import { docToPassage } from '../systems/engine-brain.js'
import { forceGc } from '../scale/scale-point.js'
import { syntheticPassages } from '../scale/synthetic-corpus.js'
import { fnv1a, syntheticEmbedder, syntheticUnitVector } from '../scale/synthetic-vectors.js'

const BRAIN = 'bench'
const SEED_BATCH = 1000
/** Untimed ingest-and-forget cycles first, so the forget path is JIT-compiled as in a server up a while. */
const WARMUP = 3

/** What the brain's indexes and the process hold at one moment (after a full GC). */
export interface MemoryReading {
  readonly passages: number
  readonly vectors: number
  /** `BrainIndexes.estimatedBytes()`: what the index memory budget counts. */
  readonly indexBytes: number
  /** `indexBytes` by component: the BM25 indexes (passages alone too), HNSW, graph, communities. */
  readonly parts: {
    readonly lexical: number
    readonly passagesBm25: number
    readonly dense: number
    readonly graph: number
    readonly communities: number
  }
  readonly rssMb: number
  readonly heapMb: number
}

/** One ingest-then-forget cycle of a one-passage source. */
export interface ForgetRun {
  /** `engram.sources.forget` until it returned (the task is stored). */
  readonly submitMs: number
  /**
   * From the forget call until the cascade's commit had been applied to the indexes (a commit
   * listener registered after the index manager's) and a search for the word then no longer returned
   * the passage. A search that still returned it would be repeated until it did not (`extraSearches`).
   */
  readonly unsearchableMs: number
  /** From the forget call until the cascade's commit had been applied to the indexes. */
  readonly committedMs: number
  /** Searches after the commit that still returned the passage (0 when the commit is the end of it). */
  readonly extraSearches: number
  /** From the forget call until the task settled: cascade, history redaction and the storage purge. */
  readonly taskMs: number
  /** Passages the task reported removed. */
  readonly passages: number
  readonly entities: number
}

export interface ForgetLatencyResult {
  readonly condition: 'none' | 'vectors'
  readonly size: number
  readonly seedMs: number
  readonly indexMs: number
  readonly load1: number
  readonly runs: readonly ForgetRun[]
  readonly unsearchable: LatencySummary
  readonly committed: LatencySummary
  readonly task: LatencySummary
  readonly submit: LatencySummary
  /** After the seed, before any cycle. */
  readonly before: MemoryReading
  /** After the timed cycles (each ingested one source and forgot it). */
  readonly afterCycles: MemoryReading
  /** `bulk` one-passage sources ingested on top. */
  readonly bulk: number
  readonly bulkIngested: MemoryReading
  /** ... and all forgotten. */
  readonly bulkForgotten: MemoryReading
  readonly bulkForgetMs: number
}

/** A word no synthetic passage has (those are syllables of `synthetic-corpus.ts`): `quixotrell` + letters of n. */
export function uniqueWord(n: number): string {
  let s = ''
  let x = n
  do {
    s += String.fromCharCode(97 + (x % 26))
    x = Math.floor(x / 26)
  } while (x > 0)
  return `quixotrell${s}`
}

/** The one-passage text of source n: one sentence around its word, short of a chunk. */
const sourceText = (n: number) =>
  `Dana keeps a note about the ${uniqueWord(n)} lantern she found in the attic last winter.`

function reading(indexes: Awaited<ReturnType<Engram['indexes']['get']>>): MemoryReading {
  forceGc()
  const memory = process.memoryUsage()
  return {
    passages: indexes.passages.size,
    vectors: indexes.vectors.get('passages')?.size ?? 0,
    indexBytes: indexes.estimatedBytes(),
    parts: {
      lexical: indexes.lexical.bytes(),
      passagesBm25: indexes.passages.bytes(),
      dense: indexes.dense.bytes?.() ?? 0,
      graph: indexes.graph.bytes(),
      communities: indexes.communities.bytes?.() ?? 0,
    },
    rssMb: memory.rss / 2 ** 20,
    heapMb: memory.heapUsed / 2 ** 20,
  }
}

/**
 * Forget latency in a large brain (issue 26, benchmark check), in process: `createEngine` on the
 * SQLite adapter in a fresh temp dir, `size` synthetic passages committed (`engram.commit`, and for
 * `vectors` a SYNTHETIC 512-d vector each and the synthetic embedder as the engine's), every index
 * built. Then `runs` times: a one-passage source carrying a unique word is ingested (an `ingest_text`
 * task with its `sourceId`, the local extractor, as the server runs it), found by search, and
 * forgotten (`engram.sources.forget`), timed to the moment search no longer returns it and to the
 * end of the task. Memory is read before, after the cycles, and around a bulk of `bulk` sources
 * ingested then forgotten.
 */
export async function measureForgetLatency(
  condition: 'none' | 'vectors',
  size: number,
  runs: number,
  bulk: number,
): Promise<ForgetLatencyResult> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-forget-bench-'))
  const vectors = condition === 'vectors'
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir: dir }),
    version: 'bench',
    defaultBrain: BRAIN,
    embedder: vectors ? syntheticEmbedder() : null,
    // Background snapshot saves are pushed out of the measured window.
    snapshots: { idleMs: 3_600_000 },
    maxPendingTasks: bulk + 10,
  })
  try {
    await engram.start()
    const load1 = loadavg()[0]!
    const docs = syntheticPassages(size)
    const now = new Date().toISOString()
    const t0 = performance.now()
    for (let i = 0; i < docs.length; i += SEED_BATCH) {
      const slice = docs.slice(i, i + SEED_BATCH)
      await engram.commit(BRAIN, {
        passages: slice.map((d, j) => docToPassage(d, i + j, now)),
        ...(vectors
          ? {
              vectors: slice.map((d) => ({
                space: 'passages',
                id: d.id,
                vector: syntheticUnitVector(fnv1a(d.id)),
              })),
            }
          : {}),
      })
    }
    const t1 = performance.now()
    const indexes = await engram.indexes.get(BRAIN)
    const indexMs = performance.now() - t1
    if (indexes.passages.size !== size)
      throw new Error(`${indexes.passages.size} passages indexed of ${size}`)

    // The cascade's commit, seen after the index manager applied it (listeners run in order).
    const deleted = new Map<string, () => void>()
    engram.onCommit((_brain, batch: WriteBatch) => {
      for (const id of batch.deletePassages ?? []) deleted.get(id)?.()
    })

    const ingest = async (n: number) => {
      const { task } = await engram.tasks.submit({
        brainId: BRAIN,
        kind: INGEST_TEXT,
        payload: {
          sourceId: `forget-${n}`,
          text: sourceText(n),
          json: null,
          metaKeys: {},
          observateFor: [],
          sourceTimestamp: now,
          skipEnrichment: false,
        },
      })
      return task.id
    }
    const passageOf = async (n: number) => {
      const store = await engram.store(BRAIN)
      const page = await store.passages.list({ sourceId: `forget-${n}`, limit: 10, skip: 0 })
      if (page.items.length !== 1)
        throw new Error(`source forget-${n} has ${page.items.length} passages, not 1`)
      return page.items[0]!.id
    }
    const returns = async (n: number, passageId: string) => {
      const response = await engram.search.search(BRAIN, { query: uniqueWord(n), k: 10 })
      return response.hits.some((h) => h.id === passageId)
    }

    const cycle = async (n: number): Promise<ForgetRun> => {
      const ingestTask = await ingest(n)
      const ingested = await engram.tasks.settled(BRAIN, ingestTask)
      if (ingested.status !== 'completed') throw new Error(`ingestion ${n}: ${ingested.status}`)
      const passageId = await passageOf(n)
      if (!(await returns(n, passageId))) throw new Error(`search does not find source ${n}`)
      const committed = new Promise<void>((resolve) => deleted.set(passageId, resolve))
      const start = performance.now()
      const { task } = await engram.sources.forget(BRAIN, `forget-${n}`)
      const submitted = performance.now()
      await committed
      const applied = performance.now()
      let extraSearches = 0
      while (await returns(n, passageId)) extraSearches++
      const gone = performance.now()
      const done = await engram.tasks.settled(BRAIN, task.id)
      const end = performance.now()
      deleted.delete(passageId)
      if (done.status !== 'completed') throw new Error(`forget ${n}: ${done.status} ${done.error}`)
      const result = done.result as { passages: number; entities: number }
      return {
        submitMs: submitted - start,
        unsearchableMs: gone - start,
        committedMs: applied - start,
        extraSearches,
        taskMs: end - start,
        passages: result.passages,
        entities: result.entities,
      }
    }

    for (let i = 0; i < WARMUP; i++) await cycle(1_000_000 + i)
    const before = reading(indexes)
    const timed: ForgetRun[] = []
    for (let i = 0; i < runs; i++) timed.push(await cycle(i))
    const afterCycles = reading(indexes)

    const bulkIds: number[] = Array.from({ length: bulk }, (_, i) => 2_000_000 + i)
    const ingestTasks = []
    for (const n of bulkIds) ingestTasks.push(await ingest(n))
    for (const id of ingestTasks) await engram.tasks.settled(BRAIN, id)
    const bulkIngested = reading(indexes)
    const b0 = performance.now()
    const forgets = []
    for (const n of bulkIds)
      forgets.push((await engram.sources.forget(BRAIN, `forget-${n}`)).task.id)
    for (const id of forgets) await engram.tasks.settled(BRAIN, id)
    const bulkForgetMs = performance.now() - b0
    const bulkForgotten = reading(indexes)

    return {
      condition,
      size,
      seedMs: t1 - t0,
      indexMs,
      load1,
      runs: timed,
      unsearchable: summarizeLatency(timed.map((r) => r.unsearchableMs)),
      committed: summarizeLatency(timed.map((r) => r.committedMs)),
      task: summarizeLatency(timed.map((r) => r.taskMs)),
      submit: summarizeLatency(timed.map((r) => r.submitMs)),
      before,
      afterCycles,
      bulk,
      bulkIngested,
      bulkForgotten,
      bulkForgetMs,
    }
  } finally {
    await engram.stop({ graceMs: 0 })
    rmSync(dir, { recursive: true, force: true })
  }
}
