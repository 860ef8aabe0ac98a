import type { Engram } from '@engram/core'
import { mulberry32 } from '../scale/synthetic-corpus.js'

/** The explorer benchmark's brain: 10,000 entities, 30,000 relationships, one hub. */
export interface ExplorerBenchGraph {
  entities: { name: string; labels: string[] }[]
  /** Ends are indexes into `entities`. */
  relationships: { subject: number; object: number; predicate: string }[]
  /** Index of the hub whose 2-hop neighbourhood the benchmark opens. */
  hub: number
}

export const LABELS = ['Person', 'Organization', 'Place', 'Project', 'Event', 'Topic'] as const
const PREDICATES = ['works_with', 'part_of', 'located_in', 'mentions', 'funds', 'leads'] as const

export interface ExplorerBenchShape {
  entities: number
  relationships: number
  /** The hub's direct neighbours. */
  hubDegree: number
  /** Edges from each of the hub's neighbours into the rest of the graph. */
  fanOut: number
  seed: number
}

export const EXPLORER_BENCH_SHAPE: ExplorerBenchShape = {
  entities: 10_000,
  relationships: 30_000,
  hubDegree: 150,
  fanOut: 15,
  seed: 42,
}

/**
 * A seeded graph with the shape the explorer must handle: entity 0 (the hub, "Hub Aurora") links to
 * `hubDegree` entities, each of which links to `fanOut` random entities of the rest, so the hub's
 * 2-hop neighbourhood holds about 2,150 nodes (birthday collisions take ~240 of the 2,250 picks).
 * The remaining relationships join the rest with targets drawn from a power law (u^2.5 over the
 * index), so a few entities become hubs of several hundred edges, as in preferential attachment
 * (Barabási & Albert, Science 286, 1999), without ever touching the hub or its neighbours: its
 * 2-hop size stays what the two numbers above make it. Same seed, same graph.
 */
export function explorerBenchGraph(
  shape: ExplorerBenchShape = EXPLORER_BENCH_SHAPE,
): ExplorerBenchGraph {
  const rnd = mulberry32(shape.seed)
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!
  const entities = Array.from({ length: shape.entities }, (_, i) => {
    const label = i === 0 ? 'Organization' : pick(LABELS)
    return {
      name: i === 0 ? 'Hub Aurora' : `${label} ${String(i).padStart(5, '0')}`,
      labels: [label],
    }
  })
  const relationships: ExplorerBenchGraph['relationships'] = []
  const seen = new Set<string>()
  const link = (a: number, b: number) => {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`
    if (a === b || seen.has(key)) return false
    seen.add(key)
    relationships.push({ subject: a, object: b, predicate: pick(PREDICATES) })
    return true
  }
  const first = shape.hubDegree + 1
  const rest = shape.entities - first
  for (let i = 1; i <= shape.hubDegree; i++) {
    link(0, i)
    let made = 0
    while (made < shape.fanOut) if (link(i, first + Math.floor(rnd() * rest))) made++
  }
  while (relationships.length < shape.relationships) {
    link(first + Math.floor(rnd() * rest), first + Math.floor(rest * rnd() ** 2.5))
  }
  return { entities, relationships, hub: 0 }
}

/**
 * The 10-node neighbourhood of issue 30 (it took 3.3 to 5.4 s to open): "Root Meridian" with 3
 * neighbours and 2 more behind each, in a brain of its own.
 */
export function tenNodeGraph(): ExplorerBenchGraph {
  const entities: ExplorerBenchGraph['entities'] = [{ name: 'Root Meridian', labels: ['Project'] }]
  const relationships: ExplorerBenchGraph['relationships'] = []
  for (let i = 0; i < 3; i++) {
    const mid = entities.push({ name: `Meridian Partner ${i}`, labels: ['Organization'] }) - 1
    relationships.push({ subject: 0, object: mid, predicate: 'funds' })
    for (let j = 0; j < 2; j++) {
      const leaf = entities.push({ name: `Meridian Staff ${i}.${j}`, labels: ['Person'] }) - 1
      relationships.push({ subject: mid, object: leaf, predicate: 'employs' })
    }
  }
  return { entities, relationships, hub: 0 }
}

/**
 * Writes the graph into `brainId` through the engine (setup only; the measured part goes through the
 * console). Returns the entities' uuids by index.
 */
export async function loadExplorerBenchGraph(
  engram: Engram,
  brainId: string,
  graph: ExplorerBenchGraph,
): Promise<string[]> {
  const uuids: string[] = []
  for (const e of graph.entities) {
    const { entity } = await engram.graph.createEntity(brainId, {
      name: e.name,
      labels: e.labels,
      description: null,
      properties: {},
      metadata: null,
      happenedAt: null,
      polarity: 'neutral',
    })
    uuids.push(entity.uuid)
  }
  for (const r of graph.relationships) {
    await engram.graph.createRelationship(brainId, {
      subjectUuid: uuids[r.subject]!,
      objectUuid: uuids[r.object]!,
      predicateName: r.predicate,
      predicateDescription: '',
      amount: null,
      properties: {},
      direction: 'neutral',
      happenedAt: null,
    })
  }
  return uuids
}
