import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { benchVectors, unavailableVectors } from './bench-vectors.js'
import { testEmbedder } from './test-embedder.js'

describe('benchVectors', () => {
  it('is lazy, then prepares: a cold run embeds, a warm run reads the cache', async () => {
    const cacheDir = join(mkdtempSync(join(tmpdir(), 'engram-bench-vectors-')), 'vectors')
    let created = 0
    const create = () => (created++, testEmbedder('bow', 8))
    const cold = benchVectors({ cacheDir, create })
    expect(created).toBe(0)
    expect(existsSync(cacheDir)).toBe(false)
    const lines: string[] = []
    const first = await cold.prepare(['a', 'b', 'a', 'c'], (l) => lines.push(l))
    expect(first).toMatchObject({ embedder: 'bow', dimension: 8, texts: 3, cached: 0, embedded: 3 })
    expect(lines.at(-1)).toMatch(/3 texts, 0 from the cache, 3 embedded/)
    await cold.close()
    const warm = await benchVectors({ cacheDir, create }).prepare(['c', 'a', 'd'], () => {})
    expect(warm).toMatchObject({ texts: 3, cached: 2, embedded: 1 })
  })

  it('unavailableVectors refuses with its reason', () => {
    expect(() => unavailableVectors('synthetic text').embedder()).toThrow(/synthetic text/)
  })
})
