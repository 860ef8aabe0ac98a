import { describe, expect, it } from 'vitest'
import { pairLength, readPairs, vintLength, withLength, writePair, writeVint } from './vint.js'

describe('vint', () => {
  it('writes each value in the bytes vintLength gives, 7 bits a byte, low bits first', () => {
    const bytes = new Uint8Array(8)
    expect(writeVint(bytes, 0, 300)).toBe(2)
    expect([...bytes.subarray(0, 2)]).toEqual([0xac, 0x02])
    for (const v of [0, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 32 - 1])
      expect(writeVint(bytes, 0, v)).toBe(vintLength(v))
  })

  it('round-trips (delta, frequency) pairs, a frequency of 1 folded into the delta', () => {
    const values = [0, 1, 2, 200, 201, 70_000, 2 ** 31 - 2]
    const freqs = [1, 3, 1, 128, 1, 2 ** 20, 7]
    const bytes = new Uint8Array(100)
    let pos = 0
    for (let i = 0, prev = -1; i < values.length; prev = values[i++]!) {
      const next = writePair(bytes, pos, values[i]! - prev, freqs[i]!)
      expect(next - pos).toBe(pairLength(values[i]! - prev, freqs[i]!))
      pos = next
    }
    expect([...readPairs(bytes, 0, pos)]).toEqual(values.map((v, i) => [v, freqs[i]]))
    // A frequency of 1 costs nothing beyond the delta.
    expect(pairLength(5, 1)).toBe(1)
    expect(pairLength(5, 2)).toBe(2)
  })

  it('grows typed arrays to at least twice their length, keeping their contents', () => {
    const a = Uint32Array.from([1, 2, 3])
    expect(withLength(a, 3)).toBe(a)
    const b = withLength(a, 4)
    expect(b.length).toBe(8)
    expect([...b.subarray(0, 4)]).toEqual([1, 2, 3, 0])
  })
})
