import { describe, expect, it } from 'vitest'
import { docsInOrder, docVotes } from './doc-votes.js'

describe('docVotes', () => {
  const sources: Record<string, string[]> = {
    p1: ['d1'],
    p2: ['d2'],
    'p2#2': ['d2'], // the second chunk of d2
    event: ['d3'],
    entity: ['d1', 'd2', 'd4', 'd4'],
    orphan: [],
  }
  const docsOf = (id: string) => sources[id] ?? []

  it("credits a passage hit to its document and an event's to the turn it came from", () => {
    expect(
      docVotes(
        [
          { id: 'event', score: 0.5 },
          { id: 'p1', score: 0.25 },
        ],
        docsOf,
      ),
    ).toEqual([
      { id: 'd3', score: 0.5 },
      { id: 'd1', score: 0.25 },
    ])
  })

  it("splits an entity's score evenly over its distinct source documents and sums the votes", () => {
    const ranked = docVotes(
      [
        { id: 'p2', score: 0.1 },
        { id: 'entity', score: 0.3 },
        { id: 'p2#2', score: 0.05 },
        { id: 'orphan', score: 1 },
        { id: 'unknown', score: 1 },
      ],
      docsOf,
    )
    // d2: 0.1 + 0.05 (both chunks) + 0.3 / 3; d1 and d4: 0.3 / 3 each, tie broken by id.
    expect(ranked.map((h) => h.id)).toEqual(['d2', 'd1', 'd4'])
    expect(ranked[0]!.score).toBeCloseTo(0.25, 12)
    expect(ranked[1]!.score).toBeCloseTo(0.1, 12)
    expect(ranked[2]!.score).toBeCloseTo(0.1, 12)
  })

  it('returns nothing for no hits', () => {
    expect(docVotes([], docsOf)).toEqual([])
  })
})

describe('docsInOrder', () => {
  it('keeps the first occurrence of each document, skips unknown passages, scores fall with rank', () => {
    const docOf = (id: string) => ({ a: 'd1', b: 'd2', c: 'd1', e: 'd3' })[id]
    expect(docsInOrder(['b', 'x', 'a', 'c', 'e', 'b'], docOf)).toEqual([
      { id: 'd2', score: 3 },
      { id: 'd1', score: 2 },
      { id: 'd3', score: 1 },
    ])
  })
})
