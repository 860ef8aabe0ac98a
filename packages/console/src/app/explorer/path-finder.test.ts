import { describe, expect, it } from 'vitest'
import { addEdge, createExplorerGraph, nodeAttributes } from './explorer-graph.js'
import { findDrawnNode, shortestPath } from './path-finder.js'

function chain() {
  const graph = createExplorerGraph()
  for (const name of ['Ada', 'Babbage', 'Engine', 'Mark I', 'Ada Byron', 'Island'])
    graph.addNode(name, nodeAttributes({ uuid: name, name, labels: [] }, { x: 0, y: 0 }, false))
  const link = (a: string, b: string) =>
    addEdge(graph, { uuid: `${a}-${b}`, predicate: 'P', ends: [a, b] })
  link('Ada', 'Babbage')
  link('Babbage', 'Engine')
  link('Engine', 'Mark I')
  link('Ada', 'Ada Byron')
  link('Ada Byron', 'Mark I')
  link('Ada', 'Engine')
  return graph
}

describe('shortestPath', () => {
  it('finds the fewest hops and the edges along them', () => {
    const path = shortestPath(chain(), 'Babbage', 'Mark I')
    expect(path?.nodes).toEqual(['Babbage', 'Engine', 'Mark I'])
    expect(path?.edges).toEqual(['Babbage-Engine', 'Engine-Mark I'])
  })

  it('answers null when nothing joins the two, and the node itself for one node', () => {
    expect(shortestPath(chain(), 'Ada', 'Island')).toBeNull()
    expect(shortestPath(chain(), 'Ada', 'Ada')).toEqual({ nodes: ['Ada'], edges: [] })
    expect(shortestPath(chain(), 'Ada', 'nobody')).toBeNull()
  })
})

describe('findDrawnNode', () => {
  it('prefers an exact name, else a unique substring', () => {
    const graph = chain()
    expect(findDrawnNode(graph, 'ada')).toBe('Ada')
    expect(findDrawnNode(graph, 'mark')).toBe('Mark I')
    expect(findDrawnNode(graph, 'a')).toBeNull()
    expect(findDrawnNode(graph, '')).toBeNull()
  })
})
