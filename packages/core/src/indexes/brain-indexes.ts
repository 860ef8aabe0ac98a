import { performance } from 'node:perf_hooks'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { loopYielder } from '../loop-yielder.js'
import { BrainCommunities } from './communities/brain-communities.js'
import type { GraphIndex } from './graph/graph-index.js'
import { LazyGraphIndex } from './graph/lazy-graph-index.js'
import type { IndexComponent } from './index-component.js'
import type { Bm25Settings } from './bm25/bm25-index.js'
import { LexicalIndexes } from './lexical-indexes.js'
import { VectorIndexes, type VectorIndexOrigin, type VectorSpace } from './vector-indexes.js'
import type { VectorIndex } from './vectors/vector-index.js'

export {
  isVectorSpace,
  VECTOR_SPACES,
  type VectorIndexOrigin,
  type VectorSpace,
} from './vector-indexes.js'

/**
 * Synchronous work between two event-loop turns of a build: an HNSW insert takes milliseconds, a
 * passage's analysis tens of microseconds; a turn every ~20 ms lets requests, health checks included,
 * in between.
 */
const SLICE_MS = 20

/**
 * The in-memory indexes of one brain (DESIGN.md section 4), as index components: BM25 over passages,
 * entities, events and observations with the entity attributes channels filter on; HNSW indexes over
 * the `passages` and `entities` vector spaces; the brain's one graph; its Louvain communities,
 * computed from that graph. Built on first use by the index manager, from the adapter or, for vector
 * indexes, from snapshots, and kept current with committed batches.
 */
export class BrainIndexes {
  readonly lexical: LexicalIndexes
  readonly dense: VectorIndexes
  /**
   * Graph topology for traversals (context packs, synergies, recommend): from its snapshot when valid,
   * else built on first use.
   */
  readonly graph: LazyGraphIndex
  /** Louvain communities with hubs and summaries, computed from `graph` on first `communities` search. */
  readonly communities: BrainCommunities
  /** In the order batches reach them: the graph first, as searches in between read it synchronously. */
  get components(): readonly IndexComponent[] {
    return [this.graph, this.communities, this.lexical, this.dense]
  }
  /** Milliseconds `build` spent on the lexical indexes and on re-inserting vectors (start-up logs). */
  readonly buildMs = { lexical: 0, vectors: 0 }

  private constructor(
    loaded: ReadonlyMap<VectorSpace, VectorIndex>,
    bm25: Bm25Settings,
    lexical: LexicalIndexes,
    graph: GraphIndex | null,
  ) {
    this.lexical = lexical
    this.graph = new LazyGraphIndex(graph ?? undefined)
    this.communities = new BrainCommunities(this.graph)
    this.dense = new VectorIndexes({
      isEntity: (uuid) => this.lexical.entityInfo.has(uuid),
      snapshots: async () => loaded,
    })
  }

  get passages() {
    return this.lexical.passages
  }
  get entities() {
    return this.lexical.entities
  }
  get events() {
    return this.lexical.events
  }
  get observations() {
    return this.lexical.observations
  }
  get entityInfo() {
    return this.lexical.entityInfo
  }
  /** Dense index per vector space. */
  get vectors(): ReadonlyMap<VectorSpace, VectorIndex> {
    return this.dense.spaces
  }
  /** Per vector space with an index: loaded from a snapshot, or rebuilt from the adapter's vectors. */
  get vectorOrigin(): ReadonlyMap<VectorSpace, VectorIndexOrigin> {
    return this.dense.origin
  }

  /**
   * Estimated bytes of every component, hnswlib's native memory included (see `index-bytes.ts`):
   * O(components), what the index manager's memory budget counts.
   */
  estimatedBytes(): number {
    let bytes = 0
    for (const component of this.components) bytes += component.bytes?.() ?? 0
    return bytes
  }

  /**
   * Builds every component from the adapter's records, except what snapshots restored, taken as they
   * are (`index-snapshots.ts`): the vector spaces in `snapshots.vectors`, `snapshots.lexical` and
   * `snapshots.graph`. `bm25`: the engine's BM25 defaults, under the brain's override.
   */
  static async build(
    store: BrainStore,
    snapshots: {
      vectors?: ReadonlyMap<VectorSpace, VectorIndex>
      lexical?: LexicalIndexes | null
      graph?: GraphIndex | null
    } = {},
    bm25: Bm25Settings = {},
  ): Promise<BrainIndexes> {
    const indexes = new BrainIndexes(
      snapshots.vectors ?? new Map(),
      bm25,
      snapshots.lexical ?? new LexicalIndexes(bm25),
      snapshots.graph ?? null,
    )
    const pause = loopYielder(SLICE_MS)
    await indexes.dense.load(store)
    const started = performance.now()
    for (const component of indexes.components) {
      if (component === indexes.dense) indexes.buildMs.lexical = performance.now() - started
      await component.build(store, pause)
    }
    indexes.buildMs.vectors = performance.now() - started - indexes.buildMs.lexical
    return indexes
  }

  /**
   * Follows a committed batch, with event-loop turns in between as a build has: a task of a megabyte
   * commits hundreds of passages and vectors, and their HNSW inserts alone took 0.3-1 s in one go,
   * during which no other brain's request was answered. A search meanwhile sees part of the batch.
   */
  async apply(batch: WriteBatch): Promise<void> {
    const pause = loopYielder(SLICE_MS)
    for (const component of this.components) await component.apply(batch, pause)
  }
}
