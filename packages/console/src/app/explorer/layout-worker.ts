/**
 * The explorer's layout worker (bundled on its own as `explorer-layout-worker.js`, served from the
 * console's own origin): ForceAtlas2 (Jacomy, Venturini, Heymann & Bastian, PLoS ONE 9(6), 2014)
 * through graphology-layout-forceatlas2's `iterate`, off the main thread. The package's own worker
 * helper builds its worker from a blob: URL, which the console's CSP (`script-src 'self'`) refuses;
 * this file is the same loop as a same-origin script.
 *
 * Protocol: one {@link LayoutRequest} in; {@link LayoutFrame}s out, every `frameMs` at most while it
 * runs, then one with `done: true` once the layout converged or its budget was spent. The page ends
 * a run it no longer wants with `worker.terminate()`.
 */
import iterate from 'graphology-layout-forceatlas2/iterate.js'
import type { ForceAtlas2Settings } from 'graphology-layout-forceatlas2'
import { meanStep, snapshot, type LayoutBudget } from './layout-convergence.js'

/** Floats per node in the ForceAtlas2 node matrix (x and y first). */
export const NODE_STRIDE = 10

/** What the page sends: the matrices of `graphToByteArrays`, seeded with the radial layout. */
export interface LayoutRequest {
  nodes: Float32Array
  edges: Float32Array
  settings: ForceAtlas2Settings
  budget: LayoutBudget
  /** Least time between two intermediate frames posted back (ms). */
  frameMs: number
}

/** Positions (x, y interleaved, in the graph's node order) after `iterations` iterations. */
export interface LayoutFrame {
  positions: Float32Array
  iterations: number
  done: boolean
  /** Only on the last frame: whether the layout converged (else the budget ran out). */
  converged?: boolean
  /** Time spent iterating in the worker (ms). */
  ms: number
}

/** The worker side of `postMessage` (the console's lib is DOM's, not WebWorker's). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<LayoutRequest>) => void) | null
  postMessage(message: LayoutFrame, transfer: Transferable[]): void
}

/** Runs the layout; posts intermediate frames through `post`, and returns the last one. */
export function runLayout(
  request: LayoutRequest,
  post: (frame: LayoutFrame) => void,
  now: () => number = () => performance.now(),
): LayoutFrame {
  const { nodes, edges, settings, budget, frameMs } = request
  const started = now()
  let lastPost = started
  const before = new Float32Array((nodes.length / NODE_STRIDE) * 2)
  let calm = 0
  let iterations = 0
  let converged = false
  while (iterations < budget.maxIterations) {
    snapshot(nodes, NODE_STRIDE, before)
    iterate(settings, nodes, edges)
    iterations++
    calm = meanStep(before, nodes, NODE_STRIDE) < budget.tolerance ? calm + 1 : 0
    if (calm >= budget.calmIterations) {
      converged = true
      break
    }
    const t = now()
    if (t - lastPost >= frameMs) {
      lastPost = t
      post({
        positions: snapshot(nodes, NODE_STRIDE, new Float32Array(before.length)),
        iterations,
        done: false,
        ms: t - started,
      })
    }
  }
  return {
    positions: snapshot(nodes, NODE_STRIDE, new Float32Array(before.length)),
    iterations,
    done: true,
    converged,
    ms: now() - started,
  }
}

// Only inside a worker (no `document`): the unit tests import `runLayout` without starting a loop.
if (typeof document === 'undefined' && typeof self !== 'undefined') {
  const scope = self as unknown as WorkerScope
  scope.onmessage = (event) => {
    const send = (frame: LayoutFrame) => scope.postMessage(frame, [frame.positions.buffer])
    send(runLayout(event.data, send))
  }
}
