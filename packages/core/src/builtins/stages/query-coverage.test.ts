import { describe, expect, it } from 'vitest'
import type { SearchContext, StageHit, TermWeight } from '../../contracts/search-plugins.js'
import { coverQuery, heldInText, hopCoverage, queryCoverage } from './query-coverage.js'

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

/** Coverage settings without hops. */
const words = (lambda: number, head = 20) => ({ lambda, head, hopWeight: 0 })

describe('coverQuery', () => {
  it('gives the next place to the passage holding the words still uncovered', async () => {
    const out = await coverQuery(HITS, termsOf()(QUERY), words(0.7), heldInText(termsOf()))
    // The waterfall passage overtakes a second passage about the river.
    expect(out.order).toEqual(['bubye', 'falls', 'limpopo', 'other'])
  })

  it('keeps the incoming order at lambda 0', async () => {
    const out = await coverQuery(HITS, termsOf()(QUERY), words(0), heldInText(termsOf()))
    expect(out.order).toEqual(['bubye', 'limpopo', 'falls', 'other'])
    // Scores are the hits' own when coverage weighs nothing.
    expect([...out.scores.values()]).toEqual([10, 8, 6, 5])
  })

  it('weighs query words by idf: a rare word uncovered outweighs a common one', async () => {
    const hits = [hit('a', 10, 'alpha beta'), hit('b', 9, 'gamma'), hit('c', 9, 'delta')]
    const query = termsOf({ gamma: 1, delta: 5, alpha: 1, beta: 1 })('alpha beta gamma delta')
    expect((await coverQuery(hits, query, words(0.7), heldInText(termsOf()))).order).toEqual([
      'a',
      'c',
      'b',
    ])
  })

  it('scores fall with the new order and stay within the head', async () => {
    const out = await coverQuery(HITS, termsOf()(QUERY), words(0.7), heldInText(termsOf()))
    const scores = out.order!.map((id) => out.scores.get(id)!)
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]!)
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(5)
      expect(s).toBeLessThanOrEqual(10)
    }
  })

  it('answers no hits, equal scores and a query with no indexed word', async () => {
    expect(await coverQuery([], termsOf()(QUERY), words(0.7), heldInText(termsOf()))).toEqual({
      scores: new Map(),
      order: [],
    })
    const equal = [hit('x', 2, 'river'), hit('y', 2, 'waterfall')]
    expect([
      ...(
        await coverQuery(equal, termsOf()(QUERY), words(0.7), heldInText(termsOf()))
      ).scores.values(),
    ]).toEqual([2, 2])
    expect((await coverQuery(HITS, [], words(0.7), heldInText(termsOf()))).order).toEqual([
      'bubye',
      'limpopo',
      'falls',
      'other',
    ])
  })
})

// The second hop shares no word with the question, only the bridge entity with the first passage.
const HOP_HITS = [
  hit('bubye', 10, 'The Bubye River is a river in Zimbabwe'),
  hit('limpopo', 8, 'The Limpopo River: Bubye river joins it'),
  hit('harare', 7, 'Harare is a city'),
  hit('zimbabwe', 1, 'Zimbabwe has Victoria Falls'),
]
const HOPS = { lambda: 0.7, head: 3, hopWeight: 0.2 }

describe('coverQuery with hops', () => {
  it('lifts what a walk from the first passage reaches, even from behind the head', async () => {
    const walked: string[] = []
    const hopsFrom = async (id: string) => {
      walked.push(id)
      return new Map([
        ['zimbabwe', 0.3],
        ['limpopo', 0.1],
      ])
    }
    const out = await coverQuery(HOP_HITS, termsOf()(QUERY), HOPS, heldInText(termsOf()), hopsFrom)
    expect(out.order).toEqual(['bubye', 'zimbabwe', 'limpopo', 'harare'])
    // One walk, from the passage placed first.
    expect(walked).toEqual(['bubye'])
    const scores = out.order!.map((id) => out.scores.get(id)!)
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]!)
  })

  it('leaves hits behind the head in place when nothing links them', async () => {
    const out = await coverQuery(
      HOP_HITS,
      termsOf()(QUERY),
      HOPS,
      heldInText(termsOf()),
      async () => new Map(),
    )
    expect(out.order).toEqual(['bubye', 'limpopo', 'harare', 'zimbabwe'])
    expect(out.scores.has('zimbabwe')).toBe(false)
    // Without a walk at all, the same.
    const none = await coverQuery(HOP_HITS, termsOf()(QUERY), HOPS, heldInText(termsOf()))
    expect(none.order).toEqual(out.order)
  })
})

describe('hopCoverage', () => {
  it('walks from the first passage through ctx.graph.walk, or from an entity hit as an entity seed', async () => {
    const stage = hopCoverage({ head: 3 })
    expect(stage).toMatchObject({ kind: 'stage', name: 'hops', reads: 'candidates', head: 50 })
    const texts = new Map(HOP_HITS.map((h) => [h.id, h.text]))
    const seeds: unknown[] = []
    const ctx = (entity: string | null) =>
      ({
        graph: {
          passages: async (ids: string[]) =>
            ids.filter((id) => id !== entity).map((id) => ({ id, text: texts.get(id)! })),
          walk: async (s: unknown) => {
            seeds.push(s)
            return { passages: new Map([['zimbabwe', 1]]), entities: new Map() }
          },
        },
        entities: { labels: (id: string) => (id === entity ? ['PLACE'] : undefined) },
        // No passage index holds these hits: their texts are read and analysed.
        text: {
          terms: (_index: string, text: string) => termsOf()(text),
          held: () => undefined,
        },
      }) as unknown as SearchContext
    const bare = HOP_HITS.map((h) => ({ ...h, text: '' }))
    const out = await stage.run(QUERY, bare, ctx(null), { lists: [] })
    expect(out instanceof Map ? null : out.order).toEqual([
      'bubye',
      'zimbabwe',
      'limpopo',
      'harare',
    ])
    expect(seeds).toEqual([{ passages: new Map([['bubye', 1]]), entities: new Map() }])
    seeds.length = 0
    // A query none of the texts holds: the hits keep their order, so the entity hit comes first.
    await stage.run('nothing here', bare, ctx('bubye'), { lists: [] })
    expect(seeds).toEqual([{ passages: new Map(), entities: new Map([['bubye', 1]]) }])
  })
})

describe('queryCoverage', () => {
  it('re-orders the head through the passage index terms, loading only passages the index lacks', async () => {
    const stage = queryCoverage({ head: 3 })
    expect(stage).toMatchObject({ kind: 'stage', name: 'coverage', reads: 'candidates', head: 3 })
    const asked: string[] = []
    const loaded: string[] = []
    const texts = new Map(HITS.map((h) => [h.id, h.text]))
    // The index holds every hit but `falls` (indexed since, say), whose text is loaded instead.
    const indexed = new Map([...texts].filter(([id]) => id !== 'falls'))
    const ctx = {
      // An entity hit holds no words and is not loaded.
      entities: { labels: (id: string) => (id === 'ann' ? ['PERSON'] : undefined) },
      graph: {
        passages: async (ids: string[]) => {
          loaded.push(...ids)
          return ids.map((id) => ({ id, text: texts.get(id)! }))
        },
      },
      text: {
        terms: (index: string, text: string) => {
          asked.push(index)
          return termsOf()(text)
        },
        held: (index: string, id: string, terms: readonly string[]) => {
          asked.push(index)
          const text = indexed.get(id)
          return text === undefined
            ? undefined
            : heldInText(termsOf())({ ...HITS[0]!, text }, terms)
        },
      },
    } as unknown as SearchContext
    const bare = [...HITS, hit('ann', 1, '')].map((h) => ({ ...h, text: '' }))
    const out = await stage.run(QUERY, bare, ctx, { lists: [] })
    expect(out instanceof Map ? null : out.order).toEqual([
      'bubye',
      'falls',
      'limpopo',
      'other',
      'ann',
    ])
    expect(loaded).toEqual(['falls'])
    expect(new Set(asked)).toEqual(new Set(['passages']))
  })
})
