import Sigma from 'sigma'
import type { EdgeAttributes, ExplorerGraph, NodeAttributes } from './explorer-graph.js'

/** What the user does on the canvas. */
export interface SigmaHandlers {
  /** A node was clicked: select it. */
  select(uuid: string): void
  /** A node was double-clicked: fetch its neighbours. */
  expand(uuid: string): void
}

/** The sigma renderer of the explorer, with hover highlighting and a selected node. */
export interface SigmaView {
  readonly sigma: Sigma<NodeAttributes, EdgeAttributes>
  /** Replaces the graph drawn (a new neighbourhood). */
  setGraph(graph: ExplorerGraph): void
  /** Marks `uuid` as selected (drawn larger, label always shown); null clears. */
  setSelected(uuid: string | null): void
  /**
   * Resolves once the frame showing what was just set is on screen: sigma's next `afterRender` (the
   * draw calls are issued), then two animation frames. The browser starts a frame only after the
   * previous one was rasterised and composited, so this also counts the GPU's share, which is most of
   * it under software rendering (SwiftShader) and which `afterRender` alone would leave out.
   */
  nextRender(): Promise<void>
  kill(): void
}

const DIMMED_NODE = '#e3e6ec'
const HIGHLIGHTED_EDGE = '#5b6475'
/** A highlighted ended fact stays lighter than a live one. */
const HIGHLIGHTED_ENDED_EDGE = '#a3a9b6'

/**
 * Sigma (WebGL) over the explorer graph. Hovering a node highlights it, its neighbours and its edges
 * (sigma's `isHighlighted` state, set on the node's own neighbourhood only: O(degree) per hover, never
 * O(n) work per frame). Edge labels (predicates) are drawn where sigma has room for them, always for
 * the hovered and the selected node's edges. (Hiding the others on large graphs was measured: no
 * difference to the first frame of the benchmark's 2,400-edge neighbourhood.) Edges are
 * hidden while the camera moves on large graphs so panning stays smooth at 10,000 nodes.
 */
export function createSigmaView(
  container: HTMLElement,
  graph: ExplorerGraph,
  handlers: SigmaHandlers,
): SigmaView {
  let selected: string | null = null
  let selectedEdges = new Set<string>()
  let highlighted: { nodes: string[]; edges: string[] } | null = null
  const sigma = new Sigma<NodeAttributes, EdgeAttributes>(graph, container, {
    settings: {
      renderEdgeLabels: true,
      allowInvalidContainer: true,
      hideEdgesOnMove: graph.size > 5000,
      gestureTarget: 'graph',
      labelRenderedSizeThreshold: 6,
      zIndex: true,
    } as Partial<Sigma['getSettings'] extends () => infer S ? S : never>,
    nodeReducer: (key, _data, _attrs, state, graphState) => {
      if (key === selected) {
        return { size: Math.max(_data.size * 1.6, 10), labelVisibility: 'visible', zIndex: 3 }
      }
      if (graphState.hasHighlighted && !state.isHighlighted) {
        return { color: DIMMED_NODE, labelVisibility: 'hidden', zIndex: 0 }
      }
      if (state.isHighlighted) return { labelVisibility: 'visible', zIndex: 2 }
      return {}
    },
    edgeReducer: (_key, _data, attrs, state, graphState) => {
      if (graphState.hasHighlighted && !state.isHighlighted) return { visibility: 'hidden' }
      if (state.isHighlighted)
        return attrs.ended
          ? { color: HIGHLIGHTED_ENDED_EDGE, size: 1, labelVisibility: 'visible' }
          : { color: HIGHLIGHTED_EDGE, size: 2, labelVisibility: 'visible' }
      return {}
    },
  })

  const clearHighlight = () => {
    if (highlighted === null) return
    sigma.setNodesState(highlighted.nodes, { isHighlighted: false })
    sigma.setEdgesState(highlighted.edges, { isHighlighted: false })
    highlighted = null
  }
  sigma.on('enterNode', ({ node }) => {
    clearHighlight()
    const g = sigma.getGraph()
    const nodes = [node, ...g.neighbors(node)]
    const edges = g.edges(node)
    sigma.setNodesState(nodes, { isHighlighted: true })
    sigma.setEdgesState(edges, { isHighlighted: true })
    highlighted = { nodes, edges }
  })
  sigma.on('leaveNode', clearHighlight)
  sigma.on('clickNode', ({ node }) => handlers.select(node))
  sigma.on('doubleClickNode', (payload) => {
    payload.preventSigmaDefault()
    handlers.expand(payload.node)
  })

  const refreshNodes = (nodes: (string | null)[], edges: string[]) => {
    const g = sigma.getGraph()
    const keys = nodes.filter((n): n is string => n !== null && g.hasNode(n))
    const edgeKeys = edges.filter((e) => g.hasEdge(e))
    if (keys.length + edgeKeys.length > 0) {
      sigma.refresh({ partialGraph: { nodes: keys, edges: edgeKeys }, skipIndexation: true })
    }
  }

  return {
    sigma,
    setGraph(next) {
      highlighted = null
      selected = null
      selectedEdges = new Set()
      sigma.setSetting('hideEdgesOnMove', next.size > 5000)
      sigma.setGraph(next)
    },
    setSelected(uuid) {
      const previous = selected
      const previousEdges = selectedEdges
      const g = sigma.getGraph()
      selected = uuid
      selectedEdges = new Set(uuid !== null && g.hasNode(uuid) ? g.edges(uuid) : [])
      refreshNodes([previous, uuid], [...previousEdges, ...selectedEdges])
    },
    nextRender: () =>
      new Promise<void>((resolve) => {
        sigma.once('afterRender', () =>
          requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
        )
        sigma.scheduleRender()
      }),
    kill: () => sigma.kill(),
  }
}
