import { describe, expect, it } from 'vitest'
import { csrRanges, ranges, runSliced, runWhole, SLICE_ITEMS, type Sliced } from './sliced-work.js'

/** Every range `ranges` or `csrRanges` hands to its body, and the result of running it whole. */
function cuts(work: (body: (from: number, to: number) => void) => Sliced<void>): number[][] {
  const seen: number[][] = []
  runWhole(work((from, to) => seen.push([from, to])))
  return seen
}

describe('sliced work', () => {
  it('gives the same result whole or sliced, pausing at every yield', async () => {
    function* sum(n: number): Sliced<number> {
      let total = 0
      yield* ranges(n, (from, to) => {
        for (let i = from; i < to; i++) total += i
      })
      return total
    }
    const n = SLICE_ITEMS * 3 + 5
    let pauses = 0
    const sliced = await runSliced(sum(n), () => {
      pauses++
      return new Promise<void>((resolve) => setImmediate(resolve))
    })
    expect(sliced).toBe(runWhole(sum(n)))
    expect(sliced).toBe((n * (n - 1)) / 2)
    expect(pauses).toBe(4)
  })

  it('cuts items into ranges of SLICE_ITEMS, in order, covering each once', () => {
    expect(cuts((body) => ranges(0, body))).toEqual([])
    expect(cuts((body) => ranges(SLICE_ITEMS + 1, body))).toEqual([
      [0, SLICE_ITEMS],
      [SLICE_ITEMS, SLICE_ITEMS + 1],
    ])
  })

  it('cuts CSR lists after SLICE_ITEMS lists or values, a long list alone', () => {
    // Ten lists of 1,000 values, one of 10,000, then 5,000 empty ones.
    const lengths = [...Array<number>(10).fill(1000), 10_000, ...Array<number>(5000).fill(0)]
    const offsets = [0]
    for (const length of lengths) offsets.push(offsets[offsets.length - 1]! + length)
    const seen = cuts((body) => csrRanges(offsets, lengths.length, body))
    expect(seen[0]).toEqual([0, 5]) // 5,000 values: past SLICE_ITEMS (4,096)
    expect(seen[1]).toEqual([5, 10])
    expect(seen[2]).toEqual([10, 11]) // the long list alone
    expect(seen[3]).toEqual([11, 11 + SLICE_ITEMS]) // empty lists, SLICE_ITEMS of them
    expect(seen.flat()[0]).toBe(0)
    expect(seen[seen.length - 1]![1]).toBe(lengths.length)
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBe(seen[i - 1]![1])
  })
})
