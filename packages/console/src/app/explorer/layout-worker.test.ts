import { describe, expect, it } from 'vitest'
import { addEdge, createExplorerGraph, nodeAttributes } from './explorer-graph.js'
import { forceSettings, layoutMatrices } from './force-layout.js'
import { layoutBudget } from './layout-convergence.js'
import { runLayout, type LayoutFrame } from './layout-worker.js'

/** Two 20-node rings joined by one edge, seeded on a line (as a poor radial seed would). */
function twoRings() {
  const graph = createExplorerGraph()
  for (let i = 0; i < 40; i++)
    graph.addNode(
      `n${i}`,
      nodeAttributes({ uuid: `n${i}`, name: `n${i}`, labels: [] }, { x: i, y: i % 3 }, false),
    )
  const link = (a: number, b: number) =>
    addEdge(graph, { uuid: `e${a}-${b}`, predicate: 'P', ends: [`n${a}`, `n${b}`] })
  for (let r = 0; r < 2; r++) for (let i = 0; i < 20; i++) link(r * 20 + i, r * 20 + ((i + 1) % 20))
  link(0, 20)
  return graph
}

describe('runLayout (the worker loop)', () => {
  it('moves the nodes to finite positions and ends converged or with its budget spent', () => {
    const graph = twoRings()
    const { nodes, edges } = layoutMatrices(graph)
    const frames: LayoutFrame[] = []
    const budget = layoutBudget(graph.order, graph.size)
    const last = runLayout(
      { nodes, edges, settings: forceSettings(graph.order), budget, frameMs: 0 },
      (f) => frames.push(f),
    )
    expect(last.done).toBe(true)
    expect(last.positions.length).toBe(80)
    expect(last.positions.every(Number.isFinite)).toBe(true)
    expect(last.iterations).toBeGreaterThan(0)
    expect(last.iterations).toBeLessThanOrEqual(budget.maxIterations)
    if (!last.converged) expect(last.iterations).toBe(budget.maxIterations)
    // Intermediate frames came every iteration (frameMs 0), none marked done.
    expect(frames.length).toBeGreaterThan(0)
    expect(frames.every((f) => !f.done)).toBe(true)
    // The rings separate: nodes of one ring sit closer to their own ring's centre than to the other's.
    const centre = (r: number) => {
      let x = 0
      let y = 0
      for (let i = r * 20; i < r * 20 + 20; i++)
        [x, y] = [x + last.positions[i * 2]! / 20, y + last.positions[i * 2 + 1]! / 20]
      return { x, y }
    }
    const [a, b] = [centre(0), centre(1)]
    const nearer = Array.from({ length: 40 }, (_, i) => {
      const p = { x: last.positions[i * 2]!, y: last.positions[i * 2 + 1]! }
      const own = i < 20 ? a : b
      const other = i < 20 ? b : a
      return Math.hypot(p.x - own.x, p.y - own.y) < Math.hypot(p.x - other.x, p.y - other.y)
    })
    expect(nearer.filter(Boolean).length).toBeGreaterThanOrEqual(38)
  })

  it('has a budget that shrinks with the graph', () => {
    expect(layoutBudget(10, 10).maxIterations).toBe(1000)
    expect(layoutBudget(2166, 2400).maxIterations).toBeLessThan(1000)
    expect(layoutBudget(10_000, 30_000).maxIterations).toBe(100)
  })
})
