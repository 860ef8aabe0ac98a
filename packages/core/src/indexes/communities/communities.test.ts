import { describe, expect, it } from 'vitest'
import { memoryAdapter } from '../../memory-adapter/index.js'
import { BrainCommunities } from './brain-communities.js'
import { CommunityIndex } from './community-index.js'
import { MAX_SUMMARY_CHARS, summarizeCommunities } from './community-summary.js'
import { GraphIndex } from '../graph/graph-index.js'
import { LazyGraphIndex } from '../graph/lazy-graph-index.js'
import { graphologyView } from './graphology-view.js'
import { louvainPartition } from './louvain-communities.js'
import {
  COOKING,
  SOFTWARE,
  fixtureEntity,
  fixtureRelationship,
  twoClusters,
} from '../../../test/support/two-clusters-fixture.js'

async function storeWith(...batches: ReturnType<typeof twoClusters>[]) {
  const adapter = memoryAdapter()
  await adapter.open()
  await adapter.catalog.create({
    id: 'b',
    nameKey: 'b',
    tokenHash: 'x',
    tokenLast4: 'xxxx',
    createdAt: '2025-01-01T00:00:00.000Z',
  })
  const store = await adapter.brain('b')
  for (const batch of batches) await store.apply(batch)
  return store
}

function graphOf(): GraphIndex {
  const graph = new GraphIndex()
  graph.apply(twoClusters())
  return graph
}

/** A third cluster (music) of `size` people who all play in one band: size + size - 1 edges. */
function musicCluster(size: number) {
  const people = Array.from({ length: size }, (_, i) => `m${i}`)
  return {
    entities: [
      fixtureEntity('band', 'The Quartet', ['BAND'], 'a jazz band'),
      ...people.map((p) => fixtureEntity(p, `Musician ${p}`, ['PERSON'])),
    ],
    relationships: [
      ...people.map((p) => fixtureRelationship(`plays-${p}`, p, 'PLAYS_IN', 'band')),
      ...people
        .slice(1)
        .map((p, i) => fixtureRelationship(`jams-${p}`, p, 'JAMS_WITH', people[i]!)),
    ],
  }
}

describe('knowledge graph', () => {
  it('reads entities, relationships and entity observations from the store', async () => {
    const view = graphologyView(await GraphIndex.build(await storeWith(twoClusters())))
    expect(view.order).toBe(13)
    expect(view.size).toBe(23)
    expect(view.getNodeAttribute('basil', 'observations')).toEqual([
      { id: 'o1', text: 'Basil grows best in warm sun.' },
    ])
    expect(view.source('s9')).toBe('engram')
  })

  it('follows batches: superseded and deleted relationships lose their edge, deleted entities their node', () => {
    const graph = graphOf()
    const before = graph.changes
    graph.apply({
      relationships: [
        fixtureRelationship('s1', 'alice', 'WRITES', 'typescript', { deprecated: true }),
      ],
      deleteRelationships: ['s2'],
      deleteEntities: ['vitest'],
    })
    const view = graphologyView(graph)
    expect(view.hasEdge('s1')).toBe(false)
    expect(view.hasEdge('s2')).toBe(false)
    expect(view.hasNode('vitest')).toBe(false)
    expect(view.hasEdge('s8')).toBe(false)
    // s1, s2, then vitest (1) with its three remaining edges.
    expect(graph.changes - before).toBe(6)
    // Re-applying the same put is not a change.
    const again = graph.changes
    graph.apply({ entities: [fixtureEntity('alice', 'Alice', ['PERSON'], 'a software engineer')] })
    expect(graph.changes).toBe(again)
  })
})

describe('Louvain communities (Blondel et al. 2008)', () => {
  it('separates two clusters joined by one weak edge, the same way on every run', () => {
    const view = graphologyView(graphOf())
    const first = louvainPartition(view)
    const software = new Set(SOFTWARE.map((n) => first.communityOf.get(n)))
    const cooking = new Set([...COOKING, 'dinner'].map((n) => first.communityOf.get(n)))
    expect(software.size).toBe(1)
    expect(cooking.size).toBe(1)
    expect([...software][0]).not.toBe([...cooking][0])
    expect(first.modularity).toBeGreaterThan(0.3)
    expect(louvainPartition(view).communityOf).toEqual(first.communityOf)
  })

  it('gives singletons to a graph without edges', () => {
    const graph = new GraphIndex()
    graph.apply({ entities: [fixtureEntity('a', 'A', ['X']), fixtureEntity('b', 'B', ['X'])] })
    const view = graphologyView(graph)
    expect(louvainPartition(view).count).toBe(2)
    expect(summarizeCommunities(view, louvainPartition(view))).toEqual([])
  })
})

describe('community hubs and summaries', () => {
  it('picks the most central non-event members as hubs and summarises from graph text only', () => {
    const view = graphologyView(graphOf())
    const communities = summarizeCommunities(view, louvainPartition(view))
    expect(communities).toHaveLength(2)
    const software = communities.find((c) => c.members.includes('engram'))!
    const cooking = communities.find((c) => c.members.includes('pasta'))!
    // Intra-community weighted degree: Engram 5, Bob 4, then Alice (3, with the bridge as tie-break).
    expect(software.hubs).toEqual(['engram', 'bob', 'alice'])
    expect(software.id).toBe('community:engram')
    expect(software.centrality[0]).toBe(1)
    expect(software.summary).toMatch(/^Engram, Bob, Alice\./)
    expect(software.summary).toContain('Engram: a memory and knowledge-graph retrieval engine.')
    expect(software.summary).toContain('Engram is tested with Vitest.')
    expect(software.summary).toContain('Engram uses Node.js.')
    expect(cooking.members).toContain('dinner')
    expect(cooking.hubs).not.toContain('dinner')
    expect(cooking.labels.has('INGREDIENT')).toBe(true)
  })

  it('bounds summaries', () => {
    const graph = new GraphIndex()
    graph.apply(musicCluster(300))
    const view = graphologyView(graph)
    const [music] = summarizeCommunities(view, louvainPartition(view, { resolution: 0.1 }))
    expect(music!.summary.length).toBeLessThanOrEqual(MAX_SUMMARY_CHARS)
    expect(music!.summary.endsWith('…')).toBe(true)
  })
})

describe('community index', () => {
  it('finds communities by their summary and returns their members, hubs first', () => {
    const index = CommunityIndex.compute(graphOf())
    const [top, ...rest] = index.search('typescript testing engine', 5)
    expect(top!.id).toBe('community:engram')
    expect(top!.members.map((m) => m.uuid).sort()).toEqual([...SOFTWARE].sort())
    expect(rest.every((c) => c.score < top!.score)).toBe(true)
    expect(index.stats).toMatchObject({ nodes: 13, edges: 23, communities: 2 })
  })

  it('community_labels choose the hubs and filter the communities', () => {
    const index = CommunityIndex.compute(graphOf())
    const [software] = index.search('typescript', 5, ['LANGUAGE'])
    expect(software!.hubs).toEqual(['typescript'])
    expect(index.search('pasta tomato', 5, ['LANGUAGE'])).toEqual([])
    const [cooking] = index.search('pasta tomato', 5, ['INGREDIENT'])
    expect(cooking!.hubs.sort()).toEqual(['basil', 'tomato'])
    expect(cooking!.members.map((m) => m.uuid)).not.toContain('dinner')
    const [withEvents] = index.search('pasta tomato', 5, ['INGREDIENT', 'EVENT'])
    expect(withEvents!.members.map((m) => m.uuid)).toContain('dinner')
  })
})

describe('brain communities', () => {
  function manual() {
    const tasks: (() => void)[] = []
    const graph = new LazyGraphIndex()
    const communities = new BrainCommunities(graph, { schedule: (task) => tasks.push(task) })
    return { communities, graph, tasks }
  }

  it('computes on first use, then only when >= 5% of the edges changed, in the background', async () => {
    const store = await storeWith(twoClusters())
    const { communities, graph, tasks } = manual()
    const first = await communities.index(store)
    expect(first.communities).toHaveLength(2)
    expect(await communities.index(store)).toBe(first)

    // 23 edges: one changed edge is under 5% (1.15), so nothing is scheduled.
    graph.apply({ relationships: [fixtureRelationship('x1', 'bob', 'KNOWS', 'carol')] })
    expect(await communities.index(store)).toBe(first)
    expect(tasks).toHaveLength(0)

    // A new cluster: stale. The request is answered from the current communities; one refresh is queued.
    graph.apply(musicCluster(4))
    expect(await communities.index(store)).toBe(first)
    expect(await communities.index(store)).toBe(first)
    expect(tasks).toHaveLength(1)
    tasks.shift()!()
    await communities.settled()
    const second = await communities.index(store)
    expect(second).not.toBe(first)
    expect(second.communities).toHaveLength(3)
    expect(second.search('jazz band', 1)[0]!.hubs[0]).toBe('band')
  })

  it('replays batches committed while the graph was being read', async () => {
    const store = await storeWith(twoClusters())
    const { communities, graph } = manual()
    const pending = communities.index(store)
    graph.apply(musicCluster(4))
    const index = await pending
    expect(index.communities).toHaveLength(3)
  })

  it('answers searches while a deleted member is still in the last computation', async () => {
    const store = await storeWith(twoClusters())
    const { communities, graph } = manual()
    await communities.index(store)
    graph.apply({ deleteEntities: ['engram'] })
    const [software] = (await communities.index(store)).search('typescript', 1)
    expect(software!.members.map((m) => m.uuid)).not.toContain('engram')
    expect(software!.hubs).not.toContain('engram')
  })
})
