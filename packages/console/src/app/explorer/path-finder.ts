import { bidirectional } from 'graphology-shortest-path/unweighted.js'
import type { ExplorerGraph } from './explorer-graph.js'

/** A shortest path: its nodes in order and, between each two, one edge that joins them. */
export interface GraphPath {
  nodes: string[]
  edges: string[]
}

/**
 * A shortest path (fewest hops) from `from` to `to` over the relationships drawn: a bidirectional
 * breadth-first search (graphology-shortest-path), on the graph loaded in the page rather than a
 * server call, so it sees exactly what is drawn, expansions included, and answers at once. Community
 * nodes and their edges are left out (they are no relationships). Null when no path joins them.
 */
export function shortestPath(graph: ExplorerGraph, from: string, to: string): GraphPath | null {
  if (!graph.hasNode(from) || !graph.hasNode(to)) return null
  if (from === to) return { nodes: [from], edges: [] }
  const entities = graph.copy()
  entities.forEachNode((node, a) => {
    if (a.kind === 'community') entities.dropNode(node)
  })
  const nodes = bidirectional(entities, from, to)
  if (nodes === null) return null
  const edges: string[] = []
  for (let i = 1; i < nodes.length; i++) edges.push(graph.edges(nodes[i - 1]!, nodes[i]!)[0]!)
  return { nodes, edges }
}

/**
 * The drawn entity a name typed in the path form means: the one with that exact name
 * (case-insensitive), else the only one whose name contains it; null when none or several do.
 */
export function findDrawnNode(graph: ExplorerGraph, text: string): string | null {
  const wanted = text.trim().toLowerCase()
  if (wanted === '') return null
  let exact: string | null = null
  const partial: string[] = []
  graph.forEachNode((node, a) => {
    if (a.kind === 'community') return
    const name = a.label.toLowerCase()
    if (name === wanted) exact ??= node
    else if (name.includes(wanted)) partial.push(node)
  })
  return exact ?? (partial.length === 1 ? partial[0]! : null)
}
