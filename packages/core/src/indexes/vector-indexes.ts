import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { IndexComponent, Pause } from './index-component.js'
import { VectorIndex } from './vectors/vector-index.js'

const PAGE = 2000

/** Vector spaces with a dense index (the `space` of stored vectors; others are ignored). */
export const VECTOR_SPACES = ['passages', 'entities'] as const
export type VectorSpace = (typeof VECTOR_SPACES)[number]

export const isVectorSpace = (space: string): space is VectorSpace =>
  (VECTOR_SPACES as readonly string[]).includes(space)

/** Where a vector space's index came from when the brain's indexes were built. */
export type VectorIndexOrigin = 'snapshot' | 'storage'

export interface VectorIndexesOptions {
  /** The entity exists (a vector row may briefly outlive its entity: it is never a dense hit). */
  isEntity(uuid: string): boolean
  /** Vector indexes restored from snapshots (`vector-snapshots.ts`), taken as they are. */
  snapshots?: (store: BrainStore) => Promise<ReadonlyMap<VectorSpace, VectorIndex>>
}

/**
 * The HNSW indexes of one brain, one per vector space, each created with the first vector (its
 * dimension is the embedder's). A space restored from a snapshot by `load` is not rebuilt by `build`.
 */
export class VectorIndexes implements IndexComponent {
  readonly name = 'vectors'
  /** Dense index per vector space. */
  readonly spaces = new Map<VectorSpace, VectorIndex>()
  /** Per vector space with an index: loaded from a snapshot, or rebuilt from the adapter's vectors. */
  readonly origin = new Map<VectorSpace, VectorIndexOrigin>()

  constructor(private readonly options: VectorIndexesOptions) {}

  async load(store: BrainStore): Promise<boolean> {
    const loaded = (await this.options.snapshots?.(store)) ?? new Map()
    for (const [space, index] of loaded) {
      this.spaces.set(space, index)
      this.origin.set(space, 'snapshot')
    }
    return loaded.size > 0
  }

  async build(store: BrainStore, pause: Pause): Promise<void> {
    for (const space of VECTOR_SPACES) {
      if (this.origin.get(space) === 'snapshot') continue
      for (let after: string | null = null; ;) {
        const page = await store.vectors.scan(space, after, PAGE)
        for (const v of page) {
          if (space !== 'entities' || this.options.isEntity(v.id)) {
            this.put(space, v.id, v.vector)
            await this.flushGraph(space, pause)
          }
          await pause()
        }
        if (page.length < PAGE) break
        after = page[page.length - 1]!.id
      }
      if (this.spaces.has(space)) this.origin.set(space, 'storage')
    }
  }

  /**
   * Replays the graph writes an index of `exactBelow` vectors or more still queues, with turns in
   * between, after each vector a build or batch puts: its searches take the graph, and otherwise the
   * queue filled up to `maxPendingWrites` and was replayed in one go, 2,048 HNSW inserts of ~2 ms each
   * at 512-d (a 5 s stall every 2,048 vectors of a 100,000-vector rebuild, and 3.8 s for the first
   * search after it).
   */
  private async flushGraph(space: VectorSpace, pause: Pause): Promise<void> {
    const index = this.spaces.get(space)
    if (index !== undefined && index.size >= index.settings.exactBelow)
      await index.flushGraph(pause)
  }

  bytes(): number {
    let bytes = 0
    for (const index of this.spaces.values()) bytes += index.bytes()
    return bytes
  }

  async apply(batch: WriteBatch, pause: Pause): Promise<void> {
    for (const v of batch.vectors ?? []) {
      if (isVectorSpace(v.space)) {
        this.put(v.space, v.id, v.vector)
        await this.flushGraph(v.space, pause)
      }
      await pause()
    }
    for (const v of batch.deleteVectors ?? [])
      if (isVectorSpace(v.space)) this.spaces.get(v.space)?.remove(v.id)
    // A deleted entity or passage is never a dense hit, even if its vector row outlives it in storage.
    for (const uuid of batch.deleteEntities ?? []) this.spaces.get('entities')?.remove(uuid)
    for (const id of batch.deletePassages ?? []) this.spaces.get('passages')?.remove(id)
  }

  private put(space: VectorSpace, id: string, vector: Float32Array): void {
    let index = this.spaces.get(space)
    if (index === undefined) {
      index = new VectorIndex({ dimension: vector.length })
      this.spaces.set(space, index)
    }
    index.add(id, vector)
  }
}
