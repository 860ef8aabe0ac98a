import { appendFileSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cacheFileName, DiskVectorCache, textKey } from './disk-vector-cache.js'

const dir = () => mkdtempSync(join(tmpdir(), 'engram-vector-cache-'))
const vec = (...xs: number[]) => Float32Array.from(xs)

describe('DiskVectorCache', () => {
  it('misses, then hits after put, and keeps hits across reopening', () => {
    const d = dir()
    const cache = DiskVectorCache.open(d, 'm', 3)
    expect(cache.get('hello')).toBeUndefined()
    cache.put(['hello', 'world'], [vec(1, 0, 0), vec(0, 1, 0)])
    expect(cache.get('hello')).toEqual(vec(1, 0, 0))
    const reopened = DiskVectorCache.open(d, 'm', 3)
    expect(reopened.size).toBe(2)
    expect(reopened.get('world')).toEqual(vec(0, 1, 0))
    expect(reopened.has('other')).toBe(false)
  })

  it('keys by embedder name: the same text under another embedder is a miss', () => {
    const d = dir()
    DiskVectorCache.open(d, 'use-lite', 2).put(['t'], [vec(1, 0)])
    expect(DiskVectorCache.open(d, 'openai:small', 2).get('t')).toBeUndefined()
    expect(DiskVectorCache.open(d, 'use-lite', 2).get('t')).toEqual(vec(1, 0))
    expect(cacheFileName('a:b', 2)).not.toBe(cacheFileName('a/b', 2))
    expect(readdirSync(d)).toHaveLength(2)
  })

  it('keys by the SHA-256 of the exact text', () => {
    expect(textKey('a')).toBe('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb')
    const cache = DiskVectorCache.open(dir(), 'm', 1)
    cache.put(['a'], [vec(1)])
    expect(cache.get('a ')).toBeUndefined()
  })

  it('returns copies, refuses wrong dimensions and non-finite values, and stores a text once', () => {
    const d = dir()
    const cache = DiskVectorCache.open(d, 'm', 2)
    cache.put(['x', 'x'], [vec(1, 2), vec(3, 4)])
    cache.get('x')![0] = 99
    expect(cache.get('x')).toEqual(vec(1, 2))
    expect(() => cache.put(['y'], [vec(1)])).toThrow(/1-d vector/)
    expect(() => cache.put(['y'], [vec(NaN, 1)])).toThrow(/non-finite/)
    expect(DiskVectorCache.open(d, 'm', 2).size).toBe(1)
  })

  it('cuts a torn last record when opened', () => {
    const d = dir()
    DiskVectorCache.open(d, 'm', 2).put(['a', 'b'], [vec(1, 0), vec(0, 1)])
    const file = join(d, cacheFileName('m', 2))
    const whole = statSync(file).size
    appendFileSync(file, Buffer.alloc(17))
    const cache = DiskVectorCache.open(d, 'm', 2)
    expect(cache.size).toBe(2)
    expect(statSync(file).size).toBe(whole)
  })
})
