import { describe, expect, it } from 'vitest'
import { compareRankings, maxScoreDifference } from './compare-rankings.js'

const hits = (...pairs: [string, number][]) => pairs.map(([key, score]) => ({ key, score }))

describe('compareRankings', () => {
  it('tells identical rankings from rankings whose scores, order or hits differ', () => {
    const a = hits(['x', 0.9], ['y', 0.5], ['z', 0.1])
    expect(compareRankings(a, hits(['x', 0.9], ['y', 0.5 + 1e-12], ['z', 0.1]))).toBe('identical')
    expect(compareRankings(a, hits(['x', 0.9], ['y', 0.51], ['z', 0.1]))).toBe('scores-differ')
    expect(compareRankings(a, hits(['x', 0.9], ['z', 0.5], ['y', 0.1]))).toBe('order-differs')
    expect(compareRankings(a, hits(['x', 0.9], ['y', 0.5], ['w', 0.1]))).toBe('hits-differ')
    expect(compareRankings(a, hits(['x', 0.9], ['y', 0.5]))).toBe('hits-differ')
    expect(compareRankings([], [])).toBe('identical')
  })

  it('measures the largest score gap between the same hit at the same rank', () => {
    const a = hits(['x', 0.9], ['y', 0.5], ['z', 0.1])
    expect(maxScoreDifference(a, hits(['x', 0.8], ['y', 0.2], ['w', 0.9]))).toBeCloseTo(0.3)
    expect(maxScoreDifference(a, hits(['q', 0.1]))).toBe(0)
  })
})
