import { describe, expect, it } from 'vitest'
import type { EngramClient } from '@engram/client'
import { LOAD_CONCURRENCY, loadNeighbourhood } from './neighbourhood-loader.js'
import { mergeNeighbourhood, neighbourhoodGraph } from './explorer-graph.js'

/** A brain as an edge list, answered through a fake `GET /retrieve/entity/status`. */
function fakeClient(edges: [string, string, string][]) {
  let inFlight = 0
  let maxInFlight = 0
  const calls: string[] = []
  const entity = (uuid: string) => ({ uuid, name: uuid.toUpperCase(), labels: ['Thing'] })
  const client = {
    GET: async (path: string, init: { params: { query: { target: string } } }) => {
      expect(path).toBe('/retrieve/entity/status')
      const target = init.params.query.target
      calls.push(target)
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 2))
      inFlight--
      const known = edges.some(([a, , b]) => a === target || b === target)
      return {
        exists: known,
        ...(known ? { node: entity(target) } : {}),
        observations: [],
        relationships: edges
          .filter(([a, , b]) => a === target || b === target)
          .map(([a, p, b]) => [{ uuid: `${a}-${p}-${b}`, name: p }, entity(a === target ? b : a)]),
      }
    },
  } as unknown as EngramClient
  return { client, calls, maxInFlight: () => maxInFlight }
}

describe('loadNeighbourhood', () => {
  const edges: [string, string, string][] = [
    ['hub', 'KNOWS', 'a'],
    ['hub', 'KNOWS', 'b'],
    ['a', 'LIKES', 'b'],
    ['a', 'PART_OF', 'x'],
    ['b', 'PART_OF', 'y'],
    ['y', 'NEAR', 'far'],
  ]

  it('reads the entity and each first-hop neighbour once, and keeps nodes within two hops', async () => {
    const fake = fakeClient(edges)
    const n = await loadNeighbourhood(fake.client, 'hub', 2)
    expect(fake.calls.sort()).toEqual(['a', 'b', 'hub'])
    expect(n.requests).toBe(3)
    expect(n.nodes.map((x) => [x.node.uuid, x.hop, x.parent])).toEqual([
      ['a', 1, 'hub'],
      ['b', 1, 'hub'],
      ['x', 2, 'a'],
      ['y', 2, 'b'],
    ])
    // a-LIKES-b is seen from both ends but drawn once; y-NEAR-far is three hops out.
    expect(n.edges.map((e) => e.uuid).sort()).toEqual(
      ['a-LIKES-b', 'a-PART_OF-x', 'b-PART_OF-y', 'hub-KNOWS-a', 'hub-KNOWS-b'].sort(),
    )
    const graph = neighbourhoodGraph(n, 2)
    expect([graph.order, graph.size]).toEqual([5, 5])
  })

  it('expands a node into an existing graph with only what is new', async () => {
    const fake = fakeClient(edges)
    const graph = neighbourhoodGraph(await loadNeighbourhood(fake.client, 'hub', 2), 2)
    const added = mergeNeighbourhood(graph, await loadNeighbourhood(fake.client, 'y', 1))
    expect(added).toEqual(['far'])
    expect([graph.order, graph.size]).toEqual([6, 6])
    expect(graph.getNodeAttribute('y', 'expanded')).toBe(true)
  })

  it(`keeps at most ${LOAD_CONCURRENCY} requests in flight`, async () => {
    const star: [string, string, string][] = Array.from({ length: 40 }, (_, i) => [
      'hub',
      'HAS',
      `n${i}`,
    ])
    const fake = fakeClient(star)
    const n = await loadNeighbourhood(fake.client, 'hub', 2)
    expect(n.requests).toBe(41)
    expect(fake.maxInFlight()).toBe(LOAD_CONCURRENCY)
  })

  it('rejects an unknown entity', async () => {
    await expect(loadNeighbourhood(fakeClient(edges).client, 'nobody', 2)).rejects.toThrow(
      /no entity nobody/,
    )
  })
})
