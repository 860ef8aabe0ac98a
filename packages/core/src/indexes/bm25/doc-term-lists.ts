import { arrayPart, isCount, jsonPart, type SnapshotParts } from '../snapshot-codec.js'
import { pairLength, readPairs, withLength, writePair } from './vint.js'

/**
 * Each document's distinct terms with their frequencies (a forward index), which removal needs to
 * lower document frequencies, replacement to see whether a document changed, and `explain` to read a
 * tf. Documents are numbered in the order they come, so their lists sit back to back in one byte array,
 * `offsets[doc]` to `offsets[doc + 1]`: term numbers in increasing order, delta-encoded with the
 * frequency as the BM25 postings are (`vint.ts`).
 */
export class DocTermLists {
  private bytes = new Uint8Array(256)
  private offsets = new Uint32Array(16)
  private count = 0

  /** Documents appended (removed ones included). */
  get documents(): number {
    return this.count
  }

  /** Bytes of the typed arrays held. */
  get byteLength(): number {
    return this.bytes.byteLength + this.offsets.byteLength
  }

  /** Appends the next document's list: `terms` in increasing order, `tfs` beside them. */
  append(terms: ArrayLike<number>, tfs: ArrayLike<number>): number {
    let size = 0
    for (let i = 0, prev = -1; i < terms.length; prev = terms[i++]!)
      size += pairLength(terms[i]! - prev, tfs[i]!)
    const from = this.offsets[this.count]!
    this.bytes = withLength(this.bytes, from + size)
    let pos = from
    for (let i = 0, prev = -1; i < terms.length; prev = terms[i++]!)
      pos = writePair(this.bytes, pos, terms[i]! - prev, tfs[i]!)
    this.offsets = withLength(this.offsets, this.count + 2)
    this.offsets[++this.count] = pos
    return this.count - 1
  }

  /** `doc`'s terms and their frequencies, in increasing term order. */
  entries(doc: number): Generator<[term: number, tf: number]> {
    return readPairs(this.bytes, this.offsets[doc]!, this.offsets[doc + 1]!)
  }

  /** The frequency of `term` in `doc` (0 when it has none). */
  tf(doc: number, term: number): number {
    for (const [t, tf] of this.entries(doc)) if (t >= term) return t === term ? tf : 0
    return 0
  }

  /**
   * Whether `doc` holds each of `terms` (increasing term numbers): `held[i]` for `terms[i]`. One merge
   * pass over the document's list, decoded inline without allocating pairs (the coverage rerank asks
   * this of twenty documents a query).
   */
  holds(doc: number, terms: readonly number[]): boolean[] {
    const held = terms.map(() => false)
    const bytes = this.bytes
    let pos = this.offsets[doc]!
    const to = this.offsets[doc + 1]!
    let term = -1
    let next = 0
    while (pos < to && next < terms.length) {
      let b = bytes[pos++]!
      let v = b & 0x7f
      for (let shift = 7; b >= 0x80; shift += 7) {
        b = bytes[pos++]!
        v += (b & 0x7f) * 2 ** shift
      }
      // A pair's frequency follows when the low bit is clear (`vint.ts`); skip it.
      if ((v & 1) === 0) while (bytes[pos++]! >= 0x80);
      term += Math.floor(v / 2)
      while (next < terms.length && terms[next]! < term) next++
      if (next < terms.length && terms[next] === term) held[next++] = true
    }
    return held
  }

  /**
   * Zeroes a removed document's list, so what it held is not kept until the next compaction. Its
   * number stays taken; its list must not be read again.
   */
  erase(doc: number): void {
    this.bytes.fill(0, this.offsets[doc]!, this.offsets[doc + 1]!)
  }

  /** The lists as snapshot parts (`snapshot-codec.ts`). */
  toParts(): SnapshotParts {
    return {
      json: { count: this.count },
      arrays: {
        bytes: this.bytes.subarray(0, this.offsets[this.count]),
        offsets: this.offsets.subarray(0, this.count + 1),
      },
    }
  }

  /** The lists `toParts` described; throws on parts that do not fit together. */
  static fromParts(parts: SnapshotParts): DocTermLists {
    const lists = new DocTermLists()
    const count = jsonPart<number>(parts, 'count', isCount)
    const offsets = arrayPart(parts, 'offsets', Uint32Array)
    const bytes = arrayPart(parts, 'bytes', Uint8Array)
    if (offsets.length !== count + 1 || offsets[count] !== bytes.length)
      throw new Error('document term lists parts disagree')
    lists.count = count
    lists.offsets = withLength(offsets, 16)
    lists.bytes = withLength(bytes, 256)
    return lists
  }
}
