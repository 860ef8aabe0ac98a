import type { EngramClient, Entity, Relationship } from '@engram/client'
import { boundedMap } from './bounded-map.js'
import type { ExplorerEdge, ExplorerNode, Neighbourhood } from './neighbourhood.js'

/** `/retrieve/entity/status` answers at most this many relationships per entity (core's cap). */
export const STATUS_RELATIONSHIPS_CAP = 1000
/** Parallel requests: Chromium opens at most six HTTP/1.1 connections per origin. */
export const LOAD_CONCURRENCY = 6

type Status = Awaited<ReturnType<typeof fetchStatus>>

function fetchStatus(client: EngramClient, uuid: string, signal?: AbortSignal) {
  return client.GET('/retrieve/entity/status', {
    params: { query: { target: uuid } },
    ...(signal === undefined ? {} : { signal }),
  })
}

const toNode = (e: { uuid: string; name: string; labels: string[] }): ExplorerNode => ({
  uuid: e.uuid,
  name: e.name,
  labels: e.labels,
})

/**
 * The `depth`-hop neighbourhood of `uuid` (1 or 2), through the spec's endpoints only: the entity's
 * `GET /retrieve/entity/status` lists every live relationship with the entity at its other end (up to
 * {@link STATUS_RELATIONSHIPS_CAP}); at depth 2 the same call for each first-hop neighbour, at most
 * {@link LOAD_CONCURRENCY} at a time. So a 2-hop neighbourhood costs 1 + (first-hop degree) requests.
 *
 * Why not the other graph endpoints: `/retrieve/entities/neighbors` answers at most 100 ranked nodes
 * (first hop capped at 100 edges, a mix of 1- and 2-hop nodes whose connecting edge is ambiguous),
 * `/retrieve/hops` is seeded by a text query with a fan-out of 10/5/3, and `/retrieve/entity/context`
 * stops at 20 children per node and 400 nodes. Status is the one that gives a node's complete edge list.
 *
 * Throws `EngramError` RESOURCE_NOT_FOUND-like errors from the client; an unknown uuid is an `Error`.
 */
export async function loadNeighbourhood(
  client: EngramClient,
  uuid: string,
  depth: 1 | 2,
  signal?: AbortSignal,
): Promise<Neighbourhood> {
  const first = await fetchStatus(client, uuid, signal)
  if (!first.exists || first.node === undefined) throw new Error(`no entity ${uuid}`)
  const root = toNode(first.node)
  const result: Neighbourhood = { root, nodes: [], edges: [], truncated: [], requests: 1 }
  const hopOf = new Map<string, number>([[root.uuid, 0]])
  const seenEdges = new Set<string>()
  const take = (from: string, status: Status, hop: number) => {
    if (status.relationships.length >= STATUS_RELATIONSHIPS_CAP) result.truncated.push(from)
    // The document types the pair as an array of either record; it is [Relationship, Entity].
    for (const pair of status.relationships) {
      const [relationship, other] = pair as unknown as [Relationship, Entity]
      if (!hopOf.has(other.uuid)) {
        hopOf.set(other.uuid, hop)
        result.nodes.push({ node: toNode(other), hop, parent: from })
      }
      if (seenEdges.has(relationship.uuid)) continue
      seenEdges.add(relationship.uuid)
      const edge: ExplorerEdge = {
        uuid: relationship.uuid,
        predicate: relationship.name,
        ends: [from, other.uuid],
      }
      result.edges.push(edge)
    }
  }
  take(root.uuid, first, 1)
  if (depth === 2) {
    const firstHop = result.nodes.map((n) => n.node.uuid)
    const statuses = await boundedMap(firstHop, LOAD_CONCURRENCY, (id) =>
      fetchStatus(client, id, signal),
    )
    result.requests += firstHop.length
    statuses.forEach((status, i) => take(firstHop[i]!, status, 2))
  }
  return result
}
