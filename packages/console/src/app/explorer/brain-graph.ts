import {
  addEdge,
  createExplorerGraph,
  nodeAttributes,
  sizeByDegree,
  type ExplorerGraph,
} from './explorer-graph.js'
import type { BrainGraph } from './brain-loader.js'
import { radialLayout } from './radial-layout.js'

/**
 * The whole brain as one graph: a breadth-first tree from the best connected entity gives the radial
 * layout (see `radialLayout`); entities it does not reach go on the outer ring. O(n + m).
 */
export function brainGraph(data: BrainGraph): ExplorerGraph {
  const graph = createExplorerGraph()
  for (const node of data.nodes) {
    graph.addNode(node.uuid, { ...nodeAttributes(node, { x: 0, y: 0 }, true), size: 3 })
  }
  for (const edge of data.edges) addEdge(graph, edge)
  if (graph.order === 0) return graph
  let root = ''
  let best = -1
  graph.forEachNode((node) => {
    const degree = graph.degree(node)
    if (degree > best) [root, best] = [node, degree]
  })
  // Breadth-first parents from the root; unreached nodes get null (the outer ring).
  const parentOf = new Map<string, string | null>()
  const queue = [root]
  const seen = new Set([root])
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!
    graph.forEachNeighbor(node, (other) => {
      if (seen.has(other)) return
      seen.add(other)
      parentOf.set(other, node)
      queue.push(other)
    })
  }
  graph.forEachNode((node) => {
    if (!seen.has(node)) parentOf.set(node, null)
  })
  const positions = radialLayout(root, parentOf)
  graph.updateEachNodeAttributes((node, attrs) => ({ ...attrs, ...positions.get(node)! }))
  sizeByDegree(graph)
  return graph
}
