import { beforeEach, describe, expect, it } from 'vitest'
import { fixtures as f } from '../../testing/index.js'
import type { BrainStore } from '../contracts/storage-adapter.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import type { Entity } from '../model/entity.js'
import { traverse } from './traverse.js'

/** a -WORKS_AT-> b -LOCATED_IN-> c, a -KNOWS-> d (deprecated), a -SELF-> a. */
async function chain(): Promise<BrainStore> {
  const adapter = memoryAdapter()
  await adapter.catalog.create(f.brain('alpha'))
  const store = await adapter.brain('alpha')
  await store.apply({
    entities: ['a', 'b', 'c', 'd'].map((uuid) => f.entity({ uuid, name: uuid.toUpperCase() })),
    relationships: [
      f.relationship({ uuid: 'r1', subjectUuid: 'a', objectUuid: 'b', name: 'WORKS_AT' }),
      f.relationship({ uuid: 'r2', subjectUuid: 'b', objectUuid: 'c', name: 'LOCATED_IN' }),
      f.relationship({
        uuid: 'r3',
        subjectUuid: 'a',
        objectUuid: 'd',
        name: 'KNOWS',
        deprecated: true,
      }),
      f.relationship({ uuid: 'r4', subjectUuid: 'a', objectUuid: 'a', name: 'SELF' }),
    ],
  })
  return store
}

describe('traverse', () => {
  let store: BrainStore
  let start: Entity
  beforeEach(async () => {
    store = await chain()
    start = (await store.entities.get(['a']))[0]!
  })

  it('walks breadth first with hop distances, skipping deprecated edges and self-loops', async () => {
    const walk = await traverse(store, start, { depth: 2, limit: 10, direction: 'both' })
    expect(walk.nodes.map((n) => [n.node.uuid, n.depth])).toEqual([
      ['b', 1],
      ['c', 2],
    ])
    expect(walk.edges.map((r) => r.uuid)).toEqual(['r1', 'r2'])
    expect(walk.truncated).toBe(false)
  })

  it('follows deprecated edges on request, and filters by predicate and direction', async () => {
    const all = await traverse(store, start, {
      depth: 1,
      limit: 10,
      direction: 'both',
      includeDeprecated: true,
    })
    expect(all.nodes.map((n) => n.node.uuid).sort()).toEqual(['b', 'd'])
    const knows = await traverse(store, start, {
      depth: 2,
      limit: 10,
      direction: 'out',
      includeDeprecated: true,
      predicates: new Set(['KNOWS']),
    })
    expect(knows.nodes.map((n) => n.node.uuid)).toEqual(['d'])
    const back = await traverse(store, start, { depth: 2, limit: 10, direction: 'in' })
    expect(back.nodes).toEqual([])
  })

  it('stops at `limit` nodes and `maxEdges` edges and says so', async () => {
    const byNodes = await traverse(store, start, { depth: 2, limit: 1, direction: 'both' })
    expect(byNodes.nodes.map((n) => n.node.uuid)).toEqual(['b'])
    expect(byNodes.truncated).toBe(true)
    const byEdges = await traverse(store, start, {
      depth: 2,
      limit: 10,
      direction: 'both',
      maxEdges: 1,
    })
    expect(byEdges.edges).toHaveLength(1)
    expect(byEdges.truncated).toBe(true)
  })
})
