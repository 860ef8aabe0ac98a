import { analyze } from '../analysis/analyze.js'
import type { GraphIndex } from '../indexes/graph/graph-index.js'
import type { Fact } from './context-pack-facts.js'

/** Damping (probability of following an edge rather than jumping back to a seed) and iterations. */
export const PPR_DAMPING = 0.85
export const PPR_ITERATIONS = 20
/** Edge weights by role: actor and target legs carry the fact, context legs place it. */
const SPINE_WEIGHT = 1
const CONTEXT_WEIGHT = 0.35
const DIRECT_WEIGHT = 0.55

/**
 * Personalized PageRank over the fact graph (Haveliwala, "Topic-sensitive PageRank", WWW 2002; seeded
 * from the query's entities as in HippoRAG, Gutiérrez et al., NeurIPS 2024). Nodes are the entities and
 * events of the candidate facts; each fact links actor-hub and hub-target (weights 1 for actor and
 * target legs, 0.35 for context legs, 0.55 for direct edges, each x (1 + 0.5 x the share of the query's
 * terms in the predicate)), and actor-target at half the weaker leg. The restart vector is the seed
 * weights; 20 power iterations with damping 0.85 (dangling mass returns to the seeds). A fact's
 * PageRank is the mean of its nodes' (the original took the highest, which ties every fact of a
 * popular entity), divided by the best fact's, so it lies in [0, 1].
 */
export function personalizedPageRank(
  graph: GraphIndex,
  facts: Fact[],
  seeds: ReadonlyMap<number, number>,
  query: string,
): void {
  const terms = new Set(analyze(query))
  const overlap = new Map<number, number>()
  const boost = (e: number) => {
    const id = graph.predicateId[e]!
    let o = overlap.get(id)
    if (o === undefined) {
      const p = analyze(graph.predicate[e]!.replace(/_/g, ' '))
      o = terms.size === 0 ? 0 : p.filter((t) => terms.has(t)).length / terms.size
      overlap.set(id, o)
    }
    return 1 + 0.5 * o
  }

  const index = new Map<number, number>()
  const id = (n: number) => {
    let i = index.get(n)
    if (i === undefined) index.set(n, (i = index.size))
    return i
  }
  // The fact graph's edges as three parallel lists (a list of [a, b, w] tuples was read by
  // destructuring in every iteration).
  const from: number[] = []
  const to: number[] = []
  const weight: number[] = []
  const link = (a: number | null, b: number | null, w: number) => {
    if (a !== null && b !== null && a !== b && w > 0) {
      from.push(id(a))
      to.push(id(b))
      weight.push(w)
    }
  }
  for (const f of facts) {
    if (f.hub === null) {
      link(f.actor, f.target, f.actorLeg === null ? 0 : DIRECT_WEIGHT * boost(f.actorLeg))
      continue
    }
    const wa = f.actorLeg === null ? 0 : SPINE_WEIGHT * boost(f.actorLeg)
    const wt = f.leg === null ? 0 : (f.context ? CONTEXT_WEIGHT : SPINE_WEIGHT) * boost(f.leg)
    link(f.actor, f.hub, wa)
    link(f.hub, f.target, wt)
    link(f.actor, f.target, 0.5 * Math.min(wa, wt))
  }
  const n = index.size
  if (n === 0) return

  const restart = new Float64Array(n)
  let mass = 0
  for (const [node, w] of seeds) {
    const i = index.get(node)
    if (i !== undefined && w > 0) {
      restart[i] = w
      mass += w
    }
  }
  if (mass === 0) restart.fill(1 / n)
  else for (let i = 0; i < n; i++) restart[i]! /= mass

  const out = new Float64Array(n)
  for (let e = 0; e < from.length; e++) {
    out[from[e]!]! += weight[e]!
    out[to[e]!]! += weight[e]!
  }
  let rank = Float64Array.from(restart)
  for (let iter = 0; iter < PPR_ITERATIONS; iter++) {
    const next = new Float64Array(n)
    let dangling = 0
    for (let i = 0; i < n; i++) if (out[i] === 0) dangling += rank[i]!
    for (let e = 0; e < from.length; e++) {
      const a = from[e]!
      const b = to[e]!
      const w = weight[e]!
      next[b]! += (PPR_DAMPING * rank[a]! * w) / out[a]!
      next[a]! += (PPR_DAMPING * rank[b]! * w) / out[b]!
    }
    for (let i = 0; i < n; i++) next[i]! += (1 - PPR_DAMPING + PPR_DAMPING * dangling) * restart[i]!
    rank = next
  }

  let best = 0
  for (const f of facts) {
    let sum = 0
    let count = 0
    for (const node of [f.actor, f.hub, f.target])
      if (node !== null) {
        sum += rank[index.get(node) ?? -1] ?? 0
        count++
      }
    const p = count === 0 ? 0 : sum / count
    f.ppr = p
    best = Math.max(best, p)
  }
  if (best > 0) for (const f of facts) f.ppr /= best
}
