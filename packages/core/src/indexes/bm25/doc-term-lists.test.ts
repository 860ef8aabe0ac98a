import { describe, expect, it } from 'vitest'
import { DocTermLists } from './doc-term-lists.js'

describe('DocTermLists', () => {
  it("gives back each document's terms and frequencies, and a term's tf", () => {
    const lists = new DocTermLists()
    const docs = Array.from({ length: 500 }, (_, d) => {
      const terms = Array.from({ length: d % 13 }, (_, i) => i * 1000 + d)
      return { terms, tfs: terms.map((t) => 1 + (t % 200)) }
    })
    docs.forEach(({ terms, tfs }, d) => expect(lists.append(terms, tfs)).toBe(d))
    expect(lists.documents).toBe(500)
    docs.forEach(({ terms, tfs }, d) => {
      expect([...lists.entries(d)]).toEqual(terms.map((t, i) => [t, tfs[i]]))
      if (terms.length > 0) expect(lists.tf(d, terms.at(-1)!)).toBe(tfs.at(-1))
      expect(lists.tf(d, d + 1)).toBe(0)
      expect(lists.tf(d, 999_999)).toBe(0)
    })
  })

  it('says which of a sorted set of terms a document holds, past multi-byte terms and frequencies', () => {
    const lists = new DocTermLists()
    // Term numbers and frequencies of one to three bytes each.
    const terms = [0, 3, 127, 128, 20_000, 20_001, 3_000_000]
    const tfs = [1, 300, 1, 2, 70_000, 1, 5]
    lists.append(terms, tfs)
    lists.append([], [])
    const asked = [0, 1, 127, 129, 20_000, 20_001, 2_999_999, 3_000_000, 4_000_000]
    expect(lists.holds(0, asked)).toEqual(asked.map((t) => terms.includes(t)))
    expect(lists.holds(0, [])).toEqual([])
    expect(lists.holds(1, [0, 3])).toEqual([false, false])
  })

  it("erases a document's list without moving its neighbours", () => {
    const lists = new DocTermLists()
    lists.append([1, 5], [1, 2])
    lists.append([2, 3], [4, 1])
    lists.append([7], [1])
    lists.erase(1)
    expect([...lists.entries(0)]).toEqual([
      [1, 1],
      [5, 2],
    ])
    expect([...lists.entries(2)]).toEqual([[7, 1]])
  })
})
