import { MultiUndirectedGraph } from 'graphology'
import { labelColor } from './label-palette.js'
import type { ExplorerNode, Neighbourhood } from './neighbourhood.js'
import { radialLayout, ringAround, type Point } from './radial-layout.js'

/** Node attributes sigma reads (`x`, `y`, `size`, `color`, `label`) plus the entity's labels. */
export interface NodeAttributes {
  x: number
  y: number
  size: number
  color: string
  /** The entity's name (sigma draws `label`). */
  label: string
  /** The entity's labels; the first one gives the colour. */
  labels: string[]
  /** Whether its neighbours were fetched. */
  expanded: boolean
}

/** Edge attributes: the predicate drawn as the edge label. */
export interface EdgeAttributes {
  label: string
  size: number
  color: string
}

export type ExplorerGraph = MultiUndirectedGraph<NodeAttributes, EdgeAttributes>

/** An empty explorer graph: undirected (status does not say which end is the subject), multi-edges. */
export function createExplorerGraph(): ExplorerGraph {
  return new MultiUndirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: false })
}

function nodeAttributes(node: ExplorerNode, at: Point, expanded: boolean): NodeAttributes {
  return {
    x: at.x,
    y: at.y,
    size: 4,
    color: labelColor(node.labels[0]),
    label: node.name,
    labels: node.labels,
    expanded,
  }
}

/** Adds `n`'s edges whose two ends are in the graph; returns how many were new. */
function addEdges(graph: ExplorerGraph, n: Neighbourhood): number {
  let added = 0
  for (const edge of n.edges) {
    const [a, b] = edge.ends
    if (graph.hasEdge(edge.uuid) || !graph.hasNode(a) || !graph.hasNode(b) || a === b) continue
    graph.addEdgeWithKey(edge.uuid, a, b, { label: edge.predicate, size: 1, color: '#c9ced8' })
    added++
  }
  return added
}

/** Node sizes from degree (square root, so hubs stand out without hiding the rest). */
export function sizeByDegree(graph: ExplorerGraph, nodes: Iterable<string> = graph.nodes()): void {
  for (const node of nodes) {
    graph.setNodeAttribute(node, 'size', 3 + Math.min(14, Math.sqrt(graph.degree(node))))
  }
}

/** A new graph holding `n` laid out radially around its root (see `radialLayout`). */
export function neighbourhoodGraph(n: Neighbourhood, depth: number): ExplorerGraph {
  const parentOf = new Map<string, string | null>()
  for (const { node, parent } of n.nodes) parentOf.set(node.uuid, parent)
  const positions = radialLayout(n.root.uuid, parentOf)
  const graph = createExplorerGraph()
  graph.addNode(n.root.uuid, nodeAttributes(n.root, positions.get(n.root.uuid)!, true))
  for (const { node, hop } of n.nodes) {
    graph.addNode(node.uuid, nodeAttributes(node, positions.get(node.uuid)!, hop < depth))
  }
  addEdges(graph, n)
  sizeByDegree(graph)
  return graph
}

/**
 * Adds the neighbours in `n` that the graph lacks, on rings around `n.root` (which must be in the
 * graph), and the edges between nodes it holds. Returns the nodes added.
 */
export function mergeNeighbourhood(graph: ExplorerGraph, n: Neighbourhood): string[] {
  const center = graph.getNodeAttributes(n.root.uuid)
  const fresh = n.nodes.filter(({ node }) => !graph.hasNode(node.uuid))
  const spots = ringAround(center, fresh.length)
  fresh.forEach(({ node }, i) => graph.addNode(node.uuid, nodeAttributes(node, spots[i]!, false)))
  graph.setNodeAttribute(n.root.uuid, 'expanded', true)
  addEdges(graph, n)
  const touched = new Set([n.root.uuid, ...fresh.map((f) => f.node.uuid)])
  for (const id of [...touched]) graph.forEachNeighbor(id, (other) => touched.add(other))
  sizeByDegree(graph, touched)
  return fresh.map((f) => f.node.uuid)
}
