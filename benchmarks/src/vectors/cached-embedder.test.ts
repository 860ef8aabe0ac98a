import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cachedEmbedder, vectorCacheName } from './cached-embedder.js'
import { DiskVectorCache } from './disk-vector-cache.js'
import { testEmbedder } from './test-embedder.js'

const signal = () => AbortSignal.timeout(5_000)
const dir = () => mkdtempSync(join(tmpdir(), 'engram-cached-embedder-'))

describe('cachedEmbedder', () => {
  it('embeds only distinct misses, in chunks, and answers repeats from the cache', async () => {
    const d = dir()
    const inner = testEmbedder('bow', 8)
    const e = cachedEmbedder(inner, DiskVectorCache.open(d, 'bow', 8), { chunk: 2 })
    expect([e.name, e.dimension]).toEqual(['bow', 8])
    const first = await e.embed(['a b', 'c', 'a b', 'd'], signal())
    expect(inner.calls).toEqual([['a b', 'c'], ['d']])
    expect(first[0]).toEqual(first[2])
    const again = await e.embed(['d', 'c'], signal())
    expect(inner.calls).toHaveLength(2)
    expect(again).toEqual([first[3], first[1]])
    expect(e.counts).toEqual({ hits: 3, misses: 3 })
  })

  it('serves a later process from disk without calling the model', async () => {
    const d = dir()
    const before = await cachedEmbedder(
      testEmbedder('bow', 8),
      DiskVectorCache.open(d, 'bow', 8),
    ).embed(['x y'], signal())
    const inner = testEmbedder('bow', 8)
    const after = await cachedEmbedder(inner, DiskVectorCache.open(d, 'bow', 8)).embed(
      ['x y'],
      signal(),
    )
    expect(after).toEqual(before)
    expect(inner.calls).toEqual([])
  })

  it("never serves another embedder's vectors", async () => {
    const d = dir()
    await cachedEmbedder(testEmbedder('one', 8), DiskVectorCache.open(d, 'one', 8)).embed(
      ['t'],
      signal(),
    )
    const other = testEmbedder('two', 8)
    await cachedEmbedder(other, DiskVectorCache.open(d, 'two', 8)).embed(['t'], signal())
    expect(other.calls).toEqual([['t']])
    expect(() => cachedEmbedder(testEmbedder('two', 8), DiskVectorCache.open(d, 'one', 8))).toThrow(
      /cannot serve two/,
    )
  })
})

describe('vectorCacheName', () => {
  it("names use-lite's int8 vectors apart from its float ones, which keep the model's name", () => {
    const bow = testEmbedder('bow', 8)
    expect(vectorCacheName(bow)).toBe('bow')
    expect(vectorCacheName({ ...bow, name: 'use-lite', precision: 'fp32' })).toBe('use-lite')
    expect(vectorCacheName({ ...bow, name: 'use-lite', precision: 'int8' })).toBe('use-lite:int8')
  })

  it('refuses a cache of the float vectors for the int8 model', () => {
    const int8 = { ...testEmbedder('use-lite', 8), precision: 'int8' }
    expect(() => cachedEmbedder(int8, DiskVectorCache.open(dir(), 'use-lite', 8))).toThrow(
      'cannot serve use-lite:int8',
    )
  })
})
