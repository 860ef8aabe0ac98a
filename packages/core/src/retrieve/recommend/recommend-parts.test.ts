import { describe, expect, it } from 'vitest'
import { GraphIndex } from '../../indexes/graph/graph-index.js'
import type { Entity } from '../../model/entity.js'
import type { Relationship } from '../../model/relationship.js'
import { polarityAccepts } from '../synergies-scores.js'
import { Signatures } from '../synergies-signatures.js'
import { behaviorWeights, normalizeBehavior, UNKNOWN_BEHAVIOR_WEIGHT } from './behavior-weights.js'
import { diversify } from './diversify.js'
import { kMedoids } from './k-medoids.js'
import { CHANNEL_WEIGHTS, mergeChannels } from './merge-channels.js'

const AT = '2025-01-01T00:00:00.000Z'
const entity = (uuid: string, labels: string[], o: Partial<Entity> = {}): Entity => ({
  uuid,
  name: uuid,
  description: null,
  labels,
  properties: {},
  metadata: null,
  happenedAt: null,
  lastUpdated: AT,
  polarity: 'neutral',
  aliases: [],
  sourcePassageIds: [],
  ...o,
})
const rel = (uuid: string, s: string, name: string, o: string, at?: string): Relationship => ({
  uuid,
  subjectUuid: s,
  objectUuid: o,
  name,
  description: null,
  amount: null,
  deprecated: false,
  direction: 'neutral',
  flowKey: uuid.split('.')[0]!,
  level: null,
  properties: {},
  happenedAt: at ?? null,
  lastUpdated: AT,
  sourcePassageIds: [],
})

/** u viewed a (2024-12-02), bought b (2024-01-02), "Add_To-Cart"-ed c; a and c are RED, b is BLUE. */
function graph(): GraphIndex {
  const g = new GraphIndex()
  g.apply({
    entities: [
      entity('u', ['USER']),
      entity('a', ['ITEM']),
      entity('b', ['ITEM']),
      entity('c', ['ITEM']),
      entity('red', ['COLOR']),
      entity('blue', ['COLOR']),
      entity('ev1', ['EVENT'], { name: 'viewed', happenedAt: '2024-12-02' }),
      entity('ev2', ['EVENT', 'PURCHASE'], { name: 'u and b', happenedAt: '2024-01-02' }),
      entity('ev3', ['EVENT'], { name: 'x', properties: { action: 'Add_To-Cart' } }),
    ],
    relationships: [
      rel('f1.1', 'u', 'DID', 'ev1'),
      rel('f1.2', 'ev1', 'ON', 'a'),
      rel('f2.1', 'u', 'DID', 'ev2'),
      rel('f2.2', 'ev2', 'ON', 'b'),
      rel('f3.1', 'u', 'DID', 'ev3'),
      rel('f3.2', 'ev3', 'ON', 'c'),
      rel('x1', 'a', 'HAS_COLOR', 'red'),
      rel('x2', 'c', 'HAS_COLOR', 'red'),
      rel('x3', 'b', 'HAS_COLOR', 'blue'),
    ],
  })
  return g
}
const edge = (g: GraphIndex, uuid: string) => g.edgeUuid.indexOf(uuid)

describe('behaviour weights', () => {
  it('normalises names and folds aliases', () => {
    expect(normalizeBehavior('Add_To-Cart')).toBe('cart')
    expect(normalizeBehavior('PURCHASED')).toBe('purchase')
    expect(normalizeBehavior('Bought')).toBe('purchase')
    expect(normalizeBehavior('favourited')).toBe('favorite')
    expect(normalizeBehavior('rated')).toBe('rated')
  })

  it('reads the behaviour from event properties, names, labels, then predicates', () => {
    const g = graph()
    const w = behaviorWeights(g, { now: Date.parse('2025-01-01') })
    const step = (first: string, second: string, event: string) =>
      w.behavior(edge(g, first), edge(g, second), g.node(event)!)
    expect(step('f1.1', 'f1.2', 'ev1')).toBe(0.2)
    expect(step('f2.1', 'f2.2', 'ev2')).toBe(1)
    expect(step('f3.1', 'f3.2', 'ev3')).toBe(0.5)
    expect(w.behavior(edge(g, 'x1'), -1, -1)).toBe(UNKNOWN_BEHAVIOR_WEIGHT)
    const custom = behaviorWeights(g, { now: 0, overrides: { 'View-ed': 4, buy: 3 } })
    expect(custom.behavior(edge(g, 'f1.1'), edge(g, 'f1.2'), g.node('ev1')!)).toBe(4)
    expect(custom.behavior(edge(g, 'f2.1'), edge(g, 'f2.2'), g.node('ev2')!)).toBe(3)
  })

  it('decays by half-life from the event date', () => {
    const g = graph()
    const now = Date.parse('2025-01-01')
    const w = behaviorWeights(g, { now, halfLifeDays: 30 })
    const days = (now - Date.parse('2024-12-02')) / 86_400_000
    expect(w.of(edge(g, 'f1.1'), edge(g, 'f1.2'), g.node('ev1')!)).toBeCloseTo(
      0.2 * 0.5 ** (days / 30),
    )
    expect(w.decay(Number.NaN)).toBe(1)
    expect(behaviorWeights(g, { now }).decay(0)).toBe(1)
  })
})

describe('k-medoids', () => {
  it('finds one medoid per group of points on a line', () => {
    const points = [0, 1, 2, 10, 11, 12, 30]
    const { medoids, assignment } = kMedoids(points.length, 3, (a, b) =>
      Math.abs(points[a]! - points[b]!),
    )
    expect(medoids.map((m) => points[m]).sort((a, b) => a! - b!)).toEqual([1, 11, 30])
    expect(new Set(assignment.slice(0, 3)).size).toBe(1)
    expect(assignment[0]).not.toBe(assignment[3])
    expect(kMedoids(0, 3, () => 0)).toEqual({ medoids: [], assignment: [] })
    expect(kMedoids(2, 5, () => 1).medoids).toHaveLength(2)
  })
})

describe('merge and diversify', () => {
  it('sums max-normalised channels, names the strongest channel, keeps only what passes', () => {
    const g = graph()
    const [a, b, c] = ['a', 'b', 'c'].map((u) => g.node(u)!) as [number, number, number]
    const merged = mergeChannels(
      g,
      new Map([
        [
          'collaborative',
          [
            { node: a, score: 10, connectedBy: [] },
            { node: b, score: 5, connectedBy: [] },
          ],
        ],
        [
          'synergy',
          [
            { node: b, score: 2, connectedBy: [c] },
            { node: c, score: 1, connectedBy: [] },
          ],
        ],
      ]),
      { keep: (n) => n !== c, dampenDegree: false },
    )
    expect(merged.map((m) => [g.uuid[m.node], m.score, m.channel])).toEqual([
      ['b', 1.5, 'synergy'],
      ['a', 1, 'collaborative'],
    ])
  })

  it('takes channel weights over the defaults; a weight of 0 leaves the channel out', () => {
    const g = graph()
    const [a, b] = ['a', 'b'].map((u) => g.node(u)!) as [number, number]
    const channels = new Map([
      ['collaborative' as const, [{ node: a, score: 4, connectedBy: [] }]],
      ['multi_interest' as const, [{ node: b, score: 1, connectedBy: [] }]],
    ])
    const fused = (weights?: { multi_interest: number }) =>
      mergeChannels(g, channels, {
        keep: () => true,
        dampenDegree: false,
        ...(weights ? { weights } : {}),
      }).map((m) => [g.uuid[m.node], m.score])
    expect(fused()).toEqual([
      ['a', 1],
      ['b', CHANNEL_WEIGHTS.multi_interest],
    ])
    expect(fused({ multi_interest: 0.25 })).toEqual([
      ['a', 1],
      ['b', 0.25],
    ])
    expect(fused({ multi_interest: 0 })).toEqual([['a', 1]])
  })

  it('MMR moves a candidate with new attributes ahead of a near duplicate', () => {
    const g = graph()
    const [a, b, c] = ['a', 'b', 'c'].map((u) => g.node(u)!) as [number, number, number]
    const ranked = [
      { node: a, score: 1, channel: 'synergy' as const, connectedBy: [] },
      { node: c, score: 0.95, channel: 'synergy' as const, connectedBy: [] },
      { node: b, score: 0.9, channel: 'synergy' as const, connectedBy: [] },
    ]
    expect(diversify(g, ranked, 3).map((r) => g.uuid[r.node])).toEqual(['a', 'b', 'c'])
    expect(diversify(g, ranked, 3, 1).map((r) => g.uuid[r.node])).toEqual(['a', 'c', 'b'])
  })
})

describe('synergy helpers', () => {
  it('compares relation signatures by predicate terms and event kind', () => {
    const g = graph()
    const s = new Signatures(g)
    const viewed = s.of(edge(g, 'f1.1'), edge(g, 'f1.2'), g.node('ev1')!)
    const bought = s.of(edge(g, 'f2.1'), edge(g, 'f2.2'), g.node('ev2')!)
    const color = s.of(edge(g, 'x1'), -1, -1)
    expect(s.text(bought)).toBe('did purchas')
    expect(s.similarity(viewed, viewed)).toBe(1)
    expect(s.similarity(viewed, bought)).toBe(0.5)
    expect(s.similarity(color, s.of(edge(g, 'x2'), -1, -1))).toBe(1)
  })

  it('polarity: same drops the opposite sign only; opposite keeps only it', () => {
    expect(polarityAccepts('same', 'positive', 'neutral')).toBe(true)
    expect(polarityAccepts('same', 'positive', 'negative')).toBe(false)
    expect(polarityAccepts('opposite', 'positive', 'negative')).toBe(true)
    expect(polarityAccepts('opposite', 'neutral', 'negative')).toBe(false)
  })
})
