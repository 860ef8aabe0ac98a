import { performance } from 'node:perf_hooks'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { loopYielder } from '../loop-yielder.js'
import { BrainCommunities } from '../graph/brain-communities.js'
import { Bm25Index } from '../indexes/bm25/bm25-index.js'
import { LazyGraphIndex } from '../indexes/graph/graph-index.js'
import { VectorIndex } from '../indexes/vectors/vector-index.js'
import { EVENT_LABEL, type Entity } from '../model/entity.js'

const PAGE = 2000

/** Vector spaces with a dense index (the `space` of stored vectors; others are ignored). */
export const VECTOR_SPACES = ['passages', 'entities'] as const
export type VectorSpace = (typeof VECTOR_SPACES)[number]

export const isVectorSpace = (space: string): space is VectorSpace =>
  (VECTOR_SPACES as readonly string[]).includes(space)

/** Where a vector space's index came from when the brain's indexes were built. */
export type VectorIndexOrigin = 'snapshot' | 'storage'

/**
 * Synchronous work between two event-loop turns of a build: an HNSW insert takes milliseconds, a
 * passage's analysis tens of microseconds; a turn every ~20 ms lets requests, health checks included,
 * in between.
 */
const SLICE_MS = 20

/** Text the entities and events indexes see: name, aliases and description. */
function entityText(e: Entity): string {
  return [e.name, ...e.aliases, e.description ?? ''].join(' ')
}

/**
 * The in-memory indexes of one brain (DESIGN.md section 4): BM25 over passages, entities (name, aliases,
 * description), events and observations, HNSW vector indexes over the `passages` and `entities`
 * vector spaces, plus the attributes channels filter on. Built on first use, from the adapter or, for
 * vector indexes, from snapshots (`vector-snapshots.ts`), and kept current by commit listeners.
 */
export class BrainIndexes {
  readonly passages = new Bm25Index()
  readonly entities = new Bm25Index()
  readonly events = new Bm25Index()
  readonly observations = new Bm25Index()
  /** Labels and event time per entity uuid, for label filters and recency. */
  readonly entityInfo = new Map<string, { labels: string[]; happenedAt: string | null }>()
  /** Dense index per vector space, created with the first vector (its dimension is the embedder's). */
  readonly vectors = new Map<VectorSpace, VectorIndex>()
  /** Graph topology for traversals (context packs, synergies, recommend), built on first use. */
  readonly graph = new LazyGraphIndex()
  /** Louvain communities with hubs and summaries (graphology), built on first `communities` search. */
  readonly communities = new BrainCommunities()

  /** Per vector space with an index: loaded from a snapshot, or rebuilt from the adapter's vectors. */
  readonly vectorOrigin = new Map<VectorSpace, VectorIndexOrigin>()
  /** Milliseconds `build` spent on the lexical indexes and on re-inserting vectors (start-up logs). */
  readonly buildMs = { lexical: 0, vectors: 0 }

  /**
   * Builds every index from the adapter's records, except the vector spaces in `loaded` (indexes
   * restored from snapshots, taken as they are).
   */
  static async build(
    store: BrainStore,
    loaded: ReadonlyMap<VectorSpace, VectorIndex> = new Map(),
  ): Promise<BrainIndexes> {
    const indexes = new BrainIndexes()
    const pause = loopYielder(SLICE_MS)
    const started = performance.now()
    for (let after: string | null = null; ;) {
      const page = await store.scanPassages(after, PAGE)
      for (const p of page) {
        indexes.passages.add(p.id, p.text)
        await pause()
      }
      if (page.length < PAGE) break
      after = page[page.length - 1]!.id
    }
    for (let after: string | null = null; ;) {
      const page = await store.scanEntities(after, PAGE)
      for (const e of page) {
        indexes.putEntity(e)
        await pause()
      }
      if (page.length < PAGE) break
      after = page[page.length - 1]!.uuid
    }
    for (let skip = 0; ; skip += PAGE) {
      const page = await store.listObservations({ limit: PAGE, skip })
      for (const o of page.items) {
        indexes.observations.add(o.id, o.text)
        await pause()
      }
      if (page.items.length < PAGE) break
    }
    const lexical = performance.now()
    indexes.buildMs.lexical = lexical - started
    for (const space of VECTOR_SPACES) {
      const snapshot = loaded.get(space)
      if (snapshot !== undefined) {
        indexes.vectors.set(space, snapshot)
        indexes.vectorOrigin.set(space, 'snapshot')
        continue
      }
      for (let after: string | null = null; ;) {
        const page = await store.scanVectors(space, after, PAGE)
        for (const v of page) {
          if (space !== 'entities' || indexes.entityInfo.has(v.id))
            indexes.putVector(space, v.id, v.vector)
          await pause()
        }
        if (page.length < PAGE) break
        after = page[page.length - 1]!.id
      }
      if (indexes.vectors.has(space)) indexes.vectorOrigin.set(space, 'storage')
    }
    indexes.buildMs.vectors = performance.now() - lexical
    return indexes
  }

  private putVector(space: VectorSpace, id: string, vector: Float32Array): void {
    let index = this.vectors.get(space)
    if (index === undefined) {
      index = new VectorIndex({ dimension: vector.length })
      this.vectors.set(space, index)
    }
    index.add(id, vector)
  }

  private putEntity(e: Entity): void {
    const isEvent = e.labels.includes(EVENT_LABEL)
    this.entityInfo.set(e.uuid, { labels: e.labels, happenedAt: e.happenedAt })
    if (isEvent) {
      this.entities.remove(e.uuid)
      this.events.add(e.uuid, entityText(e))
    } else {
      this.events.remove(e.uuid)
      this.entities.add(e.uuid, entityText(e))
    }
  }

  /**
   * Follows a committed batch, with event-loop turns in between as a build has: a task of a megabyte
   * commits hundreds of passages and vectors, and their HNSW inserts alone took 0.3-1 s in one go,
   * during which no other brain's request was answered. A search meanwhile sees part of the batch.
   */
  async apply(batch: WriteBatch): Promise<void> {
    const pause = loopYielder(SLICE_MS)
    this.graph.apply(batch)
    this.communities.apply(batch)
    for (const p of batch.passages ?? []) {
      this.passages.add(p.id, p.text)
      await pause()
    }
    for (const e of batch.entities ?? []) this.putEntity(e)
    for (const o of batch.observations ?? []) this.observations.add(o.id, o.text)
    for (const v of batch.vectors ?? []) {
      if (isVectorSpace(v.space)) this.putVector(v.space, v.id, v.vector)
      await pause()
    }
    for (const v of batch.deleteVectors ?? [])
      if (isVectorSpace(v.space)) this.vectors.get(v.space)?.remove(v.id)
    for (const uuid of batch.deleteEntities ?? []) {
      this.entities.remove(uuid)
      this.events.remove(uuid)
      this.entityInfo.delete(uuid)
      // A deleted entity is never a dense hit, even if its vector row outlives it in storage.
      this.vectors.get('entities')?.remove(uuid)
    }
  }
}
