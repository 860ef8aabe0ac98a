import { analyze } from '../analysis/analyze.js'
import type { Entity } from '../model/entity.js'
import type { Relationship } from '../model/relationship.js'
import { NeighborsOf, type NeighborEdge } from './neighbors-of.js'
import { cosine } from '../vectors/cosine.js'
import { entityText, relationshipText } from './neighbors-scoring.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/** One hop: the edge, its direction from the parent, the node reached and the hops beyond it. */
export interface Hop {
  relationship: Relationship
  /** `out`: the parent is the subject; `in`: the parent is the object. */
  direction: 'out' | 'in'
  node: Entity
  /** Empty at the last degree. */
  next: Hop[]
}

export interface HopTree {
  seed: Entity
  hops: Hop[]
}

/** Seeds taken from the entities channel (the original took the top 10 node-vector hits). */
export const HOP_SEEDS = 10
/** Neighbours kept per node at degree 1, 2 and 3. */
export const HOP_FAN_OUT = [10, 5, 3] as const

/**
 * `GET /retrieve/hops`: seeds are the search pipeline's best seed candidates for `query` (by default
 * BM25 over entity names, aliases and descriptions, fused by RRF with the nearest entity vectors when
 * the brain has vectors), then
 * `degrees` (1..3) levels of neighbours per seed.
 *
 * Each node appears once per seed tree (breadth first, so at its shortest distance), other seeds may
 * appear at the first degree but not beyond (as in the original, original-notes.md section A.7), and
 * at most {@link HOP_FAN_OUT} neighbours are kept per node, ranked by the share of the query's terms
 * their predicate and node text contain, then (with vectors) by cosine with the mean seed vector, then
 * newest first. With vectors, neighbours whose cosine with the mean seed vector is negative are dropped,
 * as the original did; without vectors nothing is dropped for relevance.
 */
export async function hops(deps: RetrieveDeps, query: string, degrees: number): Promise<HopTree[]> {
  const seeds = await findSeeds(deps, query)
  if (seeds.length === 0) return []
  const seedIds = new Set(seeds.map((s) => s.uuid))
  const graph = new NeighborsOf(deps.store)
  graph.remember(seeds)
  const terms = new Set(analyze(query))
  const relevance = await denseRelevance(deps, seeds)
  const lexical = (edge: NeighborEdge) => {
    if (terms.size === 0) return 0
    const have = new Set(analyze(`${relationshipText(edge.relationship)} ${entityText(edge.node)}`))
    let hit = 0
    for (const t of terms) if (have.has(t)) hit++
    return hit / terms.size
  }
  const depth = Math.max(1, Math.min(HOP_FAN_OUT.length, Math.floor(degrees)))

  const trees: HopTree[] = []
  for (const seed of seeds) {
    const placed = new Set([seed.uuid])
    const root: HopTree = { seed, hops: [] }
    let frontier: { uuid: string; children: Hop[] }[] = [{ uuid: seed.uuid, children: root.hops }]
    for (let level = 0; level < depth && frontier.length > 0; level++) {
      const next: typeof frontier = []
      for (const parent of frontier) {
        const edges = (await graph.of(parent.uuid)).filter(
          (e) => !placed.has(e.node.uuid) && !(level > 0 && seedIds.has(e.node.uuid)),
        )
        const ranked = await rankEdges(edges, lexical, relevance)
        for (const edge of ranked.slice(0, HOP_FAN_OUT[level])) {
          if (placed.has(edge.node.uuid)) continue
          placed.add(edge.node.uuid)
          const hop: Hop = {
            relationship: edge.relationship,
            direction: edge.direction,
            node: edge.node,
            next: [],
          }
          parent.children.push(hop)
          next.push({ uuid: edge.node.uuid, children: hop.next })
        }
      }
      frontier = next
    }
    trees.push(root)
  }
  return trees
}

/** The search pipeline's seed candidates (`graphChannels.seeds`), those that are entities. */
async function findSeeds(deps: RetrieveDeps, query: string): Promise<Entity[]> {
  const ids = (await deps.candidates('seeds', query, HOP_SEEDS))
    .slice(0, HOP_SEEDS)
    .map((c) => c.id)
  const byId = new Map((await deps.store.entities.get(ids)).map((e) => [e.uuid, e]))
  return ids.flatMap((id) => {
    const e = byId.get(id)
    return e === undefined ? [] : [e]
  })
}

/** Cosine with the mean of the seeds' vectors, per node, when the brain has vectors. */
async function denseRelevance(
  deps: RetrieveDeps,
  seeds: Entity[],
): Promise<((uuids: string[]) => Promise<Map<string, number>>) | null> {
  if (deps.vectors === null) return null
  const reader = deps.vectors
  const seedVectors = [
    ...(
      await reader.get(
        'entities',
        seeds.map((s) => s.uuid),
      )
    ).values(),
  ]
  const first = seedVectors[0]
  if (first === undefined) return null
  const mean = new Float32Array(first.length)
  for (const v of seedVectors) {
    if (v.length !== mean.length) continue
    for (let i = 0; i < v.length; i++) mean[i] = mean[i]! + v[i]! / seedVectors.length
  }
  return async (uuids) => {
    const out = new Map<string, number>()
    for (const [uuid, v] of await reader.get('entities', uuids)) out.set(uuid, cosine(mean, v))
    return out
  }
}

/** Best first, one edge per node (its first, i.e. newest, edge). */
async function rankEdges(
  edges: NeighborEdge[],
  lexical: (edge: NeighborEdge) => number,
  relevance: ((uuids: string[]) => Promise<Map<string, number>>) | null,
): Promise<NeighborEdge[]> {
  const seen = new Set<string>()
  const distinct = edges.filter((e) => !seen.has(e.node.uuid) && seen.add(e.node.uuid))
  const dense = relevance === null ? null : await relevance([...seen])
  const scored = distinct
    .map((edge, order) => ({ edge, order, lex: lexical(edge), cos: dense?.get(edge.node.uuid) }))
    .filter((s) => dense === null || s.cos === undefined || s.cos >= 0)
  scored.sort((a, b) => b.lex - a.lex || (b.cos ?? 0) - (a.cos ?? 0) || a.order - b.order)
  return scored.map((s) => s.edge)
}
