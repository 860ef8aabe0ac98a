import type { GraphIndex } from '../indexes/graph/graph-index.js'
import { factNodes, type Fact } from './context-pack-facts.js'

/** Relevance weights (the original's, without its topic term: this engine has no topic hyperedges). */
export const RELEVANCE_WEIGHTS = { seed: 0.45, ppr: 0.25, completeness: 0.2, recency: 0.1 } as const
/** MMR trade-off and the redundancy mix (the original's 0.65; 0.55 same hub + 0.45 shared sources). */
export const FACT_MMR_LAMBDA = 0.65
const SAME_HUB = 0.55
const SHARED_SOURCES = 0.45

/** Recency of a date: 1 / (1 + ln(1 + days ago)); 0 when undated (as `recency` in neighbors-scoring). */
export function recencyOf(time: number, now: number): number {
  if (Number.isNaN(time)) return 0
  const days = Math.max(0, (now - time) / 86_400_000)
  return 1 / (1 + Math.log(1 + days))
}

/** Share of a fact's parts present: actor, event, target, date. */
export function completeness(f: Fact): number {
  let have = 0
  if (f.actor !== null) have++
  if (f.hub !== null) have++
  if (f.target !== null) have++
  if (!Number.isNaN(f.time)) have++
  return have / 4
}

/**
 * Relevance of each fact (original-notes.md section A.7, step 7): 0.45 x seed similarity + 0.25 x
 * PageRank + 0.20 x completeness + 0.10 x recency, every term in [0, 1]. Sorts best first (ties by key).
 */
export function scoreFacts(facts: Fact[], now: number, usePpr: boolean): void {
  const w = RELEVANCE_WEIGHTS
  for (const f of facts) {
    f.relevance =
      w.seed * f.seed +
      (usePpr ? w.ppr * f.ppr : 0) +
      w.completeness * completeness(f) +
      w.recency * recencyOf(f.time, now)
  }
  facts.sort((a, b) => b.relevance - a.relevance || (a.key < b.key ? -1 : 1))
}

/**
 * Picks `k` facts by maximal marginal relevance (Carbonell & Goldstein, SIGIR 1998): each step takes
 * the fact with the best 0.65 x relevance - 0.35 x redundancy, where redundancy with the facts already
 * taken is the highest of 0.55 x [same event, or same endpoints for direct facts] + 0.45 x the Jaccard
 * overlap of their source passages, halved when the two are complementary legs of one event (one says
 * what happened, the other where). Up to `reserve` slots go to bridge facts when there are any, so
 * links between events survive the cut. Input must be sorted by relevance.
 */
export function selectFacts(
  graph: GraphIndex,
  facts: Fact[],
  k: number,
  reserve: number,
  sources: (f: Fact) => ReadonlySet<string>,
): Fact[] {
  if (k <= 0 || facts.length === 0) return []
  const top = facts[0]!.relevance || 1
  const group = (f: Fact) =>
    f.hub !== null
      ? `h${f.hub}`
      : `d${Math.min(f.actor ?? -1, f.target ?? -1)}:${Math.max(f.actor ?? -1, f.target ?? -1)}`
  const groups = facts.map(group)
  const srcs = facts.map(sources)
  const redundancy = (i: number, j: number) => {
    const same = groups[i] === groups[j] ? 1 : 0
    const a = srcs[i]!
    const b = srcs[j]!
    let shared = 0
    for (const s of a) if (b.has(s)) shared++
    const union = a.size + b.size - shared
    let r = SAME_HUB * same + SHARED_SOURCES * (union === 0 ? 0 : shared / union)
    if (same && facts[i]!.hub !== null && facts[i]!.context !== facts[j]!.context) r *= 0.5
    return r
  }
  const pool = facts.slice(0, Math.max(k * 10, 200)).map((_, i) => i)
  const worst = new Float64Array(facts.length)
  const chosen: number[] = []
  const take = (candidates: number[], limit: number) => {
    const left = new Set(candidates.filter((i) => !chosen.includes(i)))
    while (chosen.length < limit && left.size > 0) {
      let pick = -1
      let best = -Infinity
      for (const i of left) {
        const v = FACT_MMR_LAMBDA * (facts[i]!.relevance / top) - (1 - FACT_MMR_LAMBDA) * worst[i]!
        if (v > best) {
          best = v
          pick = i
        }
      }
      chosen.push(pick)
      left.delete(pick)
      for (const i of pool) if (i !== pick) worst[i] = Math.max(worst[i]!, redundancy(i, pick))
    }
  }
  const bridges = pool.filter((i) => facts[i]!.bridge)
  const reserved = Math.min(reserve, bridges.length, k)
  take(pool, k - reserved)
  take(bridges, k)
  take(pool, k)
  return chosen.map((i) => facts[i]!)
}

/** The entities (not events) of a fact. */
export function factEntities(graph: GraphIndex, f: Fact): number[] {
  return factNodes(f).filter((n) => !graph.isEvent[n])
}
