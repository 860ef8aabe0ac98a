import { describe, expect, it } from 'vitest'
import { l2Normalize } from './l2-normalize.js'
import { VectorCache } from './vector-cache.js'

const fake = (calls: string[][]) => async (texts: string[]) => {
  calls.push(texts)
  return texts.map((text) => Float32Array.of(text.length, 1))
}

describe('VectorCache', () => {
  it('computes each distinct uncached text once, in one call, and keeps input order', async () => {
    const calls: string[][] = []
    const cache = new VectorCache(10)
    const out = await cache.through(['aa', 'b', 'aa', 'ccc'], fake(calls))
    expect(out.map((v) => v[0])).toEqual([2, 1, 2, 3])
    expect(calls).toEqual([['aa', 'b', 'ccc']])
    await cache.through(['b', 'dddd'], fake(calls))
    expect(calls).toEqual([['aa', 'b', 'ccc'], ['dddd']])
    expect(await cache.through([], fake(calls))).toEqual([])
    expect(calls).toHaveLength(2)
  })

  it('evicts the least recently used entry beyond its bound', async () => {
    const calls: string[][] = []
    const cache = new VectorCache(2)
    await cache.through(['a', 'b'], fake(calls))
    await cache.through(['a'], fake(calls)) // a is now the most recent
    await cache.through(['c'], fake(calls)) // evicts b
    expect(cache.size).toBe(2)
    await cache.through(['a', 'b'], fake(calls))
    expect(calls.at(-1)).toEqual(['b'])
  })

  it('hands out copies, and stores nothing when disabled', async () => {
    const calls: string[][] = []
    const cache = new VectorCache(1)
    const [first] = await cache.through(['x'], fake(calls))
    first!.fill(9)
    expect([...(await cache.through(['x'], fake(calls)))[0]!]).toEqual([1, 1])
    const off = new VectorCache(0)
    await off.through(['x'], fake(calls))
    await off.through(['x'], fake(calls))
    expect(off.size).toBe(0)
    expect(calls).toHaveLength(3)
  })
})

describe('l2Normalize', () => {
  it('scales to unit length and leaves a zero vector at zero', () => {
    expect([...l2Normalize([3, 4])]).toEqual([0.6, 0.8].map(Math.fround))
    expect([...l2Normalize([0, 0])]).toEqual([0, 0])
  })
})
