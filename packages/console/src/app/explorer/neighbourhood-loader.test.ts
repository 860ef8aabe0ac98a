import { describe, expect, it } from 'vitest'
import type { EngramClient } from '@engram/client'
import { LOAD_CONCURRENCY, loadNeighbourhood } from './neighbourhood-loader.js'
import {
  ENDED_EDGE_COLOR,
  ENDED_NODE_COLOR,
  endedCounts,
  mergeNeighbourhood,
  neighbourhoodGraph,
} from './explorer-graph.js'

/** A fact's window on the fake wire (docs/time.md). */
interface Win {
  valid_at?: string
  invalid_at?: string
  deprecated?: boolean
  properties?: Record<string, unknown>
}

/**
 * A brain as an edge list, answered through a fake `GET /retrieve/entity/status` (which, like the
 * server, leaves out facts outside their window: ended ones now, and with `as_of` those not valid
 * then) and `GET /retrieve/relationships` (not sliced: every record with its window). Entities whose
 * uuid starts with `ev` are events, with the window `events` gives them.
 */
function fakeClient(edges: [string, string, string, Win?][], events: Record<string, Win> = {}) {
  let inFlight = 0
  let maxInFlight = 0
  const calls: string[] = []
  const lists: string[] = []
  const entity = (uuid: string) => ({
    uuid,
    name: uuid.toUpperCase(),
    labels: uuid.startsWith('ev') ? ['EVENT'] : ['Thing'],
    ...events[uuid],
  })
  const relationship = ([a, p, b, w]: [string, string, string, Win?]) => ({
    uuid: `${a}-${p}-${b}`,
    name: p,
    deprecated: false,
    properties: {},
    ...w,
  })
  const visible = (w: Win | undefined, asOf: string | undefined) => {
    const end = w?.invalid_at === undefined ? Infinity : Date.parse(w.invalid_at)
    const at = asOf === undefined ? Date.now() : Date.parse(asOf)
    const start =
      w?.valid_at === undefined || asOf === undefined ? -Infinity : Date.parse(w.valid_at)
    return start <= at && at < end
  }
  type Query = {
    target?: string
    as_of?: string
    query_text?: string
    query_search_target?: string
  }
  const client = {
    GET: async (path: string, init: { params: { query: Query } }) => {
      const q = init.params.query
      if (path === '/retrieve/relationships') {
        lists.push(`${q.query_text}:${q.query_search_target}`)
        const side = q.query_search_target === 'source' ? 0 : 2
        const matching = edges.filter((e) => e[side]!.toUpperCase().includes(q.query_text!))
        return {
          total: matching.length,
          relationships: matching.map((e) => ({
            subject: entity(e[0]),
            predicate: relationship(e),
            object: entity(e[2]),
          })),
        }
      }
      expect(path).toBe('/retrieve/entity/status')
      const target = q.target!
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
          .filter(([a, , b, w]) => (a === target || b === target) && visible(w, q.as_of))
          .map((e) => [
            { ...relationship(e), deprecated: false },
            entity(e[0] === target ? e[2] : e[0]),
          ]),
      }
    },
  } as unknown as EngramClient
  return { client, calls, lists, maxInFlight: () => maxInFlight }
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
    // And the hub's ended facts from the list, as source and as target (none here).
    expect(fake.lists.sort()).toEqual(['HUB:source', 'HUB:target'])
    expect(n.requests).toBe(5)
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
    expect(n.requests).toBe(43)
    expect(fake.maxInFlight()).toBe(LOAD_CONCURRENCY)
  })

  describe('with time (docs/time.md)', () => {
    const paris: Win = {
      valid_at: '2020-03-01T00:00:00.000Z',
      invalid_at: '2023-01-01T00:00:00.000Z',
      deprecated: true,
      properties: { invalidated_by: 'ev-berlin' },
    }
    const berlin: Win = { valid_at: '2023-01-01T00:00:00.000Z' }
    const story: [string, string, string, Win?][] = [
      ['alice', 'LIVES', 'ev-paris', paris],
      ['ev-paris', 'TARGETED', 'paris', paris],
      ['alice', 'MOVED', 'ev-berlin', berlin],
      ['ev-berlin', 'TARGETED', 'berlin', berlin],
    ]
    const events = { 'ev-paris': paris, 'ev-berlin': berlin }

    it('now: draws the ended fact greyed, through the list, out to its object', async () => {
      const fake = fakeClient(story, events)
      const n = await loadNeighbourhood(fake.client, 'alice', 2)
      expect(n.nodes.map((x) => [x.node.uuid, x.hop, x.node.time?.state])).toEqual([
        ['ev-berlin', 1, 'valid'],
        ['ev-paris', 1, 'ended'],
        ['berlin', 2, undefined],
        ['paris', 2, undefined],
      ])
      // The ended event's legs are read from the list too: that is how Paris is reached.
      expect(fake.lists.sort()).toEqual([
        'ALICE:source',
        'ALICE:target',
        'EV-PARIS:source',
        'EV-PARIS:target',
      ])
      expect(n.requests).toBe(1 + 2 + 1 + 3)
      const graph = neighbourhoodGraph(n, 2)
      expect(endedCounts(graph)).toEqual({ nodes: 1, edges: 2 })
      expect(graph.getEdgeAttributes('alice-LIVES-ev-paris')).toMatchObject({
        ended: true,
        label: 'LIVES (valid 2020-03-01 → 2023-01-01, superseded)',
        color: ENDED_EDGE_COLOR,
      })
      expect(graph.getNodeAttributes('ev-paris')).toMatchObject({
        ended: true,
        color: ENDED_NODE_COLOR,
      })
      expect(graph.getEdgeAttributes('alice-MOVED-ev-berlin')).toMatchObject({
        ended: false,
        label: 'MOVED',
        window: 'valid since 2023-01-01',
      })
    })

    it('as of 2021: Paris holds and is not greyed, Berlin is not there yet', async () => {
      const fake = fakeClient(story, events)
      const n = await loadNeighbourhood(fake.client, 'alice', 2, undefined, '2021-06-01')
      expect(n.nodes.map((x) => [x.node.uuid, x.node.time?.state])).toEqual([
        ['ev-paris', 'valid'],
        ['paris', undefined],
      ])
      const graph = neighbourhoodGraph(n, 2)
      expect(endedCounts(graph)).toEqual({ nodes: 0, edges: 0 })
      expect(graph.getEdgeAttribute('alice-LIVES-ev-paris', 'label')).toBe('LIVES')
    })
  })

  it('rejects an unknown entity', async () => {
    await expect(loadNeighbourhood(fakeClient(edges).client, 'nobody', 2)).rejects.toThrow(
      /no entity nobody/,
    )
  })
})
