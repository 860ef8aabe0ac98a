import { MultiUndirectedGraph } from 'graphology'
import { labelColor } from './label-palette.js'
import type { FactTime } from './fact-window.js'
import type { ExplorerEdge, ExplorerNode, Neighbourhood } from './neighbourhood.js'
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
  /** An event whose fact had ended at the time viewed: drawn greyed. */
  ended: boolean
  /** Its window in words ("valid 2020-03-01 → 2023-01-01, superseded"); "" for none. */
  window: string
  /** Its community (Louvain) once computed, else -1. */
  community?: number
  /** `community`: a collapsed community's node (community-layer.ts), not an entity. */
  kind?: 'community'
  /** A community node's member count. */
  members?: number
}

/** Edge attributes: the predicate drawn as the edge label. */
export interface EdgeAttributes {
  label: string
  /** The relationship's predicate (what the predicate filter matches). */
  predicate: string
  /** `community`: an edge between two collapsed communities, not a relationship. */
  kind?: 'community'
  size: number
  color: string
  /** A fact that had ended at the time viewed: drawn greyed and thinner, its window in the label. */
  ended: boolean
  window: string
}

/** The colour of an edge, and of an ended fact's edge and event (muted, so live facts stand out). */
export const EDGE_COLOR = '#c9ced8'
export const ENDED_EDGE_COLOR = '#e6e8ed'
export const ENDED_NODE_COLOR = '#d5d8de'

/** Sigma's attributes of an edge: ended facts greyed, thinner, with their window after the predicate. */
export function edgeAttributes(predicate: string, time: FactTime | undefined): EdgeAttributes {
  const ended = time?.state === 'ended'
  return {
    label: ended ? `${predicate} (${time!.text})` : predicate,
    predicate,
    size: ended ? 0.5 : 1,
    color: ended ? ENDED_EDGE_COLOR : EDGE_COLOR,
    ended,
    window: time?.text ?? '',
  }
}

/** Sigma's attributes of a node at `at`; an ended event is greyed whatever its label. */
export function nodeAttributes(node: ExplorerNode, at: Point, expanded: boolean): NodeAttributes {
  const ended = node.time?.state === 'ended'
  return {
    x: at.x,
    y: at.y,
    size: 4,
    color: ended ? ENDED_NODE_COLOR : labelColor(node.labels[0]),
    label: node.name,
    labels: node.labels,
    expanded,
    ended,
    window: node.time?.text ?? '',
  }
}

/** Ended facts drawn: greyed events and edges (the legend and `explorer-node-count` show them). */
export function endedCounts(graph: ExplorerGraph): { nodes: number; edges: number } {
  let nodes = 0
  let edges = 0
  graph.forEachNode((_n, a) => void (a.ended && a.kind === undefined && nodes++))
  graph.forEachEdge((_e, a) => void (a.ended && a.kind === undefined && edges++))
  return { nodes, edges }
}

/** Adds `edge` when both its ends are drawn and it is not yet; returns whether it did. */
export function addEdge(graph: ExplorerGraph, edge: ExplorerEdge): boolean {
  const [a, b] = edge.ends
  if (graph.hasEdge(edge.uuid) || !graph.hasNode(a) || !graph.hasNode(b) || a === b) return false
  graph.addEdgeWithKey(edge.uuid, a, b, edgeAttributes(edge.predicate, edge.time))
  return true
}

export type ExplorerGraph = MultiUndirectedGraph<NodeAttributes, EdgeAttributes>

/** An empty explorer graph: undirected (status does not say which end is the subject), multi-edges. */
export function createExplorerGraph(): ExplorerGraph {
  return new MultiUndirectedGraph<NodeAttributes, EdgeAttributes>({ allowSelfLoops: false })
}

/** Adds `n`'s edges whose two ends are in the graph; returns how many were new. */
function addEdges(graph: ExplorerGraph, n: Neighbourhood): number {
  let added = 0
  for (const edge of n.edges) if (addEdge(graph, edge)) added++
  return added
}

/** Node sizes from degree (square root, so hubs stand out without hiding the rest). */
export function sizeByDegree(graph: ExplorerGraph, nodes: Iterable<string> = graph.nodes()): void {
  for (const node of nodes) {
    if (graph.getNodeAttribute(node, 'kind') === 'community') continue
    graph.setNodeAttribute(node, 'size', 3 + Math.min(14, Math.sqrt(graph.degree(node))))
  }
}

/** Entity nodes and relationship edges (community nodes and their edges left out). */
export function entityCounts(graph: ExplorerGraph): { nodes: number; edges: number } {
  let nodes = 0
  let edges = 0
  graph.forEachNode((_n, a) => void (a.kind === undefined && nodes++))
  graph.forEachEdge((_e, a) => void (a.kind === undefined && edges++))
  return { nodes, edges }
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
