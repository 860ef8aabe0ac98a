import { describe, expect, it } from 'vitest'
import { Bm25Index } from './bm25/bm25-index.js'
import {
  decodeSnapshot,
  decodeSnapshotSliced,
  encodeSnapshot,
  encodeSnapshotSliced,
  type SnapshotParts,
} from './snapshot-codec.js'
import { runWhole, SLICE_ITEMS } from './sliced-work.js'

describe('snapshot codec', () => {
  it('gives back JSON values, typed arrays and string lists, a NUL inside a string included', () => {
    const parts: SnapshotParts = {
      json: { count: 3, nested: { a: [1, 'b'] } },
      arrays: {
        bytes: Uint8Array.of(1, 2, 3),
        words: Uint32Array.of(7, 2 ** 32 - 1),
        signed: Int32Array.of(-1, 5),
        reals: Float64Array.of(0.5, -Infinity),
      },
      strings: { plain: ['a', '', 'ünïcode', 'z'], odd: ['x\u0000y', 'z'], none: [] },
    }
    const back = decodeSnapshot(encodeSnapshot(parts))
    expect(back.json).toEqual(parts.json)
    expect(back.arrays).toEqual(parts.arrays)
    expect(back.strings).toEqual(parts.strings)
  })

  it('decodes in steps, yielding after each string list, to the parts a decode in one go gives', () => {
    const list = Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? '' : `ünïcode-€-${i}`))
    const parts: SnapshotParts = {
      json: {},
      arrays: { a: Uint32Array.of(1, 2) },
      strings: { list, tail: ['', ''], none: [] },
    }
    const bytes = encodeSnapshot(parts)
    const work = decodeSnapshotSliced(bytes)
    let yields = 0
    let step = work.next()
    for (; step.done !== true; step = work.next()) yields++
    expect(step.value).toEqual(decodeSnapshot(bytes))
    expect(step.value.strings).toEqual(parts.strings)
    expect(yields).toBe(3)
  })

  it('refuses a file cut short or grown, and one that is not a snapshot', () => {
    const bytes = encodeSnapshot({ json: {}, arrays: { a: new Uint32Array(100) } })
    expect(() => decodeSnapshot(bytes.subarray(0, bytes.length - 1))).toThrow(/bytes, expected/)
    expect(() => decodeSnapshot(Buffer.concat([bytes, Buffer.of(0)]))).toThrow(/bytes, expected/)
    expect(() => decodeSnapshot(Buffer.from('{"json":{}}'))).toThrow(/not an index snapshot/)
  })

  it('restores a BM25 index that scores as the original, without its removed documents', () => {
    const index = new Bm25Index()
    for (let i = 0; i < 50; i++)
      index.add(`d${i}`, `doc ${i} about ${i % 7 === 0 ? 'walrus' : 'seal'}`)
    index.add('gone', 'a secret xylophonist')
    index.remove('gone')
    const restored = Bm25Index.fromParts(decodeSnapshot(encodeSnapshot(index.toParts())))
    for (const query of ['walrus', 'seal doc 14', 'xylophonist'])
      expect(restored.search(query, 10)).toEqual(index.search(query, 10))
    expect(restored.size).toBe(50)
    expect(restored.has('gone')).toBe(false)
    // The restored index goes on taking documents.
    restored.add('new', 'walrus walrus')
    expect(restored.search('walrus', 1)[0]!.id).toBe('new')
  })

  it('encode in slices to the bytes an encode in one go makes, with room after them', () => {
    const ids = Array.from({ length: 2 * SLICE_ITEMS + 5 }, (_, i) => `id-${i}-é`)
    const parts: SnapshotParts = {
      json: { n: ids.length },
      arrays: {
        big: Float64Array.from({ length: 300_000 }, (_, i) => i / 3),
        small: Uint8Array.of(1, 2, 3),
      },
      strings: {
        ids,
        // A NUL in a later piece: the whole list is stored as JSON, as in one go.
        late: [...ids.slice(0, SLICE_ITEMS + 1), 'a\u0000b'],
        empty: [],
        blank: [''],
        endsBlank: [...ids.slice(0, SLICE_ITEMS), ''],
      },
    }
    const whole = encodeSnapshot(parts)
    const work = encodeSnapshotSliced(parts, 32)
    let slices = 0
    let step = work.next()
    for (; step.done !== true; step = work.next()) slices++
    const sliced = step.value
    expect(sliced.length).toBe(whole.length + 32)
    expect(sliced.subarray(0, whole.length).equals(whole)).toBe(true)
    expect(sliced.subarray(whole.length).every((b) => b === 0)).toBe(true)
    // Three pieces of `ids`, two of `endsBlank`, three MiB of `big`, at least.
    expect(slices).toBeGreaterThan(3 + 2 + 2)
    expect(decodeSnapshot(whole)).toEqual(decodeSnapshot(runWhole(encodeSnapshotSliced(parts))))
    expect(decodeSnapshot(whole).strings).toEqual(parts.strings)
  })
})
