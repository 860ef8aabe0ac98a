import { el } from './explorer-dom.js'
import { createExplorerGraph, nodeAttributes, type ExplorerGraph } from './explorer-graph.js'

/** Glyphs the label atlas draws on first use: the common ones, drawn once here. */
const GLYPHS = [
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'abcdefghijklmnopqrstuvwxyz',
  "0123456789 _-.,:;()+→&'",
]

/** Three nodes and two edges, labelled with the common glyphs: every program sigma draws with. */
function warmUpGraph(): ExplorerGraph {
  const graph = createExplorerGraph()
  GLYPHS.forEach((name, i) =>
    graph.addNode(
      `warm-${i}`,
      nodeAttributes({ uuid: `warm-${i}`, name, labels: [] }, { x: i, y: i % 2 }, false),
    ),
  )
  graph.addEdgeWithKey('warm-edge-0', 'warm-0', 'warm-1', {
    label: GLYPHS[1]!,
    predicate: 'warm',
    size: 1,
    color: '#ffffff',
    ended: false,
    window: '',
  })
  graph.addEdgeWithKey('warm-edge-1', 'warm-1', 'warm-2', {
    label: GLYPHS[2]!,
    predicate: 'warm',
    size: 1,
    color: '#ffffff',
    ended: false,
    window: '',
  })
  return graph
}

/**
 * Builds the renderer before anything is opened, and has the browser draw one frame of it.
 *
 * Why (measured in headless Chromium with software WebGL, SwiftShader): the first neighbourhood opened
 * took 4.3 to 6.9 s although its 5 requests answered in 120 to 190 ms. Of that, sigma's constructor
 * (WebGL context, shader programs, label atlas) took 1.5 to 1.9 s, and the first frame that showed a
 * WebGL canvas another 4.6 to 5 s between sigma's `afterRender` and the next animation frame (the GPU
 * process compiling the shaders on first use). Both are paid once per page, so they are paid here, at
 * sign-in, while the user reads the empty explorer or another tab; opening a neighbourhood afterwards
 * costs its requests and a frame (the 10-node case: 300 to 420 ms in the page on a busy machine).
 *
 * The container is moved into a fixed host of its own, on screen but transparent and behind the page
 * (an element off screen or with opacity 0 is not composited, so the GPU work would stay for later),
 * then moved back to `home` (as its first child) once the frame is on screen.
 */
export async function warmUpRenderer<
  V extends {
    nextRender(): Promise<void>
    setPath(path: { nodes: string[]; edges: string[] } | null): void
    setSelected(uuid: string | null): void
    setGraph(graph: ExplorerGraph): void
  },
>(container: HTMLElement, home: HTMLElement, create: (graph: ExplorerGraph) => V): Promise<V> {
  const host = el('div', { class: 'explorer-warmup', attrs: { 'aria-hidden': 'true' } })
  document.body.append(host)
  host.append(container)
  try {
    const view = create(warmUpGraph())
    await view.nextRender()
    // A second frame with node and edge labels forced and a node selected (larger, on top).
    view.setSelected('warm-0')
    view.setPath({ nodes: ['warm-0', 'warm-1', 'warm-2'], edges: ['warm-edge-0', 'warm-edge-1'] })
    await view.nextRender()
    view.setPath(null)
    view.setSelected(null)
    // Nothing drawn until the user opens something (the empty state shows over the canvas).
    view.setGraph(createExplorerGraph())
    return view
  } finally {
    home.prepend(container)
    host.remove()
  }
}
