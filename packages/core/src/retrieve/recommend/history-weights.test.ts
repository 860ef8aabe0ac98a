import { describe, expect, it } from 'vitest'
import { historyWeights } from './history-weights.js'
import type { Interaction } from './target-interactions.js'

const at = (time: number, weight = 1): Interaction => ({ weight, events: [], time })

describe('historyWeights', () => {
  it('halves per half-life of recency rank; ties share a rank; undated rank last', () => {
    const history = new Map<number, Interaction>([
      [1, at(100)],
      [2, at(300, 0.5)],
      [3, at(200)],
      [4, at(200)],
      [5, at(Number.NaN)],
    ])
    const w = historyWeights(history, 2)
    expect(w.get(2)).toBe(0.5) // newest: its own weight
    expect(w.get(3)).toBeCloseTo(0.5 ** (1 / 2)) // one interaction strictly newer
    expect(w.get(4)).toBeCloseTo(0.5 ** (1 / 2)) // tie with 3: same rank
    expect(w.get(1)).toBeCloseTo(0.5 ** (3 / 2)) // 2, 3 and 4 are newer
    expect(w.get(5)).toBeCloseTo(0.5 ** (4 / 2))
  })

  it('keeps every interaction at its own weight with an infinite half-life', () => {
    const history = new Map([
      [1, at(1, 0.2)],
      [2, at(2, 1)],
    ])
    expect([...historyWeights(history, Number.POSITIVE_INFINITY)]).toEqual([
      [2, 1],
      [1, 0.2],
    ])
  })

  it('leaves out interactions older than ten half-lives', () => {
    const history = new Map(Array.from({ length: 30 }, (_, i) => [i, at(i)] as const))
    const w = historyWeights(history, 1)
    expect(w.size).toBe(11) // ranks 0..10
    expect(w.has(29)).toBe(true)
    expect(w.has(18)).toBe(false)
  })
})
