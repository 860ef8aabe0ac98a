import { describe, expect, it } from 'vitest'
import { evaluateRun, parseMetric } from './evaluate.js'
import { hitAtK } from './hit-rate.js'
import { reciprocalRank } from './mrr.js'
import { ndcgAtK } from './ndcg.js'
import { summarizeLatency } from './percentiles.js'
import { rankHits, type Hit } from './ranking.js'
import { recallAtK } from './recall.js'
import { formatTrecRun } from './trec-run.js'

/*
 * Fixture, computed by hand.
 * q1 judged: a=2, b=1, d=1 (d never retrieved). Run (unsorted): a .5, x .9, y .7, b .7, z .1.
 * Rank order (score desc, ties by id asc): 1 x, 2 b, 3 y, 4 a, 5 z   (b before y: tie at .7, 'b' < 'y').
 *
 * Binary nDCG@3: gains 0,1,0 -> DCG = 1/log2(3) = 0.6309298
 *   ideal 1,1,1 -> IDCG = 1 + 1/log2(3) + 1/log2(4) = 2.1309298      -> 0.6309298 / 2.1309298 = 0.2960819
 * Graded nDCG@5: gains 0,1,0,2,0 -> DCG = 1/log2(3) + 2/log2(5) = 0.6309298 + 0.8613531 = 1.4922829
 *   ideal 2,1,1 -> IDCG = 2 + 1/log2(3) + 1/log2(4) = 3.1309298        -> 1.4922829 / 3.1309298 = 0.4766261
 * R@3 = 1/3 (b), R@5 = 2/3 (b, a). MRR = 1/2 (b at rank 2). Hit@1 = 0, Hit@2 = 1.
 * q2 judged e=1, absent from the run -> every metric 0. q3 judged only with gain 0 -> not counted.
 * Means over {q1, q2}: nDCG@3 binary 0.1480410, nDCG@5 graded 0.2383131, R@5 1/3, MRR 1/4, Hit@2 1/2.
 */
const q1: Hit[] = [
  { id: 'a', score: 0.5 },
  { id: 'x', score: 0.9 },
  { id: 'y', score: 0.7 },
  { id: 'b', score: 0.7 },
  { id: 'z', score: 0.1 },
]
const judged1 = new Map([
  ['a', 2],
  ['b', 1],
  ['d', 1],
])
const qrels = new Map([
  ['q1', judged1],
  ['q2', new Map([['e', 1]])],
  ['q3', new Map([['f', 0]])],
])
const run = new Map([['q1', q1]])

describe('ranking metrics against the hand computation', () => {
  const ranked = rankHits(q1)

  it('orders by score then doc id', () => {
    expect(ranked.map((h) => h.id)).toEqual(['x', 'b', 'y', 'a', 'z'])
  })

  it('computes per-query values', () => {
    expect(ndcgAtK(ranked, judged1, 3, 'binary')).toBeCloseTo(0.2960819, 6)
    expect(ndcgAtK(ranked, judged1, 5, 'graded')).toBeCloseTo(0.4766261, 6)
    expect(recallAtK(ranked, judged1, 3)).toBeCloseTo(1 / 3, 10)
    expect(recallAtK(ranked, judged1, 5)).toBeCloseTo(2 / 3, 10)
    expect(reciprocalRank(ranked, judged1)).toBe(0.5)
    expect(reciprocalRank(ranked, judged1, 1)).toBe(0)
    expect(hitAtK(ranked, judged1, 1)).toBe(0)
    expect(hitAtK(ranked, judged1, 2)).toBe(1)
  })

  it('averages over judged queries, counting missing ones as 0', () => {
    const binary = evaluateRun(run, qrels, ['nDCG@3', 'R@5', 'MRR', 'Hit@2'], 'binary')
    expect(binary['nDCG@3']).toBeCloseTo(0.148041, 6)
    expect(binary['R@5']).toBeCloseTo(1 / 3, 10)
    expect(binary['MRR']).toBeCloseTo(0.25, 10)
    expect(binary['Hit@2']).toBeCloseTo(0.5, 10)
    expect(evaluateRun(run, qrels, ['nDCG@5'], 'graded')['nDCG@5']).toBeCloseTo(0.2383131, 6)
  })

  it('rejects unknown metric names', () => {
    expect(() => parseMetric('P@10')).toThrow(/unknown metric/)
    expect(() => parseMetric('nDCG')).toThrow(/unknown metric/)
    expect(parseMetric('MRR@10')).toEqual({ name: 'MRR@10', kind: 'mrr', k: 10 })
    expect(parseMetric('R@all')).toEqual({ name: 'R@all', kind: 'recall', k: Infinity })
    expect(() => parseMetric('R@any')).toThrow(/unknown metric/)
  })

  it('scores the whole returned list at @all', () => {
    const long: Hit[] = Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, score: 300 - i }))
    const judged = new Map([
      ['d3', 1],
      ['d250', 1],
      ['missing', 1],
    ])
    const scores = evaluateRun(new Map([['q', long]]), new Map([['q', judged]]), ['R@10', 'R@all'])
    expect(scores['R@10']).toBeCloseTo(1 / 3, 10)
    expect(scores['R@all']).toBeCloseTo(2 / 3, 10)
  })
})

describe('TREC run writer', () => {
  it('writes qid Q0 docid rank score tag with ties broken by doc id', () => {
    const text = formatTrecRun(new Map([['q1', q1.slice(0, 4)]]), 'my run')
    expect(text.split('\n').slice(0, 3)).toEqual([
      'q1 Q0 x 1 0.9 my_run',
      'q1 Q0 b 2 0.7 my_run',
      'q1 Q0 y 3 0.7 my_run',
    ])
  })
})

describe('latency percentiles', () => {
  it('uses nearest rank', () => {
    const s = summarizeLatency(Array.from({ length: 100 }, (_, i) => 100 - i))
    expect([s.p50, s.p95, s.p99, s.count]).toEqual([50, 95, 99, 100])
  })
})
