/**
 * The type of graphology-layout-forceatlas2's internal `iterate.js` (the package types only its
 * entry points), which the layout worker calls directly: one ForceAtlas2 iteration, in place, over
 * the flat node matrix (10 floats a node: x, y, dx, dy, old dx, old dy, mass, convergence, size,
 * fixed) and edge matrix (3 floats an edge: source offset, target offset, weight).
 */
declare module 'graphology-layout-forceatlas2/iterate.js' {
  import type { ForceAtlas2Settings } from 'graphology-layout-forceatlas2'
  export default function iterate(
    settings: ForceAtlas2Settings,
    nodes: Float32Array,
    edges: Float32Array,
  ): void
}
