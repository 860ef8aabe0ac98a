import { describe, expect, it } from 'vitest'
import { Bm25Index } from '../indexes/bm25/bm25-index.js'
import type { RetrieveDeps } from './retrieve-deps.js'
import { QUERY_COVERAGE_DEFAULTS } from '../builtins/stages/query-coverage.js'
import { coverPackPassages } from './context-pack-coverage.js'

const TEXTS: Record<string, string> = {
  river: 'The Bubye River is a river in Zimbabwe',
  river2: 'The Limpopo receives the Bubye River',
  falls: 'Victoria Falls is a waterfall in Zimbabwe',
}

function deps(): Pick<RetrieveDeps, 'store' | 'indexes'> {
  const passages = new Bm25Index()
  for (const [id, text] of Object.entries(TEXTS)) passages.add(id, text)
  passages.add('x', 'unrelated words')
  return {
    store: {
      passages: {
        get: async (ids: string[]) => ids.map((id) => ({ id, text: TEXTS[id] ?? '' })),
      },
    },
    indexes: { passages },
  } as unknown as Pick<RetrieveDeps, 'store' | 'indexes'>
}

describe('coverPackPassages', () => {
  it('puts the passage holding the uncovered words of the text before a redundant one', async () => {
    const ranked = [
      { id: 'river', score: 3 },
      { id: 'river2', score: 2.5 },
      { id: 'falls', score: 2 },
    ]
    const out = await coverPackPassages(
      deps(),
      'the waterfall in the country of the Bubye River',
      ranked,
      QUERY_COVERAGE_DEFAULTS,
    )
    expect(out.ranked.map((c) => c.id)).toEqual(['river', 'falls', 'river2'])
    expect(out.loaded.map((p) => p.id)).toEqual(['river', 'river2', 'falls'])
  })

  it('with a walk, lifts the passage the first one leads to from behind the head', async () => {
    const ranked = [
      { id: 'river', score: 3 },
      { id: 'river2', score: 2.5 },
      { id: 'falls', score: 2 },
      { id: 'x', score: 1 },
    ]
    const walked: string[] = []
    const out = await coverPackPassages(
      deps(),
      'the waterfall in the country of the Bubye River',
      ranked,
      { lambda: 0.7, head: 2, hopWeight: 0.2, pool: 50 },
      async (id) => {
        walked.push(id)
        return new Map([['x', 0.4]])
      },
    )
    expect(walked).toEqual(['river'])
    // `falls` is behind the head and nothing links it: it keeps its place behind the re-ordered ones.
    expect(out.ranked.map((c) => c.id)).toEqual(['river', 'x', 'river2', 'falls'])
    expect(out.loaded.map((p) => p.id)).toEqual(['river', 'river2', 'falls', 'x'])
  })

  it('leaves one passage, or none, as it is', async () => {
    expect(await coverPackPassages(deps(), 'river', [], QUERY_COVERAGE_DEFAULTS)).toEqual({
      ranked: [],
      loaded: [],
    })
    expect(
      await coverPackPassages(
        deps(),
        'river',
        [{ id: 'falls', score: 1 }],
        QUERY_COVERAGE_DEFAULTS,
      ),
    ).toEqual({
      ranked: [{ id: 'falls', score: 1 }],
      loaded: [],
    })
  })
})
