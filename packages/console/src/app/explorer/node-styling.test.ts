import { describe, expect, it } from 'vitest'
import { addCommunityLayer, placeCommunities } from './community-layer.js'
import { addEdge, createExplorerGraph, entityCounts, nodeAttributes } from './explorer-graph.js'
import { applyColor, applySize, communityColor, detectCommunities } from './node-styling.js'

/** Two 6-cliques joined by one edge, plus a star around "hub" hanging off the first clique. */
function twoCliques() {
  const graph = createExplorerGraph()
  const add = (id: string, x = 0, y = 0) =>
    graph.addNode(id, nodeAttributes({ uuid: id, name: id, labels: ['Person'] }, { x, y }, false))
  for (let c = 0; c < 2; c++) for (let i = 0; i < 6; i++) add(`c${c}n${i}`, c * 100 + i, i)
  let e = 0
  const link = (a: string, b: string) =>
    addEdge(graph, { uuid: `e${e++}`, predicate: 'P', ends: [a, b] })
  for (let c = 0; c < 2; c++)
    for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) link(`c${c}n${i}`, `c${c}n${j}`)
  link('c0n0', 'c1n0')
  return graph
}

describe('detectCommunities', () => {
  it('finds the two cliques, numbered by size, the same way every time', () => {
    const graph = twoCliques()
    const sizes = detectCommunities(graph)
    expect(sizes).toEqual([6, 6])
    const of = (n: string) => graph.getNodeAttribute(n, 'community')
    for (let i = 1; i < 6; i++) {
      expect(of(`c0n${i}`)).toBe(of('c0n0'))
      expect(of(`c1n${i}`)).toBe(of('c1n0'))
    }
    expect(of('c0n0')).not.toBe(of('c1n0'))
    const again = twoCliques()
    detectCommunities(again)
    expect(again.getNodeAttribute('c0n3', 'community')).toBe(of('c0n3'))
  })
})

describe('applySize and applyColor', () => {
  it('sizes by degree or PageRank: the bridge ends outrank the rest either way', () => {
    for (const by of ['degree', 'pagerank'] as const) {
      const graph = twoCliques()
      applySize(graph, by)
      const size = (n: string) => graph.getNodeAttribute(n, 'size')
      expect(size('c0n0')).toBeGreaterThan(size('c0n1'))
      expect(size('c0n1')).toBeGreaterThan(3)
    }
  })

  it('colours by community once detected, by label otherwise', () => {
    const graph = twoCliques()
    detectCommunities(graph)
    applyColor(graph, 'community')
    const colours = new Set(graph.mapNodes((_n, a) => a.color))
    expect(colours).toEqual(new Set([communityColor(0), communityColor(1)]))
    applyColor(graph, 'label')
    expect(new Set(graph.mapNodes((_n, a) => a.color)).size).toBe(1)
  })
})

describe('addCommunityLayer', () => {
  it('adds one node per community at its centroid and one edge per linked pair, outside the counts', () => {
    const graph = twoCliques()
    detectCommunities(graph)
    expect(addCommunityLayer(graph)).toBe(2)
    expect(entityCounts(graph)).toEqual({ nodes: 12, edges: 31 })
    expect(graph.order).toBe(14)
    const community = graph.filterNodes((_n, a) => a.kind === 'community')
    expect(community.map((n) => graph.getNodeAttribute(n, 'members'))).toEqual([6, 6])
    expect(graph.getNodeAttribute(community[0]!, 'label')).toMatch(/^c\dn0 \+5$/)
    expect(graph.filterEdges((_e, a) => a.kind === 'community')).toHaveLength(1)
    // The centroid follows the members after a layout frame moves them.
    const first = graph.getNodeAttribute(community[0]!, 'community')!
    graph.forEachNode((n, a) => {
      if (a.kind === undefined && a.community === first)
        graph.mergeNodeAttributes(n, { x: 500, y: -20 })
    })
    placeCommunities(graph)
    expect(graph.getNodeAttributes(community[0]!)).toMatchObject({ x: 500, y: -20 })
  })
})
