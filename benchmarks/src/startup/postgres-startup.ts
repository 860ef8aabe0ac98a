import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { postgresAdapter } from '@engram/adapter-postgres'
import { createEngine } from '@engram/core'
import {
  buildAndSaveIndexes,
  firstSearchTimings,
  timedFirstSearches,
  recordingLogger,
  sizeOf,
  startupBatch,
  STARTUP_BRAIN as BRAIN,
} from '../scale/measure-startup.js'
import { syntheticPassages, syntheticQueries } from '../scale/synthetic-corpus.js'
import { syntheticEmbedder } from '../scale/synthetic-vectors.js'
import {
  TAIL_COMMIT_PASSAGES,
  type PostgresSeed,
  type PostgresStart,
  type PostgresStartMode,
  type PostgresTailWrites,
} from './startup-postgres-result.js'

const SEED_BATCH = 1000

/**
 * One process's engine on the database `url`: with a local snapshot directory (`INDEX_SNAPSHOT_DIR`,
 * the adapter's `snapshotDir`) or without (`snapshotDir` undefined: every load rebuilds). The query
 * embedder is SYNTHETIC and instant; background saves are pushed out of the measured window.
 */
function engine(url: string, snapshotDir: string | undefined) {
  const logger = recordingLogger()
  const engram = createEngine({
    storage: postgresAdapter({
      connectionString: url,
      ...(snapshotDir === undefined ? {} : { snapshotDir }),
    }),
    version: 'bench',
    defaultBrain: BRAIN,
    logger,
    embedder: syntheticEmbedder(),
    snapshots: snapshotDir === undefined ? false : { idleMs: 3_600_000 },
  })
  return { engram, logger }
}

/**
 * First process: the first `seeded` of `total` startup-corpus passages (the scale curve's Zipf text, as
 * `--startup-large`) with their vectors committed, every index built from PostgreSQL, every snapshot
 * saved in `snapshotDir` (timed, with the event-loop stall), then a clean stop.
 */
export async function seedPostgresBrain(
  url: string,
  snapshotDir: string,
  seeded: number,
  total: number,
): Promise<PostgresSeed> {
  const load1 = loadavg()[0]!
  const { engram, logger } = engine(url, snapshotDir)
  await engram.start()
  const docs = syntheticPassages(total)
  const at = new Date().toISOString()
  const t0 = performance.now()
  for (let i = 0; i < seeded; i += SEED_BATCH)
    await engram.commit(BRAIN, startupBatch(docs, i, Math.min(i + SEED_BATCH, seeded), at))
  const t1 = performance.now()
  const built = await buildAndSaveIndexes(engram, BRAIN, logger)
  await engram.stop({ graceMs: 0 })
  return {
    passages: seeded,
    dimension: syntheticEmbedder().dimension,
    commitMs: t1 - t0,
    ...built,
    snapshotBytes: sizeOf(snapshotDir),
    load1,
  }
}

/**
 * Another process (no snapshot directory, its indexes never loaded) commits the passages `seeded`..`total`
 * of the corpus, `TAIL_COMMIT_PASSAGES` per commit: each commit one write-feed entry.
 */
export async function writePostgresTail(
  url: string,
  seeded: number,
  total: number,
): Promise<PostgresTailWrites> {
  const load1 = loadavg()[0]!
  const { engram } = engine(url, undefined)
  await engram.start()
  const docs = syntheticPassages(total)
  const at = new Date().toISOString()
  const t0 = performance.now()
  let commits = 0
  for (let i = seeded; i < total; i += TAIL_COMMIT_PASSAGES, commits++)
    await engram.commit(BRAIN, startupBatch(docs, i, Math.min(i + TAIL_COMMIT_PASSAGES, total), at))
  const ms = performance.now() - t0
  await engram.stop({ graceMs: 0 })
  return { commits, passages: total - seeded, ms, load1 }
}

/**
 * A new process: engine start, `engram.indexes.get`, the first hybrid search (BM25 + dense, rrf), timed
 * from process start; then the HNSW graph awaited and another search. `snapshotDir` undefined is the
 * rebuild. Checks where the indexes came from against `mode` (a start that silently rebuilt would
 * otherwise pass for a slow snapshot load). With `save`, the snapshots are saved after (untimed).
 */
export async function openPostgresBrain(
  url: string,
  snapshotDir: string | undefined,
  mode: PostgresStartMode,
  save = false,
): Promise<PostgresStart & { saveMs: number }> {
  const [query, later] = syntheticQueries(2).map((q) => q.text) as [string, string]
  const load1 = loadavg()[0]!
  const t0 = performance.now()
  const { engram, logger } = engine(url, snapshotDir)
  await engram.start()
  const t1 = performance.now()
  const searches = await timedFirstSearches(engram, BRAIN, query, later)
  const built = logger.records.find((r) => r.msg === 'brain indexes built')?.obj ?? {}
  const common = firstSearchTimings(t1, t0, searches)
  const snapshotLoadMs = Number(built.snapshotLoadMs ?? 0)
  const lexicalMs = Number(built.lexicalMs ?? 0)
  const vectorRebuildMs = Number(built.vectorRebuildMs ?? 0)
  const timing: PostgresStart = {
    mode,
    ...common,
    lexicalOrigin: String(built.lexicalOrigin ?? 'unknown'),
    feedReplayed: Number(built.feedReplayed ?? 0),
    snapshotLoadMs,
    lexicalMs,
    vectorRebuildMs,
    otherMs: Math.max(0, common.indexesMs - snapshotLoadMs - lexicalMs - vectorRebuildMs),
    load1,
  }
  if (timing.vectors !== timing.passages)
    throw new Error(`${timing.vectors} vectors for ${timing.passages} passages`)
  const from = mode === 'rebuild' ? 'storage' : 'snapshot'
  if (timing.vectorOrigin !== from || timing.lexicalOrigin !== from)
    throw new Error(
      `${mode} start: vector index from ${timing.vectorOrigin}, BM25 from ${timing.lexicalOrigin}`,
    )
  if ((mode === 'tail') !== timing.feedReplayed > 0)
    throw new Error(`${mode} start applied ${timing.feedReplayed} feed entries`)
  let saveMs = 0
  if (save) {
    const started = performance.now()
    await engram.indexes.saveSnapshots(BRAIN)
    saveMs = performance.now() - started
  }
  await engram.stop({ graceMs: 0 })
  return { ...timing, saveMs }
}
