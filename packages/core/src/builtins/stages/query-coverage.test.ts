import { describe, expect, it } from 'vitest'
import type { SearchContext, StageHit, TermWeight } from '../../contracts/search-plugins.js'
import { coverQuery, queryCoverage } from './query-coverage.js'

/** Words of a text, each weighing 1 unless `idf` says otherwise (a stand-in for the passage index). */
const termsOf =
  (idf: Record<string, number> = {}) =>
  (text: string): TermWeight[] =>
    [...new Set(text.toLowerCase().match(/[a-z]+/g) ?? [])].map((term) => ({
      term,
      idf: idf[term] ?? 1,
    }))

const hit = (id: string, score: number, text: string): StageHit => ({
  id,
  score,
  text,
  entity: null,
})

// A two-hop question: the river's passage names the country, the waterfall's passage the waterfall.
const QUERY = 'waterfall country bubye river'
const HITS = [
  hit('bubye', 10, 'The Bubye River is a river in the country Zimbabwe'),
  hit('limpopo', 8, 'The Limpopo River: Bubye river joins it'),
  hit('falls', 6, 'Victoria Falls is a waterfall in Zimbabwe'),
  hit('other', 5, 'Unrelated text'),
]

describe('coverQuery', () => {
  it('gives the next place to the passage holding the words still uncovered', () => {
    const out = coverQuery(HITS, termsOf()(QUERY), 0.7, termsOf())
    // The waterfall passage overtakes a second passage about the river.
    expect(out.order).toEqual(['bubye', 'falls', 'limpopo', 'other'])
  })

  it('keeps the incoming order at lambda 0', () => {
    const out = coverQuery(HITS, termsOf()(QUERY), 0, termsOf())
    expect(out.order).toEqual(['bubye', 'limpopo', 'falls', 'other'])
    // Scores are the hits' own when coverage weighs nothing.
    expect([...out.scores.values()]).toEqual([10, 8, 6, 5])
  })

  it('weighs query words by idf: a rare word uncovered outweighs a common one', () => {
    const hits = [hit('a', 10, 'alpha beta'), hit('b', 9, 'gamma'), hit('c', 9, 'delta')]
    const query = termsOf({ gamma: 1, delta: 5, alpha: 1, beta: 1 })('alpha beta gamma delta')
    expect(coverQuery(hits, query, 0.7, termsOf()).order).toEqual(['a', 'c', 'b'])
  })

  it('scores fall with the new order and stay within the head', () => {
    const out = coverQuery(HITS, termsOf()(QUERY), 0.7, termsOf())
    const scores = out.order!.map((id) => out.scores.get(id)!)
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]!)
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(5)
      expect(s).toBeLessThanOrEqual(10)
    }
  })

  it('answers no hits, equal scores and a query with no indexed word', () => {
    expect(coverQuery([], termsOf()(QUERY), 0.7, termsOf())).toEqual({
      scores: new Map(),
      order: [],
    })
    const equal = [hit('x', 2, 'river'), hit('y', 2, 'waterfall')]
    expect([...coverQuery(equal, termsOf()(QUERY), 0.7, termsOf()).scores.values()]).toEqual([2, 2])
    expect(coverQuery(HITS, [], 0.7, termsOf()).order).toEqual([
      'bubye',
      'limpopo',
      'falls',
      'other',
    ])
  })
})

describe('queryCoverage', () => {
  it('loads the head passages, re-orders them through the passage index terms', async () => {
    const stage = queryCoverage({ head: 3 })
    expect(stage).toMatchObject({ kind: 'stage', name: 'coverage', reads: 'candidates', head: 3 })
    const asked: string[] = []
    const texts = new Map(HITS.map((h) => [h.id, h.text]))
    const ctx = {
      graph: {
        passages: async (ids: string[]) => ids.map((id) => ({ id, text: texts.get(id)! })),
      },
      text: {
        terms: (index: string, text: string) => {
          asked.push(index)
          return termsOf()(text)
        },
      },
    } as unknown as SearchContext
    const bare = HITS.map((h) => ({ ...h, text: '' }))
    const out = await stage.run(QUERY, bare, ctx, { lists: [] })
    expect(out instanceof Map ? null : out.order).toEqual(['bubye', 'falls', 'limpopo', 'other'])
    expect(new Set(asked)).toEqual(new Set(['passages']))
  })
})
