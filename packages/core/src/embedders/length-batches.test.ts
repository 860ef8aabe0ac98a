import { describe, expect, it } from 'vitest'
import { joins, lengthBatches, SHORT_TEXT_CHARS } from './length-batches.js'

describe('lengthBatches', () => {
  it('groups texts by length, shortest first, ties in input order', () => {
    expect(lengthBatches([300, 5, 7, 5, 290], 2, 10_000)).toEqual([[1, 3], [2], [4, 0]])
  })

  it('keeps rows x longest within maxCells; a text longer than that goes alone', () => {
    // 3 x 4 = 12 > 10, so the third 4 starts a new batch; 50 alone exceeds the budget.
    expect(lengthBatches([4, 4, 4, 50, 2], 32, 10)).toEqual([[4, 0], [1, 2], [3]])
  })

  it('returns every index exactly once and nothing for no texts', () => {
    const sizes = Array.from({ length: 500 }, (_, i) => (i * 7919) % 1500)
    const batches = lengthBatches(sizes, 32, 4000)
    expect(batches.flat().sort((a, b) => a - b)).toEqual(sizes.map((_, i) => i))
    for (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(32)
      const longest = Math.max(1, ...batch.map((i) => sizes[i]!))
      if (batch.length > 1) expect(batch.length * longest).toBeLessThanOrEqual(4000)
      const shortest = Math.min(...batch.map((i) => sizes[i]!))
      if (longest > SHORT_TEXT_CHARS) expect(longest).toBeLessThanOrEqual(2 * Math.max(1, shortest))
    }
    expect(lengthBatches([], 32, 4000)).toEqual([])
  })

  it('pads no text to more than twice its length, unless the batch is of short texts', () => {
    // A 700-character passage fits 5 rows in 4,000 cells, but a 90-character text is not padded to it.
    expect(lengthBatches([700, 90, 20, 400], 32, 4000)).toEqual([[2], [1], [3, 0]])
    // Texts of up to SHORT_TEXT_CHARS batch together whatever their ratio.
    expect(lengthBatches([1, SHORT_TEXT_CHARS, 3], 32, 4000)).toEqual([[0, 2, 1]])
    expect(joins(2, 30, 61, 32, 4000)).toBe(false)
    expect(joins(2, 60, 120, 32, 4000)).toBe(true)
  })

  it('counts an empty text as one cell', () => {
    expect(lengthBatches([0, 0, 0], 8, 2)).toEqual([[0, 1], [2]])
  })
})
