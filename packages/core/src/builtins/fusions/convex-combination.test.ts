import { describe, expect, it } from 'vitest'
import type { ChannelList, ScoreNormalization } from '../../contracts/search-plugins.js'
import { fuseByConvexCombination, NEUTRAL_FUSION } from './convex-combination.js'
import { fuseByReciprocalRank } from './reciprocal-rank.js'
import { normalizeScores } from './score-normalization.js'

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

describe('score normalisation', () => {
  it('min-max, z-score and dbsf by hand, shifted so an absent id scores 0 and none is below', () => {
    // bm25 10, 5, 0: mean 5, population sd sqrt(50 / 3)
    const sd = Math.sqrt(50 / 3)
    // z-score (s - mean) / sd, an absent id as the lowest (-5 / sd): (s - 0) / sd
    const z = normalizeScores(bm25.items, 'z-score')
    expect(z.get('a')).toBeCloseTo(10 / sd, 12)
    expect(z.get('b')).toBeCloseTo(5 / sd, 12)
    expect(z.get('c')).toBe(0)
    // dbsf (s - (mean - 3 sd)) / 6 sd; an absent id the lower bound, 0 (c is above it)
    const dbsf = normalizeScores(bm25.items, 'dbsf')
    expect(dbsf.get('a')).toBeCloseTo((10 - (5 - 3 * sd)) / (6 * sd), 12)
    expect(dbsf.get('c')).toBeCloseTo((0 - (5 - 3 * sd)) / (6 * sd), 12)
    expect([...normalizeScores(bm25.items, 'min-max').values()]).toEqual([1, 0.5, 0])
    expect(normalizeScores([{ id: 'x', score: 3 }], 'z-score').get('x')).toBe(1)
  })
})

describe('weighted score fusion (cc)', () => {
  it('weights each signal: (1 - share) bm25 + share dense, by hand', () => {
    // z-score, shifted: bm25 a 10/sd, b 5/sd, c 0 (absent 0); dense (.9, .5: sd .2) b 2, d 0
    const sd = Math.sqrt(50 / 3)
    const fused = fuseByConvexCombination([bm25, dense], {
      normalization: 'z-score',
      denseShare: 0.25,
      graphWeight: 0.5,
    })
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c', 'd'])
    const s = scoresOf(fused)
    expect(s.a).toBeCloseTo(0.75 * (10 / sd), 12)
    expect(s.b).toBeCloseTo(0.75 * (5 / sd) + 0.25 * 2, 12)
    expect(s.c).toBe(0)
    expect(s.d).toBe(0)
    // min-max at share 0.5 is Bruch et al.'s convex combination: b .75, a .5, c 0, d 0
    expect(scoresOf(fuseByConvexCombination([bm25, dense], NEUTRAL_FUSION))).toEqual({
      b: 0.75,
      a: 0.5,
      c: 0,
      d: 0,
    })
    // alpha (the request's fusion_alpha) replaces the calibrated share
    expect(scoresOf(fuseByConvexCombination([bm25, dense], NEUTRAL_FUSION, 1))).toEqual({
      b: 1,
      d: 0,
      a: 0,
      c: 0,
    })
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
    // p1 .8 + .2 = 1; e1 .5 (entities) + .2 (entities_dense) = .7; v1 .5
    expect(fused.map((f) => f.id).slice(0, 3)).toEqual(['p1', 'e1', 'v1'])
    expect(fused[0]!.score).toBeCloseTo(1, 12)
    // The former cc (passage lists combined, then joined to the graph lists by RRF) ranked e1 first.
    const combined = fuseByConvexCombination([passages, passagesDense], calibration)
    const former = fuseByReciprocalRank(
      [{ name: 'cc', signal: 'bm25', items: combined }, entities, entitiesDense, events],
      60,
    )
    expect(former[0]!.id).toBe('e1')
  })
})
