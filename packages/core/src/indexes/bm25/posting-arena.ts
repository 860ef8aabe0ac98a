import { arrayPart, isCount, jsonPart, type SnapshotParts } from '../snapshot-codec.js'
import { pairLength, withLength, writePair } from './vint.js'

/**
 * Every term's posting list in one byte arena, with per-term offsets in typed arrays: no object per
 * term. A list is a run of (doc delta, tf) pairs (`vint.ts`, Lucene 3.x's `.frq` encoding) in increasing
 * doc order, so a posting mostly takes 1 or 2 bytes instead of 8. Each list owns a contiguous block; a
 * full block moves to the arena's end at twice its size (extended in place when it is the last block),
 * leaving a hole, and when holes are half of the arena it is rewritten packed: the growth scheme of an
 * in-memory inverted index (Zobel & Moffat, "Inverted files for text search engines", ACM Computing
 * Surveys 38(2), 2006, section 5: dynamic in-memory postings, doubling), without Lucene's slice chains
 * so that search reads each list in one sweep.
 */
export class PostingArena {
  /** The arena; a term's list is `bytes[start[term], start[term] + used[term])`. */
  bytes = new Uint8Array(256)
  start = new Uint32Array(16)
  used = new Uint32Array(16)
  private cap = new Uint32Array(16)
  /** Last doc appended per term (-1: none), the base of the next delta. */
  private last = new Int32Array(16).fill(-1)
  private end = 0
  private holes = 0
  private count = 0

  /** Terms numbered so far (emptied ones included). */
  get terms(): number {
    return this.count
  }

  /** Bytes of the typed arrays held. */
  get byteLength(): number {
    return this.bytes.byteLength + 16 * this.start.length
  }

  /** A new, empty term's number. */
  addTerm(): number {
    const term = this.count++
    if (term >= this.start.length) {
      this.start = withLength(this.start, term + 1)
      this.used = withLength(this.used, term + 1)
      this.cap = withLength(this.cap, term + 1)
      const last = withLength(this.last, term + 1)
      last.fill(-1, this.last.length)
      this.last = last
    }
    return term
  }

  /** Appends `doc` (greater than every doc already in `term`'s list) with frequency `tf`. */
  push(term: number, doc: number, tf: number): void {
    const delta = doc - this.last[term]!
    const need = this.used[term]! + pairLength(delta, tf)
    if (need > this.cap[term]!) this.grow(term, need)
    this.used[term] =
      writePair(this.bytes, this.start[term]! + this.used[term]!, delta, tf) - this.start[term]!
    this.last[term] = doc
  }

  /** Drops `term`'s list (its last document went): the block becomes a hole. */
  clear(term: number): void {
    this.holes += this.cap[term]!
    this.start[term] = this.used[term] = this.cap[term] = 0
    this.last[term] = -1
  }

  private grow(term: number, need: number): void {
    const cap = Math.max(need, this.cap[term]! * 2, 4)
    const from = this.start[term]!
    const old = this.cap[term]!
    if (old > 0 && from + old === this.end) {
      // The last block grows in place.
      this.bytes = withLength(this.bytes, from + cap)
      this.end = from + cap
      this.cap[term] = cap
      return
    }
    if (this.end + cap > this.bytes.length) {
      if (this.holes > this.end / 2) return this.repack(term, cap)
      this.bytes = withLength(this.bytes, this.end + cap)
    }
    this.bytes.copyWithin(this.end, from, from + this.used[term]!)
    this.start[term] = this.end
    this.cap[term] = cap
    this.end += cap
    this.holes += old
  }

  /**
   * Rewrites the arena without holes, each block at its used size plus an eighth (`grown` gets `cap`
   * bytes): a new arena sized to what is live, so holes never hold more than the live lists.
   */
  private repack(grown: number, cap: number): void {
    let live = 0
    const caps = new Uint32Array(this.count)
    for (let t = 0; t < this.count; t++) {
      const used = this.used[t]!
      caps[t] = t === grown ? cap : used === 0 ? 0 : used + (used >> 3) + 2
      live += caps[t]!
    }
    const bytes = new Uint8Array(Math.max(256, live + (live >> 2)))
    let end = 0
    for (let t = 0; t < this.count; t++) {
      if (caps[t] === 0) continue
      bytes.set(this.bytes.subarray(this.start[t]!, this.start[t]! + this.used[t]!), end)
      this.start[t] = end
      this.cap[t] = caps[t]!
      end += caps[t]!
    }
    this.bytes = bytes
    this.end = end
    this.holes = 0
  }

  /**
   * A new arena for `terms` terms whose lists will take `sizes[term]` bytes: blocks laid out back to
   * back at exactly that size, for a rebuild that knows its lists in advance (`Bm25Index.compact`).
   */
  static sized(terms: number, sizes: Uint32Array): PostingArena {
    const arena = new PostingArena()
    for (let t = 0; t < terms; t++) arena.addTerm()
    let end = 0
    for (let t = 0; t < terms; t++) {
      arena.start[t] = end
      arena.cap[t] = sizes[t]!
      end += sizes[t]!
    }
    arena.bytes = new Uint8Array(Math.max(256, end + (end >> 3)))
    arena.end = end
    return arena
  }

  /** The arena as snapshot parts (`snapshot-codec.ts`): the used part of every array. */
  toParts(): SnapshotParts {
    const n = this.count
    return {
      json: { end: this.end, holes: this.holes, count: n },
      arrays: {
        bytes: this.bytes.subarray(0, this.end),
        start: this.start.subarray(0, n),
        used: this.used.subarray(0, n),
        cap: this.cap.subarray(0, n),
        last: this.last.subarray(0, n),
      },
    }
  }

  /** The arena `toParts` described; throws on parts that do not fit together. */
  static fromParts(parts: SnapshotParts): PostingArena {
    const arena = new PostingArena()
    const count = jsonPart<number>(parts, 'count', isCount)
    const end = jsonPart<number>(parts, 'end', isCount)
    arena.bytes = withLength(arrayPart(parts, 'bytes', Uint8Array), 256)
    arena.start = arrayPart(parts, 'start', Uint32Array)
    arena.used = arrayPart(parts, 'used', Uint32Array)
    arena.cap = arrayPart(parts, 'cap', Uint32Array)
    arena.last = arrayPart(parts, 'last', Int32Array)
    for (const array of [arena.start, arena.used, arena.cap, arena.last])
      if (array.length !== count) throw new Error('posting arena parts disagree on the term count')
    for (let t = 0; t < count; t++)
      if (arena.start[t]! + arena.cap[t]! > end || arena.used[t]! > arena.cap[t]!)
        throw new Error('posting arena block out of bounds')
    if (end > arena.bytes.length) throw new Error('posting arena bytes cut short')
    arena.end = end
    arena.holes = jsonPart<number>(parts, 'holes', isCount)
    arena.count = count
    return arena
  }
}
