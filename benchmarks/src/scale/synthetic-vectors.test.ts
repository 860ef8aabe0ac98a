import { describe, expect, it } from 'vitest'
import { fnv1a, syntheticEmbedder, syntheticUnitVector } from './synthetic-vectors.js'

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0))

describe('synthetic vectors', () => {
  it('are unit length, 512-d by default, and the same for the same seed', () => {
    const a = syntheticUnitVector(7)
    expect(a).toHaveLength(512)
    expect(norm(a)).toBeCloseTo(1, 5)
    expect(syntheticUnitVector(7)).toEqual(a)
    expect(syntheticUnitVector(8)).not.toEqual(a)
    expect(norm(syntheticUnitVector(3, 5))).toBeCloseTo(1, 5)
  })

  it('hash texts stably (FNV-1a test vectors) and embed a text to its seeded vector', async () => {
    expect(fnv1a('')).toBe(0x811c9dc5)
    expect(fnv1a('a')).toBe(0xe40c292c)
    const e = syntheticEmbedder(16)
    const [v] = await e.embed(['hello'], new AbortController().signal)
    expect(v).toEqual(syntheticUnitVector(fnv1a('hello'), 16))
    expect(e.dimension).toBe(16)
  })
})
