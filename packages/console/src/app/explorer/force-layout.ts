import type { ExplorerGraph } from './explorer-graph.js'
import { layoutBudget } from './layout-convergence.js'
import type { LayoutFrame, LayoutRequest } from './layout-worker.js'

/** The worker's file, beside `console.js` under `/console/` (bundle-console.ts builds it). */
export const LAYOUT_WORKER_FILE = 'explorer-layout-worker.js'
/** Floats per node and per edge in ForceAtlas2's matrices (see layout-worker.ts). */
const NODE_STRIDE = 10
const EDGE_STRIDE = 3

/** How a layout run ended. */
export interface ForceLayoutResult {
  iterations: number
  /** The layout converged; false when its iteration budget ran out first. */
  converged: boolean
  /** Time the worker spent iterating (ms). */
  workerMs: number
  /** The run was stopped before it ended (the graph keeps the last frame it had). */
  stopped: boolean
}

/** A running layout: `done` settles after its last positions were written to the graph. */
export interface ForceLayoutRun {
  done: Promise<ForceLayoutResult>
  /** Ends the run where it is (a new graph, an expansion): `done` resolves with `stopped`. */
  stop(): void
}

/**
 * ForceAtlas2's matrices for the graph's entity nodes (community nodes stay out: they follow their
 * members) and the edges between them, seeded with the nodes' current positions (the radial layout).
 * Mass is 1 + degree, as in graphology-layout-forceatlas2's `graphToByteArrays`.
 */
export function layoutMatrices(graph: ExplorerGraph): {
  keys: string[]
  nodes: Float32Array
  edges: Float32Array
} {
  const keys: string[] = []
  const offset = new Map<string, number>()
  graph.forEachNode((key, a) => {
    if (a.kind === 'community') return
    offset.set(key, keys.length * NODE_STRIDE)
    keys.push(key)
  })
  const nodes = new Float32Array(keys.length * NODE_STRIDE)
  keys.forEach((key, i) => {
    const a = graph.getNodeAttributes(key)
    const j = i * NODE_STRIDE
    nodes[j] = a.x
    nodes[j + 1] = a.y
    nodes[j + 6] = 1
    nodes[j + 7] = 1
    nodes[j + 8] = a.size
  })
  const pairs: number[] = []
  graph.forEachEdge((_e, _a, source, target) => {
    const s = offset.get(source)
    const t = offset.get(target)
    if (s === undefined || t === undefined) return
    nodes[s + 6]! += 1
    nodes[t + 6]! += 1
    pairs.push(s, t)
  })
  const edges = new Float32Array((pairs.length / 2) * EDGE_STRIDE)
  for (let i = 0, j = 0; i < pairs.length; i += 2, j += EDGE_STRIDE) {
    edges[j] = pairs[i]!
    edges[j + 1] = pairs[i + 1]!
    edges[j + 2] = 1
  }
  return { keys, nodes, edges }
}

/** The centre and diagonal of the bounding box of x, y pairs stored every `stride` floats. */
function extent(values: Float32Array, stride: number) {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity]
  for (let i = 0; i < values.length; i += stride) {
    const [x, y] = [values[i]!, values[i + 1]!]
    if (x < minX) minX = x
    if (x > maxX) maxX = x
    if (y < minY) minY = y
    if (y > maxY) maxY = y
  }
  if (minX > maxX) return { cx: 0, cy: 0, diagonal: 0 }
  return {
    cx: (minX + maxX) / 2,
    cy: (minY + maxY) / 2,
    diagonal: Math.hypot(maxX - minX, maxY - minY),
  }
}

/**
 * ForceAtlas2 settings for `order` nodes: graphology-layout-forceatlas2's defaults with its
 * `inferSettings` on top (strong gravity so components stay in view, Barnes-Hut above 2,000 nodes,
 * slow-down 1 + ln n). Every key is set: `iterate` reads them all and does not fill defaults in.
 */
export function forceSettings(order: number): Required<LayoutRequest['settings']> {
  return {
    linLogMode: false,
    outboundAttractionDistribution: false,
    adjustSizes: false,
    edgeWeightInfluence: 1,
    barnesHutTheta: 0.5,
    barnesHutOptimize: order > 2000,
    strongGravityMode: true,
    gravity: 0.05,
    scalingRatio: 10,
    slowDown: 1 + Math.log(Math.max(1, order)),
  }
}

/**
 * Lays `graph` out with ForceAtlas2 in a same-origin worker (`workerUrl`), seeded by the positions it
 * has. Every frame the worker posts is written to the graph (one `updateEachNodeAttributes`, so sigma
 * redraws once) and passed to `onFrame`; the run ends converged or with its budget spent
 * ({@link layoutBudget}). The graph must not gain or lose nodes while it runs: stop it first.
 */
export function startForceLayout(
  graph: ExplorerGraph,
  workerUrl: URL,
  onFrame: (last: boolean) => void,
  frameMs = 250,
): ForceLayoutRun {
  const { keys, nodes, edges } = layoutMatrices(graph)
  const worker = new Worker(workerUrl)
  let finish: (result: ForceLayoutResult) => void = () => {}
  let fail: (error: unknown) => void = () => {}
  const done = new Promise<ForceLayoutResult>((resolve, reject) => {
    finish = resolve
    fail = reject
  })
  const index = new Map<string, number>()
  keys.forEach((key, i) => index.set(key, i))
  const seed = extent(nodes, NODE_STRIDE)
  const apply = (positions: Float32Array) => {
    // Sigma sizes nodes in graph units (`itemSizesReference: 'positions'`): ForceAtlas2's own scale
    // would make them huge or tiny, so every frame keeps the seed layout's extent and centre.
    const frame = extent(positions, 2)
    const k = frame.diagonal === 0 ? 1 : seed.diagonal / frame.diagonal
    graph.updateEachNodeAttributes(
      (key, a) => {
        const i = index.get(key)
        if (i !== undefined) {
          a.x = seed.cx + (positions[i * 2]! - frame.cx) * k
          a.y = seed.cy + (positions[i * 2 + 1]! - frame.cy) * k
        }
        return a
      },
      { attributes: ['x', 'y'] },
    )
  }
  worker.onmessage = (event: MessageEvent<LayoutFrame>) => {
    const frame = event.data
    apply(frame.positions)
    onFrame(frame.done)
    if (!frame.done) return
    worker.terminate()
    finish({
      iterations: frame.iterations,
      converged: frame.converged === true,
      workerMs: frame.ms,
      stopped: false,
    })
  }
  worker.onerror = (event) => {
    worker.terminate()
    fail(new Error(`layout worker: ${event.message}`))
  }
  const request: LayoutRequest = {
    nodes,
    edges,
    settings: forceSettings(keys.length),
    budget: layoutBudget(keys.length, edges.length / EDGE_STRIDE),
    frameMs,
  }
  worker.postMessage(request, [nodes.buffer, edges.buffer])
  return {
    done,
    stop() {
      worker.terminate()
      finish({ iterations: 0, converged: false, workerMs: 0, stopped: true })
    },
  }
}
