import { TopK } from '../bm25/top-k.js'
import { dotKernel, wasm, type DotsFn, type WasmMemory } from './dot-kernel.js'

/** A scored label from a vector search: `label` is the slot, `score` the cosine with the query. */
export interface LabelScore {
  label: number
  score: number
}

const PAGE = 65_536
const align16 = (n: number) => Math.ceil(n / 16) * 16

/**
 * Unit vectors in one contiguous, growable float32 matrix, addressed by slot (label). It is the
 * reference for exact search, the source of `get`, and what a snapshot persists next to the HNSW file.
 *
 * The matrix lives at the start of a WebAssembly memory, followed by a scratch query and a float64
 * score per slot, so that exact search is one call of the SIMD kernel of `dot-kernel.ts` over every
 * row (about four times a JavaScript loop), then a bounded top-k pass over the scores. Dimensions not
 * divisible by 4 (no real embedder's) take a JavaScript loop instead, for every score of the store, so
 * exact and HNSW scores of one store always come from the same arithmetic. A WebAssembly memory holds
 * at most 4 GiB: matrix plus scores cap a store near 1.3M slots of 768-d.
 */
/** Rows scored per call of the WebAssembly kernel (`scoreSlots`). */
const ROWS_PER_CALL = 4096

export class FlatVectors {
  private readonly memory: WasmMemory
  private readonly dots: DotsFn | null
  private data!: Float32Array
  private query!: Float32Array
  private scores!: Float64Array
  private slotCount = 0

  constructor(
    readonly dimension: number,
    capacity: number,
  ) {
    this.memory = new wasm.Memory({ initial: 0 })
    this.dots = dimension % 4 === 0 ? dotKernel(this.memory) : null
    this.layout(Math.max(1, capacity))
  }

  /** Slots the store can hold before `grow`. */
  get capacity(): number {
    return this.slotCount
  }

  grow(capacity: number): void {
    if (capacity <= this.capacity) return
    const old = this.slotCount * this.dimension
    this.layout(capacity)
    // The old scratch area (query, scores) now lies inside the matrix: new slots start at zero.
    this.data.fill(0, old)
  }

  /** Sizes the memory for `capacity` slots and lays out matrix, query and scores in it. */
  private layout(capacity: number): void {
    const d = this.dimension
    const queryAt = align16(capacity * d * 4)
    const scoresAt = align16(queryAt + d * 4)
    const need = Math.ceil((scoresAt + capacity * 8) / PAGE)
    const have = this.memory.buffer.byteLength / PAGE
    if (need > have) this.memory.grow(need - have)
    // Growing detaches the previous buffer: every view is made anew.
    const buffer = this.memory.buffer
    this.data = new Float32Array(buffer, 0, capacity * d)
    this.query = new Float32Array(buffer, queryAt, d)
    this.scores = new Float64Array(buffer, scoresAt, capacity)
    this.slotCount = capacity
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
    this.scoreSlots(query, label, label + 1)
    return this.scores[label]!
  }

  /** Fills `scores[from, to)` with the dot products of those slots with `query`. */
  private scoreSlots(query: ArrayLike<number>, from: number, to: number): void {
    const d = this.dimension
    if (this.dots !== null) {
      this.query.set(query)
      const rowBytes = d * 4
      // In calls of at most ROWS_PER_CALL rows: V8 first runs a WebAssembly function as baseline
      // (Liftoff) code and swaps in its optimised version for later calls only, so one call over a
      // whole large index, the first search after a start, ran at baseline speed throughout.
      for (let start = from; start < to; start += ROWS_PER_CALL) {
        const end = Math.min(to, start + ROWS_PER_CALL)
        this.dots(
          start * rowBytes,
          this.query.byteOffset,
          rowBytes,
          end * rowBytes,
          this.scores.byteOffset + start * 8,
        )
      }
      return
    }
    const data = this.data
    for (let label = from; label < to; label++) {
      const base = label * d
      let s = 0
      for (let i = 0; i < d; i++) s += data[base + i]! * query[i]!
      this.scores[label] = s
    }
  }

  /**
   * Exact top-k by brute-force dot product over the first `slots` slots that have an id (and that
   * `accept` takes), best first, ties by id. O(n·d): the reference for HNSW and the small-set path.
   * Every slot is scored first (one kernel call); ids and `accept` are asked only of the slots that
   * reach the current k-th best score, which leaves the result unchanged.
   */
  search(
    query: Float32Array,
    k: number,
    slots: number,
    idOf: (label: number) => string | null,
    accept?: (id: string) => boolean,
  ): LabelScore[] {
    const top = new TopK(k)
    if (k < 1 || slots < 1) return []
    this.scoreSlots(query, 0, slots)
    const scores = this.scores
    let threshold = -Infinity
    for (let label = 0; label < slots; label++) {
      const score = scores[label]!
      // Negated so that a NaN score is skipped, as `score >= threshold` skipped it before.
      if (!(score >= threshold)) continue
      const id = idOf(label)
      if (id === null || (accept !== undefined && !accept(id))) continue
      top.push(label, score, id)
      threshold = top.threshold()
    }
    return top.sorted().map((e) => ({ label: e.doc, score: e.score }))
  }

  /**
   * The first `slots` vectors as bytes (little-endian float32), for snapshots: a copy, because
   * growing the memory detaches every view of it, and a snapshot may write while the index grows.
   */
  bytes(slots: number): Uint8Array {
    return this.byteRange(0, slots * this.dimension * 4)
  }

  /**
   * Bytes `[start, end)` of the matrix (little-endian float32, slot after slot): a copy, for a
   * snapshot written a chunk at a time.
   */
  byteRange(start: number, end: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, start, end - start).slice()
  }

  /** A store holding `bytes` (from `bytes()`), with room for `capacity` slots. */
  static fromBytes(dimension: number, capacity: number, bytes: Uint8Array): FlatVectors {
    const store = new FlatVectors(dimension, capacity)
    new Uint8Array(store.memory.buffer).set(bytes)
    return store
  }

  /**
   * A store holding the `byteLength` bytes `read` writes into the view it is given (a file read
   * straight into the store's memory: no second copy of the matrix, and the copy happens on libuv's
   * threads), with room for `capacity` slots.
   */
  static async fromReader(
    dimension: number,
    capacity: number,
    byteLength: number,
    read: (into: Uint8Array) => Promise<void>,
  ): Promise<FlatVectors> {
    const store = new FlatVectors(dimension, capacity)
    if (byteLength > store.data.byteLength)
      throw new Error(`${byteLength} bytes of vectors do not fit ${capacity} slots`)
    await read(new Uint8Array(store.memory.buffer, 0, byteLength))
    return store
  }
}
