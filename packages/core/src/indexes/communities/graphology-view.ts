import { MultiDirectedGraph } from 'graphology'
import type { GraphIndex } from '../graph/graph-index.js'

/** What the view keeps of an entity: enough to rank and summarise communities, not the record. */
export interface KnowledgeNode {
  name: string
  labels: readonly string[]
  description: string | null
  /** False for a node only known as the end of an edge (its entity record not seen yet). */
  present: boolean
  observations: readonly { id: string; text: string }[]
}

/** What the view keeps of a relationship. The edge key is the relationship uuid. */
export interface KnowledgeEdge {
  predicate: string
  description: string | null
  /** `properties.weight` when it is a positive number, else 1. */
  weight: number
}

export type KnowledgeMultiGraph = MultiDirectedGraph<KnowledgeNode, KnowledgeEdge>

/**
 * A graphology `MultiDirectedGraph` of the brain's one in-memory graph ({@link GraphIndex}), taken when
 * communities are computed: graphology stays the library for graph algorithms (Louvain), the arrays
 * stay the source of truth. Nodes: entities (events included: they link an actor to what it acted on)
 * and placeholders for edge ends whose record was not seen yet; deleted entities are left out with
 * their edges. Edges: live, not superseded, keyed by the relationship uuid so parallel relationships
 * stay distinct. Nodes and edges are added in their numbering order, so one graph always gives the
 * same view (Louvain's seeded visiting order depends on it).
 */
export function graphologyView(graph: GraphIndex): KnowledgeMultiGraph {
  const view: KnowledgeMultiGraph = new MultiDirectedGraph({ allowSelfLoops: false })
  for (let n = 0; n < graph.nodeCount; n++) {
    if (graph.deleted[n]) continue
    view.addNode(graph.uuid[n]!, {
      name: graph.name[n]!,
      labels: graph.labels[n]!,
      description: graph.description[n]!,
      present: graph.present[n]!,
      observations: graph.observations[n]!,
    })
  }
  for (let e = 0; e < graph.edgeUuid.length; e++) {
    const s = graph.subject[e]!
    const o = graph.object[e]!
    if (!graph.live[e] || !graph.valid[e] || graph.deleted[s] || graph.deleted[o]) continue
    view.addEdgeWithKey(graph.edgeUuid[e]!, graph.uuid[s]!, graph.uuid[o]!, {
      predicate: graph.predicate[e]!,
      description: graph.edgeDescription[e]!,
      weight: graph.linkWeight[e]!,
    })
  }
  return view
}
