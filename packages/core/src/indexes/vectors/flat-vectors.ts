import { TopK } from '../bm25/top-k.js'

/** A scored label from a vector search: `label` is the slot, `score` the cosine with the query. */
export interface LabelScore {
  label: number
  score: number
}

/**
 * Unit vectors in one contiguous, growable Float32Array, addressed by slot (label). It is the
 * reference for exact search, the source of `get`, and what a snapshot persists next to the HNSW file.
 */
export class FlatVectors {
  private data: Float32Array

  constructor(
    readonly dimension: number,
    capacity: number,
  ) {
    this.data = new Float32Array(Math.max(1, capacity) * dimension)
  }

  /** Slots the store can hold before `grow`. */
  get capacity(): number {
    return this.data.length / this.dimension
  }

  grow(capacity: number): void {
    if (capacity <= this.capacity) return
    const data = new Float32Array(capacity * this.dimension)
    data.set(this.data)
    this.data = data
  }

  /** Copies `vector` into slot `label`, scaled to unit norm (a zero vector stays zero). */
  set(label: number, vector: ArrayLike<number>): void {
    const d = this.dimension
    let norm = 0
    for (let i = 0; i < d; i++) norm += vector[i]! * vector[i]!
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
    const base = label * d
    for (let i = 0; i < d; i++) this.data[base + i] = vector[i]! * scale
  }

  /** A copy of slot `label`. */
  get(label: number): Float32Array {
    return this.data.slice(label * this.dimension, (label + 1) * this.dimension)
  }

  /** Dot product of slot `label` with `query` (the cosine, both being unit vectors). */
  dot(label: number, query: ArrayLike<number>): number {
    const d = this.dimension
    const base = label * d
    const data = this.data
    let s = 0
    for (let i = 0; i < d; i++) s += data[base + i]! * query[i]!
    return s
  }

  /**
   * Exact top-k by brute-force dot product over the first `slots` slots that have an id (and that
   * `accept` takes), best first, ties by id. O(n·d): the reference for HNSW and the small-set path.
   */
  search(
    query: Float32Array,
    k: number,
    slots: number,
    idOf: (label: number) => string | null,
    accept?: (id: string) => boolean,
  ): LabelScore[] {
    const top = new TopK(k)
    for (let label = 0; label < slots; label++) {
      const id = idOf(label)
      if (id === null || (accept !== undefined && !accept(id))) continue
      const score = this.dot(label, query)
      if (score >= top.threshold()) top.push(label, score, id)
    }
    return top.sorted().map((e) => ({ label: e.doc, score: e.score }))
  }

  /** The first `slots` vectors as bytes (little-endian float32), for snapshots. */
  bytes(slots: number): Uint8Array {
    return new Uint8Array(this.data.buffer, this.data.byteOffset, slots * this.dimension * 4)
  }

  /** A store holding `bytes` (from `bytes()`), with room for `capacity` slots. */
  static fromBytes(dimension: number, capacity: number, bytes: Uint8Array): FlatVectors {
    const store = new FlatVectors(dimension, capacity)
    new Uint8Array(store.data.buffer).set(bytes)
    return store
  }
}
