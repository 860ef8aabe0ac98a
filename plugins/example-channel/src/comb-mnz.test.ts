import { describe, expect, it } from 'vitest'
import { fuseByCombMnz } from './comb-mnz.js'

describe('CombMNZ (Fox & Shaw 1994)', () => {
  it('sums min-max normalised scores and multiplies by the number of lists (hand-computed)', () => {
    const fused = fuseByCombMnz([
      {
        name: 'bm25',
        signal: 'bm25',
        items: [
          { id: 'a', score: 10 },
          { id: 'b', score: 6 },
          { id: 'c', score: 2 },
        ],
      },
      {
        name: 'plugin:phrase',
        signal: 'plugin',
        items: [
          { id: 'b', score: 1 },
          { id: 'd', score: 0.5 },
        ],
      },
    ])
    // a: 1 × 1 = 1; b: (0.5 + 1) × 2 = 3; c: 0 × 1 = 0; d: 0 × 1 = 0 (ties by id).
    expect(fused).toEqual([
      { id: 'b', score: 3 },
      { id: 'a', score: 1 },
      { id: 'c', score: 0 },
      { id: 'd', score: 0 },
    ])
  })

  it('normalises an all-equal list to 1 and ignores empty lists', () => {
    expect(
      fuseByCombMnz([
        { name: 'x', signal: 'graph', items: [{ id: 'a', score: 3 }] },
        { name: 'y', signal: 'dense', items: [] },
      ]),
    ).toEqual([{ id: 'a', score: 1 }])
    expect(fuseByCombMnz([])).toEqual([])
  })
})
