/**
 * When the explorer's ForceAtlas2 run stops: the layout converged (nodes barely move) or its
 * iteration budget is spent. Either ends the run with a "stable frame", the one the benchmark times.
 */

/** Most iterations a run may take, and the mean step (a share of the layout's extent) below which it converged. */
export interface LayoutBudget {
  maxIterations: number
  /** Mean displacement of a node in one iteration, divided by the bounding box's diagonal. */
  tolerance: number
  /** Iterations in a row below the tolerance before the layout counts as converged. */
  calmIterations: number
}

/**
 * The budget for a graph of `order` nodes and `size` edges: one iteration costs O(n log n + m)
 * (Barnes-Hut above 2,000 nodes), so the budget shrinks with n + m to keep a run within a few
 * seconds on a slow machine: 1,000 iterations for a few hundred elements, 100 at 40,000.
 */
export function layoutBudget(order: number, size: number): LayoutBudget {
  const elements = Math.max(1, order + size)
  return {
    maxIterations: Math.max(100, Math.min(1000, Math.round(4_000_000 / elements))),
    tolerance: 0.0005,
    calmIterations: 5,
  }
}

/**
 * The mean step of the nodes between two position snapshots (`x, y` interleaved in `before`; the
 * ForceAtlas2 node matrix, `stride` floats a node with x and y first, in `nodes`), as a share of the
 * diagonal of their bounding box. 0 for fewer than two nodes or a layout collapsed to a point.
 */
export function meanStep(before: Float32Array, nodes: Float32Array, stride: number): number {
  const count = before.length / 2
  if (count < 2) return 0
  let sum = 0
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (let i = 0; i < count; i++) {
    const x = nodes[i * stride]!
    const y = nodes[i * stride + 1]!
    sum += Math.hypot(x - before[i * 2]!, y - before[i * 2 + 1]!)
    if (x < minX) minX = x
    if (x > maxX) maxX = x
    if (y < minY) minY = y
    if (y > maxY) maxY = y
  }
  const diagonal = Math.hypot(maxX - minX, maxY - minY)
  return diagonal === 0 ? 0 : sum / count / diagonal
}

/** Copies the x, y of every node of the ForceAtlas2 node matrix into `into` (interleaved). */
export function snapshot(nodes: Float32Array, stride: number, into: Float32Array): Float32Array {
  for (let i = 0, j = 0; i < nodes.length; i += stride, j += 2) {
    into[j] = nodes[i]!
    into[j + 1] = nodes[i + 1]!
  }
  return into
}
