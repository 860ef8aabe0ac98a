import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sqliteAdapter } from '@engram/adapter-sqlite'
import {
  createEngine,
  createRetrieveDeps,
  INGEST_STRUCTURED,
  type Engram,
  type GraphIndex,
  type RetrieveDeps,
  type StructuredItem,
} from '@engram/core'
import type { LeaveLastOutSplit, MovieLens, Rating } from '../loaders/movielens.js'
import { movieLensGraph, userUuid } from './movielens-graph.js'

const BRAIN = 'movielens'
/** Tasks submitted before waiting for the queue to drain (the queue answers 503 past its capacity). */
const WAVE = 200

/** One split of MovieLens ingested in process, ready to serve `recommend` calls. */
export interface EngramMovieLens {
  readonly engram: Engram
  readonly brain: string
  readonly graph: GraphIndex
  readonly tasks: number
  readonly entities: number
  readonly relationships: number
  readonly ingestMs: number
  readonly indexMs: number
  /** The request dependencies for a user, the clock at their last training rating. */
  deps(userId: number): Promise<RetrieveDeps>
  /** The user's node number. */
  userNode(userId: number): number | undefined
  /** The movie id of a node, undefined for anything else. */
  movieOf(node: number): number | undefined
  /** Stops the engine and removes its temporary directory. */
  close(): Promise<void>
}

/**
 * Ingests a split's training ratings (and the catalogue) through the engine as an event graph
 * (`movieLensGraph`: structured ingestion, deterministic) into SQLite in a temporary directory, then
 * builds the BM25 and graph indexes. `heldOut` lists every held-out map whose (user, movie) tags must
 * stay out of the graph (the split's own test map is always one).
 */
export async function ingestMovieLens(
  data: MovieLens,
  split: LeaveLastOutSplit,
  heldOut: readonly ReadonlyMap<number, Rating>[] = [],
): Promise<EngramMovieLens> {
  const graphTasks = movieLensGraph(data, split, heldOut)
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-movielens-'))
  const engram = createEngine({
    storage: sqliteAdapter({ dataDir: dir }),
    version: 'bench',
    defaultBrain: BRAIN,
  })
  const close = async () => {
    await engram.stop({ graceMs: 100 })
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await engram.start()
    const t0 = performance.now()
    const tasks = [...graphTasks.catalogTasks, ...graphTasks.ratingTasks]
    const ids: string[] = []
    for (let i = 0; i < tasks.length; i += WAVE) {
      for (const items of tasks.slice(i, i + WAVE)) ids.push(await submit(engram, items))
      await engram.tasks.idle()
    }
    const ingestMs = performance.now() - t0
    const failed: string[] = []
    for (const id of ids) {
      const task = await engram.tasks.get(BRAIN, id)
      if (task?.status !== 'completed') failed.push(`${id}: ${task?.status}`)
    }
    if (failed.length > 0) throw new Error(`ingestion failed: ${failed.slice(0, 3).join('; ')}`)
    const store = await engram.store(BRAIN)
    const stats = await store.stats()

    const t1 = performance.now()
    const indexes = await engram.indexes.get(BRAIN)
    const graph = await indexes.graph.get(store)
    const indexMs = performance.now() - t1

    const lastTrain = new Map<number, number>()
    for (const r of split.train)
      if (Number.isFinite(r.timestamp))
        lastTrain.set(r.userId, Math.max(lastTrain.get(r.userId) ?? 0, r.timestamp))
    const movieOfNode = new Map<number, number>()
    for (const [uuid, movie] of graphTasks.movieOfUuid) {
      const node = graph.node(uuid)
      if (node !== undefined) movieOfNode.set(node, movie)
    }
    return {
      engram,
      brain: BRAIN,
      graph,
      tasks: tasks.length,
      entities: stats.entities,
      relationships: stats.relationships,
      ingestMs,
      indexMs,
      deps: (userId) =>
        createRetrieveDeps(engram, BRAIN, {
          now: () => new Date(lastTrain.get(userId)! * 1000),
        }),
      userNode: (userId) => graph.node(userUuid(userId)),
      movieOf: (node) => movieOfNode.get(node),
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

async function submit(engram: Engram, items: StructuredItem[]): Promise<string> {
  const { task } = await engram.tasks.submit({
    brainId: BRAIN,
    kind: INGEST_STRUCTURED,
    payload: {
      items,
      anchor: null,
      text: null,
      mode: 'deterministic',
      sourceTimestamp: new Date(0).toISOString(),
    },
  })
  return task.id
}
