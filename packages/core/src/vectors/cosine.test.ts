import { describe, expect, it } from 'vitest'
import { cosine, cosineOrNull } from './cosine.js'

const v = (...xs: number[]) => Float32Array.from(xs)

describe('cosine', () => {
  it('normalises both sides', () => {
    expect(cosine(v(3, 0), v(5, 0))).toBe(1)
    expect(cosine(v(1, 0), v(0, 2))).toBe(0)
    expect(cosine(v(1, 1), v(-2, -2))).toBeCloseTo(-1, 12)
    expect(cosine(v(1, 2, 3), v(4, 5, 6))).toBeCloseTo(32 / Math.sqrt(14 * 77), 6)
  })

  it('is 0 (cosine) or null (cosineOrNull) for differing dimensions, zero or empty vectors', () => {
    for (const [a, b] of [
      [v(1, 0), v(1, 0, 0)],
      [v(0, 0), v(1, 0)],
      [v(), v()],
    ] as const) {
      expect(cosine(a, b)).toBe(0)
      expect(cosineOrNull(a, b)).toBeNull()
    }
  })
})
