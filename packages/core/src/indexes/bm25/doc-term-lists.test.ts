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
