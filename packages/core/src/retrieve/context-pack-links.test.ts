import { describe, expect, it } from 'vitest'
import type { GraphIndex } from '../indexes/graph/graph-index.js'
import type { Fact } from './context-pack-facts.js'
import { bridgePaths, type BridgePath } from './context-pack-links.js'

/** Every pair of hubs per shared entity, sorted: what `bridgePaths` returned before it pruned hubs. */
function allPairs(graph: GraphIndex, selected: readonly Fact[]): BridgePath[] {
  const byEntity = new Map<number, Map<number, { fact: Fact; leg: number }>>()
  for (const f of selected) {
    if (f.hub === null) continue
    for (const [entity, leg] of [
      [f.actor, f.actorLeg],
      [f.target, f.leg],
    ] as const) {
      if (entity === null || leg === null || graph.isEvent[entity]) continue
      const hubs = byEntity.get(entity) ?? new Map<number, { fact: Fact; leg: number }>()
      byEntity.set(entity, hubs)
      const seen = hubs.get(f.hub)
      if (seen === undefined || seen.fact.relevance < f.relevance) hubs.set(f.hub, { fact: f, leg })
    }
  }
  const paths: BridgePath[] = []
  for (const [shared, hubs] of byEntity) {
    const list = [...hubs]
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++)
        paths.push({
          hubs: [list[i]![0], list[j]![0]],
          shared,
          weight: (list[i]![1].fact.relevance + list[j]![1].fact.relevance) / 2,
          legs: [list[i]![1].leg, list[j]![1].leg],
        })
  }
  return paths
    .sort((a, b) => b.weight - a.weight || a.shared - b.shared || a.hubs[0] - b.hubs[0])
    .slice(0, 20)
}

/** A seeded generator (a linear congruential one: enough to vary test values reproducibly). */
function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32
}

const fact = (i: number, actor: number, hub: number, relevance: number): Fact => ({
  key: String(i),
  actor,
  actorLeg: 1000 + i,
  hub,
  leg: 2000 + i,
  target: null,
  context: false,
  superseded: false,
  bridge: false,
  via: 0,
  seed: 1,
  time: Number.NaN,
  ppr: 0,
  relevance,
})

describe('bridgePaths', () => {
  it('keeps every hub one of the best pairs needs: one strong event and 30 weaker ones, or 30 equal', () => {
    const graph = { isEvent: Array.from({ length: 100 }, (_, n) => (n >= 10 ? 1 : 0)) }
    const g = graph as unknown as GraphIndex
    const strong = fact(0, 0, 10, 10)
    const falling = Array.from({ length: 30 }, (_, i) => fact(i + 1, 0, 11 + i, 1 - i / 100))
    const equal = Array.from({ length: 30 }, (_, i) => fact(i + 1, 0, 11 + i, 1))
    for (const facts of [
      [strong, ...falling],
      [strong, ...equal],
      [...equal, strong],
    ]) {
      const paths = bridgePaths(g, facts)
      expect(paths).toHaveLength(20)
      expect(paths).toEqual(allPairs(g, facts))
    }
  })

  it('returns the best 20 pairs of all, ties included, when an entity is shared by many events', () => {
    const random = seeded(7)
    // Nodes 0-9 are entities, 10-99 events (hubs).
    const graph = { isEvent: Array.from({ length: 100 }, (_, n) => (n >= 10 ? 1 : 0)) }
    for (let round = 0; round < 200; round++) {
      const facts = Array.from({ length: 10 + Math.floor(random() * 50) }, (_, i) => ({
        ...fact(
          i,
          Math.floor(random() * (round % 2 ? 2 : 10)),
          10 + Math.floor(random() * 90),
          // Few distinct values, so that ties are common.
          Math.floor(random() * (round % 3 ? 5 : 50)) / 10,
        ),
        target: random() < 0.2 ? null : Math.floor(random() * 10),
      }))
      const g = graph as unknown as GraphIndex
      expect(bridgePaths(g, facts)).toEqual(allPairs(g, facts))
    }
  })
})
