import type { EngramClient, Entity, Relationship } from '@engram/client'
import { boundedMap } from './bounded-map.js'
import { endedFacts } from './ended-facts.js'
import { atOf, factTime, type FactTime } from './fact-window.js'
import type { ExplorerEdge, ExplorerNode, Neighbourhood } from './neighbourhood.js'

/** `/retrieve/entity/status` answers at most this many relationships per entity (core's cap). */
export const STATUS_RELATIONSHIPS_CAP = 1000
/** Parallel requests: Chromium opens at most six HTTP/1.1 connections per origin. */
export const LOAD_CONCURRENCY = 6

type Status = Awaited<ReturnType<typeof fetchStatus>>

function fetchStatus(client: EngramClient, uuid: string, signal?: AbortSignal, asOf?: string) {
  return client.GET('/retrieve/entity/status', {
    params: { query: { target: uuid, ...(asOf === undefined ? {} : { as_of: asOf }) } },
    ...(signal === undefined ? {} : { signal }),
  })
}

const isEvent = (e: { labels: string[] }) => e.labels.some((l) => l.toUpperCase() === 'EVENT')

/** The explorer's node of an entity; an event carries its window at `at` (other entities have none). */
export const toNode = (e: Entity, at: number): ExplorerNode => {
  const node: ExplorerNode = { uuid: e.uuid, name: e.name, labels: e.labels }
  if (isEvent(e)) node.time = factTime(e, at)
  return node
}

/**
 * The `depth`-hop neighbourhood of `uuid` (1 or 2) as of `asOf` (a date; now when absent), through the
 * spec's endpoints only: the entity's
 * `GET /retrieve/entity/status` lists every live relationship with the entity at its other end (up to
 * {@link STATUS_RELATIONSHIPS_CAP}); at depth 2 the same call for each first-hop neighbour, at most
 * {@link LOAD_CONCURRENCY} at a time. So a 2-hop neighbourhood costs 1 + (first-hop degree) requests.
 *
 * Why not the other graph endpoints: `/retrieve/entities/neighbors` answers at most 100 ranked nodes
 * (first hop capped at 100 edges, a mix of 1- and 2-hop nodes whose connecting edge is ambiguous),
 * `/retrieve/hops` is seeded by a text query with a fan-out of 10/5/3, and `/retrieve/entity/context`
 * stops at 20 children per node and 400 nodes. Status is the one that gives a node's complete edge list.
 *
 * Ended facts (docs/time.md) are drawn too, greyed: status leaves them out, so the root's are read
 * from the relationship list ({@link endedFacts}, 2 requests), and at depth 2 so are those of each
 * ended event the root reaches (its other legs lead to the fact's object: "Alice -LIVES-> [Alice
 * lives Paris] -TARGETED-> Paris"). Other first-hop nodes show only their live relationships, so an
 * ended fact costs requests only where it is. Every edge and event carries its window at `asOf`.
 *
 * Throws `EngramError` RESOURCE_NOT_FOUND-like errors from the client; an unknown uuid is an `Error`.
 */
export async function loadNeighbourhood(
  client: EngramClient,
  uuid: string,
  depth: 1 | 2,
  signal?: AbortSignal,
  asOf?: string,
): Promise<Neighbourhood> {
  const at = atOf(asOf)
  const first = await fetchStatus(client, uuid, signal, asOf)
  if (!first.exists || first.node === undefined) throw new Error(`no entity ${uuid}`)
  const root = toNode(first.node, at)
  const result: Neighbourhood = { root, nodes: [], edges: [], truncated: [], requests: 1 }
  const hopOf = new Map<string, number>([[root.uuid, 0]])
  const seenEdges = new Set<string>()
  /** Adds the pairs seen from `from`; returns the nodes it reached first. */
  const take = (from: string, pairs: [Relationship, Entity][], hop: number): Entity[] => {
    const reached: Entity[] = []
    for (const [relationship, other] of pairs) {
      if (!hopOf.has(other.uuid)) {
        hopOf.set(other.uuid, hop)
        result.nodes.push({ node: toNode(other, at), hop, parent: from })
        reached.push(other)
      }
      if (seenEdges.has(relationship.uuid)) continue
      seenEdges.add(relationship.uuid)
      const edge: ExplorerEdge = {
        uuid: relationship.uuid,
        predicate: relationship.name,
        ends: [from, other.uuid],
      }
      const time: FactTime = factTime(relationship, at)
      if (time.text !== '' || time.state !== 'valid') edge.time = time
      result.edges.push(edge)
    }
    return reached
  }
  const takeStatus = (from: string, status: Status, hop: number) => {
    if (status.relationships.length >= STATUS_RELATIONSHIPS_CAP) result.truncated.push(from)
    // The document types the pair as an array of either record; it is [Relationship, Entity].
    take(from, status.relationships as unknown as [Relationship, Entity][], hop)
  }
  takeStatus(root.uuid, first, 1)
  const live = result.nodes.map((n) => n.node.uuid)
  const [ended, statuses] = await Promise.all([
    endedFacts(client, first.node, at, signal),
    depth === 2
      ? boundedMap(live, LOAD_CONCURRENCY, (id) => fetchStatus(client, id, signal, asOf))
      : Promise.resolve([]),
  ])
  result.requests += 2 + statuses.length
  const endedOnly = take(root.uuid, ended, 1)
  if (depth === 1) return result
  statuses.forEach((status, i) => takeStatus(live[i]!, status, 2))
  const more = await boundedMap(endedOnly, LOAD_CONCURRENCY, async (e) => {
    const [status, legs] = await Promise.all([
      fetchStatus(client, e.uuid, signal, asOf),
      isEvent(e) ? endedFacts(client, e, at, signal) : Promise.resolve([]),
    ])
    result.requests += isEvent(e) ? 3 : 1
    return { status, legs }
  })
  more.forEach(({ status, legs }, i) => {
    takeStatus(endedOnly[i]!.uuid, status, 2)
    take(endedOnly[i]!.uuid, legs, 2)
  })
  return result
}
