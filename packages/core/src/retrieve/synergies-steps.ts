import type { GraphIndex } from '../indexes/graph/graph-index.js'

/**
 * Called for each step from a node: `far` is the node reached, `first` the edge taken from the start,
 * and through an event `second` is the other leg and `event` the event (both -1 for a direct edge).
 */
export type StepVisitor = (far: number, first: number, second: number, event: number) => void

/** Adamic & Adar's weight of a shared node: 1 / log2(2 + degree); hubs say little about a pair. */
export function specificity(graph: GraphIndex, node: number): number {
  return 1 / Math.log2(2 + graph.degree(node))
}

/** Walkable edge: live, both ends present, not superseded. */
function walkable(graph: GraphIndex, e: number): boolean {
  return graph.valid[e]! && graph.usable(e)
}

/** The node's walkable edges; past `cap`, the `cap` newest (undated last, then by edge number). */
export function cappedEdges(graph: GraphIndex, node: number, cap: number): readonly number[] {
  const all = graph.adjacency[node]!
  const edges = all.length <= cap ? all : newest(graph, all, cap)
  let clean = true
  for (const e of edges) if (!walkable(graph, e)) clean = false
  return clean ? edges : edges.filter((e) => walkable(graph, e))
}

function newest(graph: GraphIndex, edges: readonly number[], cap: number): number[] {
  const time = (e: number) => {
    const t = graph.timeOfEdge(e)
    return Number.isNaN(t) ? -Infinity : t
  }
  return edges
    .filter((e) => walkable(graph, e))
    .sort((a, b) => time(b) - time(a) || a - b)
    .slice(0, cap)
}

/**
 * Every step from `node` to a non-event node: along a direct edge, or into an event and out along
 * another leg of the same flow key (a leg without a flow key pairs with any). At most `cap` edges of
 * `node` are read (the newest). Allocates nothing per step: the walks of synergies and recommendations
 * visit hundreds of thousands of steps per request.
 */
export function forEachStep(
  graph: GraphIndex,
  node: number,
  cap: number,
  visit: StepVisitor,
): void {
  const edges = cappedEdges(graph, node, cap)
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i]!
    const next = graph.subject[e] === node ? graph.object[e]! : graph.subject[e]!
    if (!graph.isEvent[next]) {
      visit(next, e, -1, -1)
      continue
    }
    const flow = graph.flowKey[e]
    const legs = graph.adjacency[next]!
    for (let j = 0; j < legs.length; j++) {
      const leg = legs[j]!
      if (leg === e || !walkable(graph, leg)) continue
      const f = graph.flowKey[leg]
      if (flow !== null && f !== null && f !== flow) continue
      const far = graph.subject[leg] === next ? graph.object[leg]! : graph.subject[leg]!
      if (far !== node && !graph.isEvent[far]) visit(far, e, leg, next)
    }
  }
}
