import { describe, expect, it } from 'vitest'
import type { ChannelList, ScoreNormalization } from '../../contracts/search-plugins.js'
import { fuseByConvexCombination, NEUTRAL_FUSION } from './convex-combination.js'
import { fuseByReciprocalRank } from './reciprocal-rank.js'
import { normalizeScores, scoresAreTied } from './score-normalization.js'

const list = (name: string, signal: ChannelList['signal'], scores: [string, number][]) => ({
  name,
  signal,
  items: scores.map(([id, score]) => ({ id, score })),
})
const bm25 = list('bm25', 'bm25', [
  ['a', 10],
  ['b', 5],
  ['c', 0],
])
const dense = list('dense', 'dense', [
  ['b', 0.9],
  ['d', 0.5],
])
const scoresOf = (fused: { id: string; score: number }[]) =>
  Object.fromEntries(fused.map((f) => [f.id, f.score]))

const ALL: ScoreNormalization[] = ['min-max', 'z-score', 'dbsf']

describe('score normalisation', () => {
  it('min-max, z-score and dbsf by hand: an absent id one mean gap below the lowest scores 0', () => {
    // bm25 10, 5, 0: mean 5, population sd sqrt(50 / 3); mean gap 5, so an absent id counts as -5
    const sd = Math.sqrt(50 / 3)
    // z-score (s - mean) / sd less the absent id's: (s + 5) / sd
    const z = normalizeScores(bm25.items, 'z-score')
    expect(z.get('a')).toBeCloseTo(15 / sd, 12)
    expect(z.get('b')).toBeCloseTo(10 / sd, 12)
    expect(z.get('c')).toBeCloseTo(5 / sd, 12)
    // dbsf (s - (mean - 3 sd)) / 6 sd: the lower bound (-7.25) is below the absent id's -5
    const dbsf = normalizeScores(bm25.items, 'dbsf')
    expect(dbsf.get('a')).toBeCloseTo((10 - (5 - 3 * sd)) / (6 * sd), 12)
    expect(dbsf.get('c')).toBeCloseTo((0 - (5 - 3 * sd)) / (6 * sd), 12)
    // min-max between the absent id and the top: (s + 5) / 15
    const minMax = [...normalizeScores(bm25.items, 'min-max').values()]
    for (const [i, want] of [1, 2 / 3, 1 / 3].entries()) expect(minMax[i]).toBeCloseTo(want, 12)
  })

  it('gives every returned id more than an absent one (0), in order, under every normalisation', () => {
    const lists: [string, number][][] = [
      bm25.items.map((i) => [i.id, i.score]),
      // dbsf: the lowest is far below mean - 3 sd (a long head of equal scores, one outlier below)
      [...Array.from({ length: 20 }, (_, i): [string, number] => [`h${i}`, 10]), ['low', -100]],
      // negative scores, ties, and two ids only
      [
        ['p', -0.2],
        ['q', -0.2],
        ['r', -0.9],
      ],
      [
        ['x', 0.31],
        ['y', 0.3],
      ],
    ]
    for (const how of ALL)
      for (const list of lists) {
        const scores = normalizeScores(
          list.map(([id, score]) => ({ id, score })),
          how,
        )
        for (const [id, raw] of list) {
          expect(scores.get(id), `${how} ${id}`).toBeGreaterThan(0)
          for (const [other, otherRaw] of list)
            if (raw > otherRaw) expect(scores.get(id)!).toBeGreaterThan(scores.get(other)!)
        }
      }
  })

  it('scores the members of an all-equal list, a single hit included, `tied` (default 1)', () => {
    for (const how of ALL) {
      expect(normalizeScores([{ id: 'x', score: 3 }], how).get('x')).toBe(1)
      const equal = [
        { id: 'x', score: 0 },
        { id: 'y', score: 0 },
      ]
      expect([...normalizeScores(equal, how, 4.5).values()]).toEqual([4.5, 4.5])
      expect(scoresAreTied(equal)).toBe(true)
    }
    expect(scoresAreTied(bm25.items)).toBe(false)
  })
})

describe('weighted score fusion (cc)', () => {
  it('weights each signal: (1 - share) bm25 + share dense, by hand', () => {
    // z-score less the absent id's: bm25 a 15/sd, b 10/sd, c 5/sd; dense (.9, .5: sd .2, absent .1)
    // b 4, d 2
    const sd = Math.sqrt(50 / 3)
    const fused = fuseByConvexCombination([bm25, dense], {
      normalization: 'z-score',
      denseShare: 0.25,
      graphWeight: 0.5,
    })
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'c', 'd'])
    const s = scoresOf(fused)
    expect(s.a).toBeCloseTo(0.75 * (15 / sd), 12)
    expect(s.b).toBeCloseTo(0.75 * (10 / sd) + 0.25 * 4, 12)
    expect(s.c).toBeCloseTo(0.75 * (5 / sd), 12)
    expect(s.d).toBeCloseTo(0.25 * 2, 12)
    // min-max at share 0.5 is Bruch et al.'s convex combination: bm25 a 1, b 2/3, c 1/3; dense b 1,
    // d .5
    const m = scoresOf(fuseByConvexCombination([bm25, dense], NEUTRAL_FUSION))
    expect(m.b).toBeCloseTo(5 / 6, 12)
    expect(m.a).toBeCloseTo(0.5, 12)
    expect(m.d).toBeCloseTo(0.25, 12)
    expect(m.c).toBeCloseTo(1 / 6, 12)
    // alpha (the request's fusion_alpha) replaces the calibrated share; BM25 then weighs 0
    expect(scoresOf(fuseByConvexCombination([bm25, dense], NEUTRAL_FUSION, 1))).toEqual({
      b: 1,
      d: 0.5,
      a: 0,
      c: 0,
    })
  })

  it('scores a list with no spread, a single hit included, as the other lists score their tops', () => {
    // The use-lite calibration (z-score, dense share .2, plugin lists .5): a plugin channel finds one
    // passage, x, that neither BM25 nor the dense list returned.
    const calibration = { normalization: 'z-score', denseShare: 0.2, graphWeight: 0.5 } as const
    const lexical = list('bm25', 'bm25', [
      ['a', 9],
      ['b', 8],
      ['c', 7],
      ['d', 6],
      ['e', 1],
    ])
    const plugin = list('plugin:marker', 'plugin', [['x', 0.01]])
    const tops = [lexical, dense].map((l) =>
      Math.max(...normalizeScores(l.items, 'z-score').values()),
    )
    const fused = scoresOf(fuseByConvexCombination([lexical, dense, plugin], calibration))
    expect(fused.x).toBeCloseTo(0.5 * ((tops[0]! + tops[1]!) / 2), 12)
    // bm25 (mean 6.2, sd sqrt(7.76), absent -1): a 10/sd .. e 2/sd; dense as above (b 4, d 2). x
    // scores half the mean top, between d and e (the former rule gave x 0.5 whatever the other lists'
    // scale, and e, BM25's lowest, 0: no more than an id no list returned).
    const sd = Math.sqrt(7.76)
    expect(tops[0]).toBeCloseTo(10 / sd, 12)
    expect(fused.e).toBeCloseTo((0.8 * 2) / sd, 12)
    expect(fused.x).toBeGreaterThan(fused.e!)
    expect(fused.x).toBeLessThan(fused.d!)
    // Under min-max the tops are 1, so a lone hit scores 1; with no spread anywhere, 1 too.
    expect(scoresOf(fuseByConvexCombination([lexical, plugin], NEUTRAL_FUSION)).x).toBe(0.5)
    expect(scoresOf(fuseByConvexCombination([plugin], calibration)).x).toBe(0.5)
    for (const normalization of ALL)
      for (const f of fuseByConvexCombination([lexical, dense, plugin], {
        ...calibration,
        normalization,
      }))
        expect(f.score).toBeGreaterThan(0)
  })

  it('keeps BM25 order when BM25 is the only list (no embedder), under every normalisation', () => {
    const lexical = list('bm25', 'bm25', [
      ['x', 9.5],
      ['w', 7.25],
      ['y', 7.25],
      ['v', 1],
      ['z', 0.5],
    ])
    for (const normalization of ['min-max', 'z-score', 'dbsf'] as ScoreNormalization[])
      for (const denseShare of [0, 0.1, 1])
        expect(
          fuseByConvexCombination([lexical], { normalization, denseShare, graphWeight: 0.5 }).map(
            (f) => f.id,
          ),
        ).toEqual(['x', 'w', 'y', 'v', 'z'])
  })

  it('counts each graph list once with its own weight, so entity lists no longer outvote passages', () => {
    const passages = list('bm25', 'bm25', [
      ['p1', 12],
      ['p2', 4],
    ])
    const passagesDense = list('dense', 'dense', [
      ['p1', 0.8],
      ['p2', 0.6],
    ])
    const entities = list('entities', 'graph', [
      ['e1', 3],
      ['e2', 1],
    ])
    const entitiesDense = list('entities_dense', 'dense', [
      ['e1', 0.7],
      ['e2', 0.2],
    ])
    const events = list('events', 'graph', [
      ['v1', 5],
      ['v2', 2],
    ])
    const lists = [passages, passagesDense, entities, entitiesDense, events]
    const calibration = { normalization: 'min-max', denseShare: 0.2, graphWeight: 0.5 } as const
    const fused = fuseByConvexCombination(lists, calibration)
    // p1 .8 + .2 = 1; e1 .5 (entities) + .2 (entities_dense) = .7; p2 .8 x .5 + .2 x .5 = .5, v1 .5
    expect(fused.map((f) => f.id).slice(0, 4)).toEqual(['p1', 'e1', 'p2', 'v1'])
    expect(fused.map((f) => f.score).slice(0, 4)).toEqual(
      [1, 0.7, 0.5, 0.5].map((v) => expect.closeTo(v, 12)),
    )
    // The former cc (passage lists combined, then joined to the graph lists by RRF) ranked e1 first.
    const combined = fuseByConvexCombination([passages, passagesDense], calibration)
    const former = fuseByReciprocalRank(
      [{ name: 'cc', signal: 'bm25', items: combined }, entities, entitiesDense, events],
      60,
    )
    expect(former[0]!.id).toBe('e1')
  })
})
