import { describe, expect, it } from 'vitest'
import { memoryAdapter } from '../../memory-adapter/index.js'
import type { Entity } from '../../model/entity.js'
import type { Relationship } from '../../model/relationship.js'
import { GraphIndex } from './graph-index.js'
import { LazyGraphIndex } from './lazy-graph-index.js'

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
const rel = (
  uuid: string,
  s: string,
  name: string,
  o: string,
  extra: Partial<Relationship> = {},
): Relationship => ({
  uuid,
  subjectUuid: s,
  objectUuid: o,
  name,
  description: null,
  amount: null,
  deprecated: false,
  direction: 'neutral',
  flowKey: null,
  level: null,
  properties: {},
  happenedAt: null,
  lastUpdated: AT,
  sourcePassageIds: [],
  ...extra,
})

/** Ann -BOUGHT-> e1 -OF-> laptop (flow f1); e1 also has a leg of another flow f2 to a mouse. */
const ENTITIES = [
  entity('ann', ['PERSON'], { sourcePassageIds: ['p1'] }),
  entity('e1', ['EVENT', 'PURCHASE'], { name: 'Ann bought', happenedAt: '2024-01-02' }),
  entity('laptop', ['PRODUCT']),
  entity('mouse', ['PRODUCT']),
]
const RELATIONSHIPS = [
  rel('r1', 'ann', 'BOUGHT', 'e1', { flowKey: 'f1', sourcePassageIds: ['p1'] }),
  rel('r2', 'e1', 'OF', 'laptop', { flowKey: 'f1', properties: { weight: 3 } }),
  rel('r3', 'e1', 'OF', 'mouse', { flowKey: 'f2', amount: 2 }),
  rel('r4', 'ann', 'LIKES', 'mouse', { deprecated: true }),
]

async function store() {
  const adapter = memoryAdapter()
  await adapter.open()
  await adapter.catalog.create({
    id: 'b',
    nameKey: 'b',
    tokenHash: 'x',
    tokenLast4: 'xxxx',
    createdAt: AT,
  })
  const s = await adapter.brain('b')
  await s.apply({ entities: ENTITIES, relationships: RELATIONSHIPS })
  return s
}

describe('GraphIndex', () => {
  it('counts relationships as the store does: deprecated included, a self-loop once', async () => {
    const s = await store()
    await s.apply({
      relationships: [rel('loop', 'ann', 'KNOWS', 'ann'), rel('ghost', 'ann', 'OF', 'nobody')],
    })
    const graph = await GraphIndex.build(s)
    for (const uuid of ['ann', 'e1', 'mouse', 'nobody', 'unknown'])
      expect(graph.relationshipCount(uuid)).toBe((await s.relationships.of(uuid)).length)
    expect(graph.relationshipCount('ann')).toBe(4)
    const edges = graph.edgesOf('ann')
    expect(edges.map((e) => graph.edgeUuid[e]).sort()).toEqual(['ghost', 'r1', 'r4'])
    expect(edges.filter((e) => graph.deprecated[e]).map((e) => graph.edgeUuid[e])).toEqual(['r4'])
    graph.apply({ deleteRelationships: ['loop'] })
    expect(graph.relationshipCount('ann')).toBe(3)
  })

  it('numbers nodes and edges, pairs event legs by flow key, keeps provenance', async () => {
    const g = await GraphIndex.build(await store())
    const ann = g.node('ann')!
    const e1 = g.node('e1')!
    expect(g.isEvent[e1]).toBe(true)
    expect(g.kindSets[g.kindSetId[e1]!]).toEqual(['Ann bought', 'PURCHASE'])
    expect(g.degree(ann)).toBe(2)
    const r1 = g.adjacency[ann]!.find((e) => g.edgeUuid[e] === 'r1')!
    const legs = g.legs(e1, r1).map((e) => g.edgeUuid[e])
    expect(legs).toEqual(['r2'])
    const r2 = legs.length === 1 ? g.adjacency[e1]!.find((e) => g.edgeUuid[e] === 'r2')! : -1
    expect(g.weight[r2]).toBe(3)
    expect(g.timeOfEdge(r1)).toBe(Date.parse('2024-01-02'))
    const r4 = g.adjacency[ann]!.find((e) => g.edgeUuid[e] === 'r4')!
    expect(g.valid[r4]).toBe(false)
    expect(g.fromPassage('p1')).toEqual({ nodes: [ann], edges: [r1] })
  })

  it("keeps each edge's source passages as its record lists them, in both directions", async () => {
    const g = await GraphIndex.build(await store())
    const r1 = g.adjacency[g.node('ann')!]!.find((e) => g.edgeUuid[e] === 'r1')!
    expect(g.edgePassages[r1]).toEqual(['p1'])
    g.apply({
      relationships: [
        rel('r1', 'ann', 'BOUGHT', 'e1', { flowKey: 'f1', sourcePassageIds: ['p2', 'p1'] }),
      ],
    })
    expect(g.edgePassages[r1]).toEqual(['p1', 'p2'])
    expect(g.fromPassage('p2').edges).toEqual([r1])
    // A forgotten passage's citation leaves the record (docs/forgetting.md): the graph drops it too.
    g.apply({
      relationships: [
        rel('r1', 'ann', 'BOUGHT', 'e1', { flowKey: 'f1', sourcePassageIds: ['p2'] }),
      ],
    })
    expect(g.edgePassages[r1]).toEqual(['p2'])
    expect(g.fromPassage('p1').edges).toEqual([])
    const r2 = g.adjacency[g.node('e1')!]!.find((e) => g.edgeUuid[e] === 'r2')!
    expect(g.edgePassages[r2]).toEqual([])
  })

  it('follows deletes and moved endpoints', async () => {
    const g = await GraphIndex.build(await store())
    g.apply({ deleteRelationships: ['r4'] })
    expect(g.degree(g.node('ann')!)).toBe(1)
    g.apply({ relationships: [rel('r3', 'e1', 'OF', 'laptop', { flowKey: 'f2' })] })
    expect(g.degree(g.node('mouse')!)).toBe(0)
    expect(g.degree(g.node('laptop')!)).toBe(2)
    g.apply({ deleteEntities: ['laptop'] })
    expect(g.node('laptop')).toBeUndefined()
    const e2 = g.adjacency[g.node('e1')!]!.find((e) => g.edgeUuid[e] === 'r2')!
    expect(g.usable(e2)).toBe(false)
  })

  it('builds lazily and replays batches committed during the build', async () => {
    const s = await store()
    const lazy = new LazyGraphIndex()
    lazy.apply({ entities: [entity('ignored', ['X'])] })
    const pending = lazy.get(s)
    lazy.apply({ entities: [entity('bob', ['PERSON'])] })
    const g = await pending
    expect(g.node('bob')).toBeDefined()
    expect(g.node('ignored')).toBeUndefined()
    lazy.apply({ entities: [entity('cat', ['PERSON'])] })
    expect(g.node('cat')).toBeDefined()
    expect(await lazy.get(s)).toBe(g)
  })
})

describe('GraphIndex.at (docs/time.md)', () => {
  const t = (iso: string) => Date.parse(iso)
  /** Ann lived in Paris (2020 to 2023, learned to end in 2024), then in Berlin (2023-). */
  async function timed() {
    const g = await GraphIndex.build(await store())
    const w = (validAt: string, invalidAt: string | null, expiredAt: string | null) => ({
      validAt,
      invalidAt,
      createdAt: '2020-01-01T00:00:00Z',
      expiredAt,
    })
    g.apply({
      entities: [
        entity('paris', ['PLACE']),
        entity('berlin', ['PLACE']),
        entity('e-paris', ['EVENT'], w('2020-01-01', '2023-01-01', '2024-01-01')),
        entity('e-berlin', ['EVENT'], w('2023-01-01', null, null)),
      ],
      relationships: [
        rel('lp', 'ann', 'LIVES', 'e-paris', {
          flowKey: 'fp',
          deprecated: true,
          ...w('2020-01-01', '2023-01-01', '2024-01-01'),
        }),
        rel('lb', 'ann', 'MOVED', 'e-berlin', { flowKey: 'fb', ...w('2023-01-01', null, null) }),
      ],
    })
    return g
  }
  const edge = (g: GraphIndex, uuid: string) => g.edgeUuid.indexOf(uuid)

  it('hides what had not begun, marks what had ended, and is the index itself for now', async () => {
    const g = await timed()
    expect(g.at({})).toBe(g)
    expect(g.valid[edge(g, 'lp')]).toBe(false)
    const in2021 = g.at({ asOf: t('2021-06-01') })
    expect(in2021.valid[edge(g, 'lp')]).toBe(true)
    expect(in2021.deprecated[edge(g, 'lp')]).toBe(false)
    expect(in2021.usable(edge(g, 'lb'))).toBe(false)
    expect(g.usable(edge(g, 'lb'))).toBe(true)
    const in2024 = g.at({ asOf: t('2024-06-01') })
    expect(in2024.valid[edge(g, 'lp')]).toBe(false)
    expect(in2024.usable(edge(g, 'lb'))).toBe(true)
    // Known in mid 2023: the end of Paris was learned in 2024, so it still held.
    expect(g.at({ knownAt: t('2023-06-01') }).valid[edge(g, 'lp')]).toBe(true)
  })

  it('keeps a view per time until the next write', async () => {
    const g = await timed()
    const view = g.at({ asOf: t('2021-06-01') })
    expect(g.at({ asOf: t('2021-06-01') })).toBe(view)
    g.apply({ entities: [entity('rome', ['PLACE'])] })
    expect(g.at({ asOf: t('2021-06-01') })).not.toBe(view)
  })
})
