/**
 * Variable-length integers and the (delta, frequency) pair encoding of the BM25 index's postings and
 * per-document term lists. VInt as in Lucene's file formats: 7 bits per byte, low bits first, the high
 * bit set on every byte but the last. Pairs as Lucene 3.x's `.frq` file: `delta * 2 + 1` alone when the
 * frequency is 1 (most postings), else `delta * 2` followed by the frequency
 * (https://lucene.apache.org/core/3_6_2/fileformats.html#Frequencies). Values stay below 2^32.
 */

/** Bytes `value` (0 <= value < 2^32) takes as a VInt. */
export function vintLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5
}

/** Bytes a (delta, frequency) pair takes. */
export function pairLength(delta: number, freq: number): number {
  return freq === 1 ? vintLength(delta * 2 + 1) : vintLength(delta * 2) + vintLength(freq)
}

/** Writes `value` at `pos`; returns the position after it. */
export function writeVint(bytes: Uint8Array, pos: number, value: number): number {
  let v = value >>> 0
  while (v >= 0x80) {
    bytes[pos++] = (v & 0x7f) | 0x80
    v >>>= 7
  }
  bytes[pos++] = v
  return pos
}

/** Writes a (delta, frequency) pair at `pos`; returns the position after it. */
export function writePair(bytes: Uint8Array, pos: number, delta: number, freq: number): number {
  if (freq === 1) return writeVint(bytes, pos, delta * 2 + 1)
  return writeVint(bytes, writeVint(bytes, pos, delta * 2), freq)
}

/**
 * A reader over pairs in `bytes[from, to)`, yielding absolute values (the running sum of deltas, from
 * `-1`) and frequencies. Hot loops (search) decode inline instead; this serves the cold paths.
 */
export function* readPairs(
  bytes: Uint8Array,
  from: number,
  to: number,
): Generator<[value: number, freq: number]> {
  let pos = from
  let value = -1
  while (pos < to) {
    let b = bytes[pos++]!
    let v = b & 0x7f
    for (let shift = 7; b >= 0x80; shift += 7) {
      b = bytes[pos++]!
      v += (b & 0x7f) * 2 ** shift
    }
    let freq = 1
    if ((v & 1) === 0) {
      b = bytes[pos++]!
      freq = b & 0x7f
      for (let shift = 7; b >= 0x80; shift += 7) {
        b = bytes[pos++]!
        freq += (b & 0x7f) * 2 ** shift
      }
    }
    value += Math.floor(v / 2)
    yield [value, freq]
  }
}

type Growable = Uint8Array | Uint32Array | Int32Array | Float64Array

/** `array` if it holds `length` items, else a copy at least twice as long. */
export function withLength<T extends Growable>(array: T, length: number): T {
  if (length <= array.length) return array
  const grown = new (array.constructor as new (n: number) => T)(
    Math.max(length, array.length * 2, 8),
  )
  grown.set(array as never)
  return grown
}
