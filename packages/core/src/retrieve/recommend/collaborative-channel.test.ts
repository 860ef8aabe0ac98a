import { describe, expect, it } from 'vitest'
import { fixtures as f } from '../../../testing/index.js'
import { GraphIndex } from '../../indexes/graph/graph-index.js'
import type { Entity } from '../../model/entity.js'
import type { Relationship } from '../../model/relationship.js'
import type { RetrieveDeps } from '../retrieve-deps.js'
import { behaviorWeights } from './behavior-weights.js'
import { collaborativeChannel } from './collaborative-channel.js'
import type { RecommendContext, RecommendTuning } from './recommend-types.js'
import { interactionsOf } from './target-interactions.js'

/** The clock of the walks (recency weights need one). */
const AT = '2025-01-01T00:00:00.000Z'
const entity = (uuid: string, labels: string[], happenedAt: string | null = null): Entity =>
  f.entity({ uuid, name: uuid, labels, happenedAt })
const rel = (uuid: string, s: string, name: string, o: string): Relationship =>
  f.relationship({
    uuid,
    subjectUuid: s,
    objectUuid: o,
    name,
    description: null,
    flowKey: uuid.split('.')[0]!,
  })

/**
 * t rated a (day 1) then b (day 2); p1 rated a and c; p2 rated b and c; p3 rated b and d. Every
 * rating is an event `user -RATED-> ev -TARGETED-> item` (behaviour unknown: weight 0.2).
 */
function shop(): GraphIndex {
  const ratings: [string, string, number][] = [
    ['t', 'a', 1],
    ['t', 'b', 2],
    ['p1', 'a', 1],
    ['p1', 'c', 1],
    ['p2', 'b', 1],
    ['p2', 'c', 1],
    ['p3', 'b', 1],
    ['p3', 'd', 1],
  ]
  const g = new GraphIndex()
  g.apply({
    entities: [
      ...['t', 'p1', 'p2', 'p3'].map((u) => entity(u, ['USER'])),
      ...['a', 'b', 'c', 'd'].map((i) => entity(i, ['ITEM'])),
      ...ratings.map(([u, i, day]) => entity(`ev-${u}-${i}`, ['EVENT'], `2024-01-0${day}`)),
    ],
    relationships: ratings.flatMap(([u, i]) => [
      rel(`ev-${u}-${i}.1`, u, 'RATED', `ev-${u}-${i}`),
      rel(`ev-${u}-${i}.2`, `ev-${u}-${i}`, 'TARGETED', i),
    ]),
  })
  return g
}

function context(g: GraphIndex, tuning: RecommendTuning = {}): RecommendContext {
  const target = g.node('t')!
  const weights = behaviorWeights(g, { now: Date.parse(AT) })
  const interactions = interactionsOf(g, target, weights, { cap: Number.MAX_SAFE_INTEGER })
  return {
    deps: {} as RetrieveDeps,
    graph: g,
    target,
    weights,
    labels: new Set(),
    polarity: 'same',
    topK: 10,
    keep: (n) => n !== target && !g.isEvent[n],
    interactions: () => interactions,
    tuning,
  }
}

describe('collaborativeChannel', () => {
  it('scores by the cosine-normalised walk through peers', () => {
    const g = shop()
    const hits = collaborativeChannel(context(g, { historyHalfLife: Number.POSITIVE_INFINITY }))
    const w = 0.2 // every step's behaviour weight
    // n(a) = 2, n(b) = 3, n(c) = 2, n(d) = 1; every peer has 2 interactions.
    const p1 = (w * w) / Math.sqrt(2) / Math.sqrt(2)
    const p2 = (w * w) / Math.sqrt(3) / Math.sqrt(2)
    const score = new Map(hits.map((h) => [g.uuid[h.node], h.score]))
    expect(score.get('c')).toBeCloseTo(((p1 + p2) * w) / Math.sqrt(2), 12)
    expect(score.get('d')).toBeCloseTo(p2 * w, 12)
    expect(hits.map((h) => g.uuid[h.node])).toEqual(['c', 'd'])
    // Nothing the target rated, and the peers that voted most explain each hit.
    const c = hits[0]!
    expect(c.connectedBy.map((n) => g.uuid[n])).toEqual(['p1', 'p2'])
  })

  it('lets the latest items lead: a, one rank older than b, counts 0.5^(1 / half-life)', () => {
    const g = shop()
    const w = 0.2
    const p1 = (0.5 * w * w) / Math.sqrt(2) / Math.sqrt(2)
    const p2 = (w * w) / Math.sqrt(3) / Math.sqrt(2)
    const score = (half: number) =>
      new Map(
        collaborativeChannel(context(g, { historyHalfLife: half })).map((h) => [
          g.uuid[h.node],
          h.score,
        ]),
      )
    expect(score(1).get('c')).toBeCloseTo(((p1 + p2) * w) / Math.sqrt(2), 12)
    // Shorter still: p1, who shares only a, fades and d (co-rated with b alone) overtakes c.
    const short = score(0.5)
    expect(short.get('d')!).toBeGreaterThan(short.get('c')!)
  })

  it('returns nothing for a target that acted on nothing', () => {
    const g = shop()
    const ctx = { ...context(g), target: g.node('c')! }
    expect(collaborativeChannel(ctx)).toEqual([])
  })
})
