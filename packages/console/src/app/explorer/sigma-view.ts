import Sigma from 'sigma'
import { COLLAPSE_RATIO } from './community-layer.js'
import type { EdgeAttributes, ExplorerGraph, NodeAttributes } from './explorer-graph.js'
import { placeLabels, type LabelBox, type LabelCandidate } from './label-placement.js'

/** What the user does on the canvas. */
export interface SigmaHandlers {
  /** A node was clicked: select it. */
  select(uuid: string): void
  /** A node was double-clicked: fetch its neighbours. */
  expand(uuid: string): void
}

/** What is shown of the graph: filters, a path, and whether communities stand for their members. */
export interface ViewFilter {
  /** First labels whose entities are hidden ('' for unlabelled ones). */
  hiddenLabels: ReadonlySet<string>
  /** Predicates whose relationships are hidden. */
  hiddenPredicates: ReadonlySet<string>
}

/** The sigma renderer of the explorer, with hover highlighting and a selected node. */
export interface SigmaView {
  readonly sigma: Sigma<NodeAttributes, EdgeAttributes>
  /**
   * Replaces the graph drawn (a new neighbourhood, or a copy with an expansion merged: sigma 4.0.4
   * fails on an edge added in place to a graph given by `setGraph`, so the explorer never adds edges
   * to the graph drawn). `keepCamera` keeps the view where it is (an expansion).
   */
  setGraph(graph: ExplorerGraph, keepCamera?: boolean): void
  /** Marks `uuid` as selected (drawn larger, label always shown); null clears. */
  setSelected(uuid: string | null): void
  /** Hides entities by label and relationships by predicate (`refresh` false: the next draw shows it). */
  setFilter(filter: ViewFilter, refresh?: boolean): void
  /** Highlights a path (its nodes' labels shown, its edges drawn dark); null clears. */
  setPath(path: { nodes: string[]; edges: string[] } | null): void
  /** Whether community nodes stand for their members now (the camera is zoomed out past the threshold). */
  collapsed(): boolean
  /**
   * Resolves once the frame showing what was just set is on screen: the render that draws it (done
   * already, or requested for the coming frame), then two animation frames. The browser starts a
   * frame only after the previous one was rasterised and composited, so this also counts the GPU's
   * share, which is most of it under software rendering (SwiftShader) and which sigma's
   * `afterRender` alone would leave out. Labels are placed once that frame is on screen, and drawn
   * in a frame of their own.
   */
  nextRender(): Promise<void>
  /** Runs the label placement now (after the graph's positions changed). */
  placeLabels(): void
  /** The label boxes of the last placement (viewport px), for the tests and the benchmark. */
  labelBoxes(): LabelBox[]
  kill(): void
}

const DIMMED_NODE = '#e3e6ec'
const HIGHLIGHTED_EDGE = '#5b6475'
const PATH_EDGE = '#d55e00'
/** A highlighted ended fact stays lighter than a live one. */
const HIGHLIGHTED_ENDED_EDGE = '#a3a9b6'
/** Sigma's default label font size (px), which the placement measures at. */
const LABEL_PX = 12
/**
 * Every redraw this view asks for waits for the next animation frame (`schedule`), so the changes of
 * one task cost one render. A synchronous `sigma.refresh()` renders at once, and the GPU draws every
 * render, shown or not: opening a 2,166-node neighbourhood rendered four times before its first frame
 * (the old graph without its path, the new graph, the frame, its labels), and under SwiftShader each
 * costs about 250 ms (console benchmark, issue 30).
 */
const SCHEDULED = { skipIndexation: true, schedule: true } as const

/**
 * Sigma (WebGL) over the explorer graph. Hovering a node highlights it, its neighbours and its edges
 * (sigma's `isHighlighted` state, set on the node's own neighbourhood only). Node labels are chosen by
 * our own collision pass ({@link placeLabels}), run when the camera stops, the graph moves or the
 * hover or selection changes: selected and hovered first, then path and highlighted nodes, community
 * nodes, then by rendered size (degree or PageRank), so no two labels overlap and more appear as the
 * user zooms in. Sigma is told exactly which to draw (`labelVisibility`). Edge labels (predicates)
 * show only for the hovered and selected node's edges and the path. Above {@link COLLAPSE_RATIO}
 * (zoomed out), a graph with a community layer shows its communities instead of their members.
 */
export function createSigmaView(
  container: HTMLElement,
  graph: ExplorerGraph,
  handlers: SigmaHandlers,
  /** Elements drawn over the canvas (the filter panel): labels keep off them. */
  overlays: () => HTMLElement[] = () => [],
): SigmaView {
  let selected: string | null = null
  let hovered: string | null = null
  let highlighted: { nodes: string[]; edges: string[] } | null = null
  let filter: ViewFilter = { hiddenLabels: new Set(), hiddenPredicates: new Set() }
  let path: { nodes: Set<string>; edges: Set<string> } = { nodes: new Set(), edges: new Set() }
  let labelled = new Set<string>()
  let boxes: LabelBox[] = []
  let hasCommunities = false
  let isCollapsed = false

  const hiddenNode = (a: NodeAttributes) =>
    a.kind === 'community'
      ? !isCollapsed
      : isCollapsed || filter.hiddenLabels.has(a.labels[0] ?? '')
  const sigma = new Sigma<NodeAttributes, EdgeAttributes>(graph, container, {
    settings: {
      renderEdgeLabels: true,
      allowInvalidContainer: true,
      hideEdgesOnMove: graph.size > 5000,
      gestureTarget: 'graph',
      labelRenderedSizeThreshold: 0,
      zIndex: true,
    } as Partial<Sigma['getSettings'] extends () => infer S ? S : never>,
    nodeReducer: (key, data, attrs, state, graphState) => {
      if (hiddenNode(attrs)) return { visibility: 'hidden' }
      const labelVisibility = labelled.has(key) ? 'visible' : 'hidden'
      if (key === selected)
        return { size: Math.max(data.size * 1.6, 10), labelVisibility: 'visible', zIndex: 3 }
      if (path.nodes.has(key)) return { labelVisibility, zIndex: 2 }
      if (graphState.hasHighlighted && !state.isHighlighted)
        return { color: DIMMED_NODE, labelVisibility: 'hidden', zIndex: 0 }
      if (state.isHighlighted) return { labelVisibility, zIndex: 2 }
      return { labelVisibility }
    },
    edgeReducer: (key, _data, attrs, state, graphState, drawn) => {
      // Community edges: their count shows on hover only (labels crossing in the middle otherwise).
      if (attrs.kind === 'community')
        return !isCollapsed
          ? { visibility: 'hidden' }
          : { labelVisibility: state.isHighlighted ? 'visible' : 'hidden' }
      if (isCollapsed || filter.hiddenPredicates.has(attrs.predicate))
        return { visibility: 'hidden' }
      // `drawn`, not `sigma.getGraph()`: sigma's constructor runs the reducers before it returns.
      if (!drawn.hasEdge(key)) return {}
      const [s, t] = drawn.extremities(key)
      if (hiddenNode(drawn.getNodeAttributes(s)) || hiddenNode(drawn.getNodeAttributes(t)))
        return { visibility: 'hidden' }
      if (path.edges.has(key)) return { color: PATH_EDGE, size: 3, labelVisibility: 'visible' }
      if (graphState.hasHighlighted && !state.isHighlighted) return { visibility: 'hidden' }
      if (state.isHighlighted)
        return attrs.ended
          ? { color: HIGHLIGHTED_ENDED_EDGE, size: 1, labelVisibility: 'visible' }
          : { color: HIGHLIGHTED_EDGE, size: 2, labelVisibility: 'visible' }
      return { labelVisibility: 'hidden' }
    },
  })

  const widths = new Map<string, number>()
  const measure = document.createElement('canvas').getContext('2d')
  const textWidth = (text: string) => {
    let w = widths.get(text)
    if (w === undefined) {
      if (measure !== null) measure.font = `${LABEL_PX}px sans-serif`
      w = measure === null ? text.length * LABEL_PX * 0.6 : measure.measureText(text).width
      widths.set(text, w)
    }
    return w
  }

  /** The collision pass: which labels sigma draws. */
  const runPlacement = () => {
    const g = sigma.getGraph()
    const { width, height } = sigma.getDimensions()
    if (width === 0 || height === 0) return
    const near = new Set(highlighted?.nodes ?? [])
    const candidates: LabelCandidate[] = []
    g.forEachNode((key, a) => {
      if (hiddenNode(a) || a.label === '') return
      if (graphHasHighlight() && !near.has(key) && !path.nodes.has(key) && key !== selected) return
      const display = sigma.getNodeDisplayData(key)
      if (display === undefined) return
      const at = sigma.framedGraphToViewport(display)
      const forced = key === selected || key === hovered
      const size = key === selected ? Math.max(display.size * 1.6, 10) : display.size
      candidates.push({
        key,
        x: at.x,
        y: at.y,
        radius: sigma.scaleSize(size),
        width: textWidth(a.label),
        priority:
          (forced ? 4e6 : 0) +
          (path.nodes.has(key) ? 3e6 : 0) +
          (near.has(key) ? 2e6 : 0) +
          (a.kind === 'community' ? 1e6 : 0) +
          (a.members ?? 0) +
          display.size,
        forced,
      })
    })
    const origin = container.getBoundingClientRect()
    const reserved = overlays()
      .filter((o) => !o.hidden && o.offsetParent !== null)
      .map((o) => {
        const r = o.getBoundingClientRect()
        return {
          x1: r.left - origin.left,
          y1: r.top - origin.top,
          x2: r.right - origin.left,
          y2: r.bottom - origin.top,
        }
      })
    boxes = placeLabels(candidates, { width, height }, { fontPx: LABEL_PX }, reserved)
    const next = new Set(boxes.map((b) => b.key))
    const changed: string[] = []
    for (const key of next) if (!labelled.has(key)) changed.push(key)
    for (const key of labelled) if (!next.has(key) && g.hasNode(key)) changed.push(key)
    labelled = next
    container.dataset.labels = String(next.size)
    // The boxes drawn (rounded px), for the end-to-end test's overlap check.
    container.dataset.labelBoxes = JSON.stringify(
      boxes.map((b) => [b.x1, b.y1, b.x2, b.y2].map((v) => Math.round(v * 10) / 10)),
    )
    if (changed.length > 0) sigma.refresh({ partialGraph: { nodes: changed }, ...SCHEDULED })
  }
  const graphHasHighlight = () => highlighted !== null
  let placementTimer: ReturnType<typeof setTimeout> | null = null
  const schedulePlacement = (delay = 60) => {
    if (placementTimer !== null) clearTimeout(placementTimer)
    placementTimer = setTimeout(() => {
      placementTimer = null
      runPlacement()
    }, delay)
  }

  /** Collapses or expands communities when the camera crosses the threshold. */
  const checkCollapse = () => {
    const next = hasCommunities && sigma.getCamera().getState().ratio > COLLAPSE_RATIO
    container.dataset.collapsed = String(next)
    if (next === isCollapsed) return false
    isCollapsed = next
    sigma.refresh(SCHEDULED)
    return true
  }
  sigma.getCamera().on('updated', () => {
    checkCollapse()
    schedulePlacement(120)
  })

  const clearHighlight = () => {
    if (highlighted === null) return
    sigma.setNodesState(highlighted.nodes, { isHighlighted: false })
    sigma.setEdgesState(highlighted.edges, { isHighlighted: false })
    highlighted = null
  }
  sigma.on('enterNode', ({ node }) => {
    clearHighlight()
    hovered = node
    const g = sigma.getGraph()
    const nodes = [node, ...g.neighbors(node)]
    const edges = g.edges(node)
    sigma.setNodesState(nodes, { isHighlighted: true })
    sigma.setEdgesState(edges, { isHighlighted: true })
    highlighted = { nodes, edges }
    schedulePlacement(0)
  })
  sigma.on('leaveNode', () => {
    hovered = null
    clearHighlight()
    schedulePlacement(0)
  })
  sigma.on('clickNode', ({ node }) => {
    const a = sigma.getGraph().getNodeAttributes(node)
    // A community node zooms onto its members instead of opening a detail.
    if (a.kind === 'community') {
      const display = sigma.getNodeDisplayData(node)
      if (display !== undefined)
        void sigma.getCamera().animate({ x: display.x, y: display.y, ratio: COLLAPSE_RATIO * 0.6 })
      return
    }
    handlers.select(node)
  })
  sigma.on('doubleClickNode', (payload) => {
    payload.preventSigmaDefault()
    if (sigma.getGraph().getNodeAttribute(payload.node, 'kind') === 'community') return
    handlers.expand(payload.node)
  })

  /** A new graph: state reset before sigma processes it, so it is processed once. */
  const onGraph = (g: ExplorerGraph, ratio: number) => {
    hasCommunities = g.someNode((_n, a) => a.kind === 'community')
    isCollapsed = hasCommunities && ratio > COLLAPSE_RATIO
    container.dataset.collapsed = String(isCollapsed)
    labelled = new Set()
    boxes = []
  }
  onGraph(graph, 1)

  /**
   * Whether a render ran since the last animation frame began: the coming frame shows it, so
   * `nextRender` need not ask for another (sigma's `setGraph` and its constructor render at once).
   */
  let renderedForNextFrame = false
  sigma.on('afterRender', () => {
    if (renderedForNextFrame) return
    renderedForNextFrame = true
    requestAnimationFrame(() => {
      renderedForNextFrame = false
    })
  })

  return {
    sigma,
    setGraph(next, keepCamera = false) {
      highlighted = null
      hovered = null
      if (!keepCamera) selected = null
      path = { nodes: new Set(), edges: new Set() }
      // A changed setting makes sigma index the graph drawn again: only when it changes.
      const hideEdges = next.size > 5000
      if (sigma.getSetting('hideEdgesOnMove') !== hideEdges)
        sigma.setSetting('hideEdgesOnMove', hideEdges)
      const ratio = keepCamera ? sigma.getCamera().getState().ratio : 1
      onGraph(next, ratio)
      if (!keepCamera) sigma.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 })
      sigma.setGraph(next)
    },
    setSelected(uuid) {
      const g = sigma.getGraph()
      const previous = selected
      selected = uuid !== null && g.hasNode(uuid) ? uuid : null
      const nodes = [previous, selected].filter((n): n is string => n !== null && g.hasNode(n))
      if (nodes.length > 0) sigma.refresh({ partialGraph: { nodes }, ...SCHEDULED })
      schedulePlacement(0)
    },
    setFilter(next, refresh = true) {
      filter = next
      if (!refresh) return
      sigma.refresh(SCHEDULED)
      schedulePlacement(0)
    },
    setPath(next) {
      path = { nodes: new Set(next?.nodes ?? []), edges: new Set(next?.edges ?? []) }
      sigma.refresh(SCHEDULED)
      schedulePlacement(0)
    },
    collapsed: () => isCollapsed,
    nextRender: () =>
      new Promise<void>((resolve) => {
        // A render requested before (sigma's own or `SCHEDULED`) runs ahead of these callbacks.
        if (!renderedForNextFrame) sigma.scheduleRender()
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            resolve()
            // After the frame, not before it: placing them and drawing them cost another render.
            schedulePlacement(0)
          }),
        )
      }),
    placeLabels: () => schedulePlacement(0),
    labelBoxes: () => boxes,
    kill: () => {
      if (placementTimer !== null) clearTimeout(placementTimer)
      sigma.kill()
    },
  }
}
