import type { BrainStore } from '../contracts/storage-adapter.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { NeighborsOf } from './neighbors-of.js'

export interface TraverseOptions {
  /** Hops from the start, >= 1. */
  depth: number
  /** Nodes to reach besides the start; a node beyond it is not listed and sets `truncated`. */
  limit: number
  /** Follow edges from subject to object (`out`), back (`in`), or both. */
  direction: 'out' | 'in' | 'both'
  /** Only relationships with one of these names (UPPER_SNAKE); null or absent: all. */
  predicates?: ReadonlySet<string> | null
  /** Also follow deprecated relationships (default false). */
  includeDeprecated?: boolean
  /** Most edges returned, whatever the fan-out of the nodes reached (default 500). */
  maxEdges?: number
}

/** A node reached, with its hop distance from the start. */
export interface TraversedNode {
  node: Entity
  depth: number
}

export interface Traversal {
  /** Nodes reached besides the start, in the order reached (so by distance). */
  nodes: TraversedNode[]
  /** Edges followed between the start and listed nodes. */
  edges: Relationship[]
  /** A limit (`limit` or `maxEdges`) cut the walk short. */
  truncated: boolean
}

/**
 * Breadth-first walk from `start`, read-only, over the same edge reader as the neighbour operations
 * ({@link NeighborsOf}: each node's live edges newest first, self-loops and edges to missing nodes
 * skipped), so a walk and `/retrieve/neighbors` see one graph. Every edge between reached nodes that
 * the walk crosses is kept (up to `maxEdges`), not only the tree edges.
 */
export async function traverse(
  store: BrainStore,
  start: Entity,
  options: TraverseOptions,
): Promise<Traversal> {
  const { depth, limit, direction, predicates = null } = options
  const maxEdges = options.maxEdges ?? 500
  const graph = new NeighborsOf(store, { includeDeprecated: options.includeDeprecated === true })
  graph.remember([start])
  const reached = new Map<string, TraversedNode>([[start.uuid, { node: start, depth: 0 }]])
  const edges = new Map<string, Relationship>()
  let frontier = [start.uuid]
  let truncated = false
  for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
    const next: string[] = []
    for (const uuid of frontier) {
      for (const edge of await graph.of(uuid)) {
        if (predicates !== null && !predicates.has(edge.relationship.name)) continue
        if (direction !== 'both' && edge.direction !== direction) continue
        const other = edge.node.uuid
        if (!reached.has(other)) {
          // `reached` holds the start too: stop once `limit` nodes besides it are listed.
          if (reached.size > limit) {
            truncated = true
            continue
          }
          reached.set(other, { node: edge.node, depth: hop })
          next.push(other)
        }
        if (edges.size >= maxEdges) truncated = true
        else edges.set(edge.relationship.uuid, edge.relationship)
      }
    }
    frontier = next
  }
  reached.delete(start.uuid)
  return { nodes: [...reached.values()], edges: [...edges.values()], truncated }
}
