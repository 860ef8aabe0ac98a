import hnswlib from 'hnswlib-node'
import { vectorIndexBytes } from '../index-bytes.js'
import { FlatVectors, type LabelScore } from './flat-vectors.js'

export interface VectorIndexOptions {
  dimension: number
  /** HNSW links per node (default 16). */
  m?: number
  /** Candidate list size while inserting (default 200): the build-time recall/speed trade-off. */
  efConstruction?: number
  /** Candidate list size while searching (default 100); raised to k when k is larger. */
  ef?: number
  /** Below this many live vectors, search is exact brute force (default 2,000). */
  exactBelow?: number
  /** Slots allocated up front (default 1,024); the index doubles when full. */
  initialCapacity?: number
  /** Seed of HNSW's level generator, for reproducible graphs (default 100, hnswlib's own). */
  seed?: number
  /** Graph writes held back before they are replayed into HNSW anyway (default 2,048; see `VectorIndex`). */
  maxPendingWrites?: number
}

export interface ScoredVector {
  id: string
  score: number
}

/** Tuning an index was built with; part of its snapshot. */
export interface VectorIndexSettings {
  dimension: number
  m: number
  efConstruction: number
  ef: number
  exactBelow: number
  seed: number
}

export const VECTOR_INDEX_DEFAULTS = {
  m: 16,
  efConstruction: 200,
  ef: 100,
  exactBelow: 2_000,
  initialCapacity: 1_024,
  seed: 100,
  maxPendingWrites: 2_048,
} as const

/** Bytes a queued graph write holds besides its vector (the entry and the typed array's header). */
const PENDING_WRITE_BYTES = 96

/** A write to the HNSW graph not made yet: `addPoint(vector, label)`, or `markDelete(label)` (null). */
interface PendingWrite {
  label: number
  vector: Float32Array | null
}

/** Pieces a snapshot restores (see `vector-snapshot.ts`). */
export interface VectorIndexParts {
  settings: VectorIndexSettings
  hnsw: hnswlib.HierarchicalNSW
  flat: FlatVectors
  /** Id per slot; null for a free (deleted, reusable) slot. */
  ids: (string | null)[]
}

/**
 * Parts to restore an index from, the graph possibly still being read (hnswlib's `readIndex` on a
 * libuv thread): the index answers searches exactly from the flat copy until it resolves.
 */
export interface RestoredVectorIndexParts extends Omit<VectorIndexParts, 'hnsw'> {
  hnsw: hnswlib.HierarchicalNSW | Promise<hnswlib.HierarchicalNSW>
}

/**
 * Cosine nearest neighbours over unit vectors with string ids: an HNSW graph (Malkov & Yashunin,
 * "Efficient and robust approximate nearest neighbor search using Hierarchical Navigable Small World
 * graphs", IEEE TPAMI 2018) through `hnswlib-node`, next to a flat copy of the vectors that serves
 * exact search (the reference, and the path below `exactBelow` vectors), `get`, and snapshots.
 *
 * Each id owns a slot, which is its HNSW label. Updating an id rewrites its slot in place (hnswlib
 * repairs the node's links); removing one marks the label deleted and frees the slot, and the next new
 * id takes it over (hnswlib unmarks and rewrites it), so deletes never grow the graph. When every slot
 * is used the index doubles (`resizeIndex`). Returned scores are exact cosines recomputed from the flat
 * copy, so they do not depend on which path found the hit.
 *
 * The graph is built lazily. Below `exactBelow` no search reads it, yet inserting into it was most of
 * an index write (an HNSW insert is an efConstruction-wide search: about 0.2 ms at 512-d, where the
 * flat copy takes microseconds). Its writes are therefore queued, in order, and replayed when the
 * graph is read (an approximate search, a snapshot's `parts`) or when `maxPendingWrites` are queued
 * (bounding the memory the queue holds). hnswlib is deterministic given its calls (level and update
 * generators are seeded; insertion is single-threaded here), so the replayed graph is the very graph
 * eager writes would have built: the same bytes in a snapshot, the same approximate hits.
 *
 * A snapshot may restore the index before its graph is read (`loadVectorIndex` with
 * `graphInBackground`): the graph is the larger file (220 MB for 100,000 x 512-d vectors, beside 200 MB
 * of flat vectors) and hnswlib allocates per node as it reads. Until `graphReady` resolves every search
 * is exact (the right answer; 0.05-0.1 s over 100,000 x 512-d on a busy 2-core machine) and graph
 * writes stay queued; then searches above `exactBelow` take the graph. If
 * reading it fails, the index stays exact (`graphReady` rejects; the snapshot layer then forgets the
 * snapshot, so the next start rebuilds the graph from storage).
 */
export class VectorIndex {
  readonly dimension: number
  readonly settings: VectorIndexSettings
  /** Null while a snapshot's graph is being read, or when reading it failed. */
  private hnsw: hnswlib.HierarchicalNSW | null
  /** Resolves once the HNSW graph is usable (at once unless restored with the graph still loading). */
  readonly graphReady: Promise<void>
  private readonly flat: FlatVectors
  private readonly ids: (string | null)[]
  private readonly labels = new Map<string, number>()
  private readonly free: number[] = []
  /** Graph writes made to the flat copy but not yet to `hnsw`, oldest first. */
  private pending: PendingWrite[] = []
  private readonly maxPending: number

  /** A new, empty index; `parts` (from `loadVectorIndex`) restores a saved one instead. */
  constructor(options: VectorIndexOptions, parts?: RestoredVectorIndexParts) {
    const d = VECTOR_INDEX_DEFAULTS
    let graph: Promise<hnswlib.HierarchicalNSW> | null = null
    if (parts !== undefined) {
      this.settings = { ...parts.settings }
      if (parts.hnsw instanceof Promise) {
        graph = parts.hnsw
        this.hnsw = null
      } else this.hnsw = parts.hnsw
      this.flat = parts.flat
      this.ids = parts.ids
      parts.ids.forEach((id, label) =>
        id === null ? this.free.push(label) : this.labels.set(id, label),
      )
      // Lowest slots first, as a fresh index would fill them.
      this.free.reverse()
    } else {
      if (!Number.isInteger(options.dimension) || options.dimension < 1)
        throw new RangeError(
          `Vector dimension must be a positive integer (got ${options.dimension}).`,
        )
      this.settings = {
        dimension: options.dimension,
        m: options.m ?? d.m,
        efConstruction: options.efConstruction ?? d.efConstruction,
        ef: options.ef ?? d.ef,
        exactBelow: options.exactBelow ?? d.exactBelow,
        seed: options.seed ?? d.seed,
      }
      const capacity = Math.max(16, options.initialCapacity ?? d.initialCapacity)
      this.hnsw = new hnswlib.HierarchicalNSW('cosine', options.dimension)
      this.hnsw.initIndex({
        maxElements: capacity,
        m: this.settings.m,
        efConstruction: this.settings.efConstruction,
        randomSeed: this.settings.seed,
      })
      this.flat = new FlatVectors(options.dimension, capacity)
      this.ids = []
    }
    this.dimension = this.settings.dimension
    this.maxPending = Math.max(1, options.maxPendingWrites ?? d.maxPendingWrites)
    this.hnsw?.setEf(this.settings.ef)
    this.graphReady =
      graph === null
        ? Promise.resolve()
        : graph.then((hnsw) => {
            hnsw.setEf(this.settings.ef)
            this.hnsw = hnsw
          })
    // A failed read leaves an exact-only index; whoever cares awaits `graphReady` and sees why.
    this.graphReady.catch(() => {})
  }

  /** The HNSW graph is usable (false while a snapshot's graph is read, or when reading it failed). */
  get graphLoaded(): boolean {
    return this.hnsw !== null
  }

  /** Live vectors. */
  get size(): number {
    return this.labels.size
  }

  /** Search-time candidate list size of the HNSW path. */
  get ef(): number {
    return this.settings.ef
  }

  set ef(ef: number) {
    if (!Number.isInteger(ef) || ef < 1)
      throw new RangeError(`ef must be a positive integer (got ${ef}).`)
    this.settings.ef = ef
    this.hnsw?.setEf(ef)
  }

  has(id: string): boolean {
    return this.labels.has(id)
  }

  /**
   * Estimated bytes held, hnswlib's native memory included, at the allocated capacity (`index-bytes.ts`),
   * and the graph writes still queued (at most `maxPendingWrites` vectors: 4 MB at 512-d by default).
   */
  bytes(): number {
    const queued = this.pending.length * (this.dimension * 4 + PENDING_WRITE_BYTES)
    return vectorIndexBytes(this.flat.capacity, this.size, this.dimension, this.settings.m) + queued
  }

  /** A copy of the stored (unit) vector of `id`. */
  get(id: string): Float32Array | undefined {
    const label = this.labels.get(id)
    return label === undefined ? undefined : this.flat.get(label)
  }

  /** Adds `id`, or replaces its vector when it is already present. The vector is scaled to unit norm. */
  add(id: string, vector: ArrayLike<number>): void {
    this.checkDimension(vector)
    let label = this.labels.get(id)
    if (label === undefined) {
      label = this.free.pop() ?? this.ids.length
      if (label === this.flat.capacity) this.grow()
      this.ids[label] = id
      this.labels.set(id, label)
    }
    this.flat.set(label, vector)
    // A freed label is still in the graph, marked deleted: hnswlib unmarks it and rewrites it in place.
    this.queue(label, this.flat.get(label))
  }

  /** Removes `id`; false when it was not there. */
  remove(id: string): boolean {
    const label = this.labels.get(id)
    if (label === undefined) return false
    this.scrub(label)
    this.queue(label, null)
    this.labels.delete(id)
    this.ids[label] = null
    this.free.push(label)
    return true
  }

  /**
   * Overwrites a removed vector in both stores before its slot is freed: hnswlib's markDelete keeps
   * the data, which snapshots then write to disk, and a forgotten passage's embedding must not outlive
   * it (docs/forgetting.md). A fixed unit vector is written (hnswlib normalises for cosine, so zeros
   * would not do); the node's links are rewired as for any update, then it is marked deleted.
   */
  private scrub(label: number): void {
    const neutral = new Float32Array(this.dimension)
    neutral[0] = 1
    this.flat.set(label, neutral)
    this.queue(label, neutral)
  }

  /** Queues a graph write; replays the queue once it holds `maxPendingWrites`. */
  private queue(label: number, vector: Float32Array | null): void {
    this.pending.push({ label, vector })
    if (this.pending.length >= this.maxPending) this.syncGraph()
  }

  /**
   * Replays the queued writes into the graph, in the order they were made, after sizing it to the
   * flat copy's capacity (resizing moves no node and draws no level, so when it happens does not
   * matter). The queue holds the vectors as written, so an updated slot replays every version.
   */
  private syncGraph(): void {
    if (this.hnsw === null || this.pending.length === 0) return
    const writes = this.pending
    this.pending = []
    this.replay(this.hnsw, writes)
  }

  /**
   * Replays the queued writes like `syncGraph`, one at a time with `pause` in between: an HNSW insert
   * of a 512-d vector takes ~2 ms, so the 2,000 writes a queue may hold are seconds of work that would
   * otherwise run in one go at the next approximate search or snapshot save. Does nothing while the
   * graph is being read (the writes wait for it). A `syncGraph` meanwhile takes what is left.
   */
  async flushGraph(pause: () => Promise<void> | undefined): Promise<void> {
    while (this.hnsw !== null && this.pending.length > 0) {
      this.replay(this.hnsw, this.pending.splice(0, 1))
      await pause()
    }
  }

  private replay(hnsw: hnswlib.HierarchicalNSW, writes: readonly PendingWrite[]): void {
    if (hnsw.getMaxElements() < this.flat.capacity) hnsw.resizeIndex(this.flat.capacity)
    for (const { label, vector } of writes) {
      if (vector === null) hnsw.markDelete(label)
      else hnsw.addPoint(Array.from(vector), label)
    }
  }

  /**
   * The k nearest ids by cosine, best first (ties by id): exact below `exactBelow` live vectors or
   * while the graph is not loaded, HNSW otherwise. `filter` keeps only the ids it accepts (applied
   * during the HNSW walk).
   */
  search(query: ArrayLike<number>, k: number, filter?: (id: string) => boolean): ScoredVector[] {
    return this.size < this.settings.exactBelow || this.hnsw === null
      ? this.exactSearch(query, k, filter)
      : this.approximateSearch(query, k, filter)
  }

  /** Brute-force top k by dot product over every live vector: the reference for `approximateSearch`. */
  exactSearch(
    query: ArrayLike<number>,
    k: number,
    filter?: (id: string) => boolean,
  ): ScoredVector[] {
    const q = this.unitQuery(query)
    if (k < 1 || this.size === 0) return []
    return this.named(this.flat.search(q, k, this.ids.length, (l) => this.ids[l] ?? null, filter))
  }

  /**
   * Top k through the HNSW graph at the current `ef`, whatever the size; exact while the graph is not
   * loaded (`graphLoaded`).
   */
  approximateSearch(
    query: ArrayLike<number>,
    k: number,
    filter?: (id: string) => boolean,
  ): ScoredVector[] {
    const hnsw = this.hnsw
    if (hnsw === null) return this.exactSearch(query, k, filter)
    const q = this.unitQuery(query)
    if (k < 1 || this.size === 0) return []
    this.syncGraph()
    const n = Math.min(k, hnsw.getMaxElements())
    const accept =
      filter === undefined
        ? undefined
        : (label: number) => {
            const id = this.ids[label]
            return id !== null && id !== undefined && filter(id)
          }
    const { neighbors } = hnsw.searchKnn(Array.from(q), n, accept)
    const found: LabelScore[] = neighbors.map((label) => ({
      label,
      score: this.flat.dot(label, q),
    }))
    return this.named(found)
  }

  /**
   * The parts a snapshot writes (see `vector-snapshot.ts`); live views, do not mutate. Throws while
   * the graph is not loaded (await `graphReady` first).
   */
  parts(): VectorIndexParts {
    if (this.hnsw === null) throw new Error('The HNSW graph of this vector index is not loaded.')
    this.syncGraph()
    return { settings: { ...this.settings }, hnsw: this.hnsw, flat: this.flat, ids: this.ids }
  }

  private grow(): void {
    // The graph follows when its queued writes are replayed (`syncGraph`).
    this.flat.grow(this.flat.capacity * 2)
  }

  private checkDimension(vector: ArrayLike<number>): void {
    if (vector.length !== this.dimension)
      throw new RangeError(
        `Vector has ${vector.length} dimensions; this index holds ${this.dimension}-d vectors.`,
      )
  }

  private unitQuery(query: ArrayLike<number>): Float32Array {
    this.checkDimension(query)
    let norm = 0
    for (let i = 0; i < query.length; i++) norm += query[i]! * query[i]!
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
    // A loop, not `Float32Array.from(query, map)`: the mapping form was a third of an exact search.
    const unit = new Float32Array(query.length)
    for (let i = 0; i < query.length; i++) unit[i] = query[i]! * scale
    return unit
  }

  private named(found: LabelScore[]): ScoredVector[] {
    const out: ScoredVector[] = []
    for (const { label, score } of found) {
      const id = this.ids[label]
      if (id !== null && id !== undefined) out.push({ id, score })
    }
    return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  }
}
