import type { SearchHit } from '@engram/client'
import { describe, expect, it } from 'vitest'
import { explainHit } from './score-explanation.js'

const hit = (id: string, score: number, scores: SearchHit['scores']): SearchHit => ({
  id,
  node_id: id,
  channel: 'passages',
  labels: ['PASSAGE'],
  score,
  scores,
  snippet: '',
  extras: {},
})
const timings = (...names: string[]) => ({
  profile: true as const,
  total_ms: 1,
  stages: names.map((stage) => ({ stage, calls: 1, wall_ms: 0.1, started_ms: 0, ended_ms: 0.1 })),
})

describe('explainHit', () => {
  it('itemises rrf as 1/(60 + rank) per list, adding up to the fused and shown score', () => {
    // Figures of a real response (bm25 + entities, rrf, no stage).
    const response = {
      channel_lists: { bm25: ['p1', 'p2'], entities: ['e1', 'p2'] },
      stage_timings: timings('search.bm25', 'search.fusion', 'search.hydrate'),
    }
    const fused = 1 / 62 + 1 / 62
    const why = explainHit(
      hit('p2', fused, { bm25: 2.25, graph: 4.5, rrf: fused }),
      response,
      'rrf',
    )
    expect(why.places).toEqual([
      { list: 'bm25', rank: 2, score: 2.25, contribution: 1 / 62 },
      { list: 'entities', rank: 2, score: 4.5, contribution: 1 / 62 },
    ])
    expect(why.sum).toBeCloseTo(fused, 12)
    expect(why.stages).toEqual([])
    expect(why.addsUp).toBe(true)
    // A fused score the ranks do not give is reported as not adding up.
    expect(explainHit(hit('p2', 0.5, { bm25: 2.25, rrf: 0.5 }), response, 'rrf').addsUp).toBe(false)
  })

  it('names the graph stage between cc and a different shown score, and a rerank that replaces it', () => {
    const response = {
      channel_lists: { bm25: ['p1', 'p2'], neighbors: [] },
      stage_timings: timings('search.fusion', 'search.expand'),
    }
    const why = explainHit(hit('p2', 0.1479, { bm25: 2.26, cc: 0.25 }), response, '')
    expect(why.fusion).toBe('cc')
    expect(why.fused).toBe(0.25)
    expect(why.places[0]!.contribution).toBeNull()
    expect(why.stages).toEqual([expect.objectContaining({ stage: 'expand', value: 0.1479 })])
    expect(why.addsUp).toBe(true)

    const reranked = explainHit(
      hit('p1', 0.5, { bm25: 4.6, cc: 0.5, rerank: 0.5 }),
      { channel_lists: { bm25: ['p1'] }, stage_timings: timings('search.fusion', 'search.rerank') },
      'cc',
    )
    expect(reranked.stages.map((s) => [s.stage, s.value])).toEqual([['rerank', 0.5]])
    expect(reranked.addsUp).toBe(true)
  })

  it('tells a hit the graph stage added from a fused one, and says when steps are missing', () => {
    const added = explainHit(
      hit('p3', 0.2, { cc: 0.2 }),
      {
        channel_lists: { bm25: ['p1'], neighbors: ['p3'] },
        stage_timings: timings('search.expand'),
      },
      '',
    )
    expect(added.fusion).toBe('added')
    expect(added.addsUp).toBe(true)
    // Unprofiled: nothing tells that a stage ran, so a changed score does not add up.
    const blind = explainHit(
      hit('p1', 0.3, { bm25: 1, cc: 0.5 }),
      { channel_lists: { bm25: ['p1'] }, stage_timings: {} },
      'cc',
    )
    expect(blind.addsUp).toBe(false)
  })
})
