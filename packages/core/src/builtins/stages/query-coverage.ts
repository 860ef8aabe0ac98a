import type {
  StageHit,
  StagePlugin,
  StageResult,
  TermWeight,
} from '../../contracts/search-plugins.js'

/** Settings of the `coverage` rerank; the defaults were chosen on MuSiQue-100 (benchmarks/LOG.md). */
export interface QueryCoverageSettings {
  /** Weight of coverage against the hit's own score, 0..1 (xQuAD's lambda): 0 keeps the order. */
  readonly lambda: number
  /** Hits re-ordered, best first; the rest keep their place behind them. */
  readonly head: number
}

export const QUERY_COVERAGE_DEFAULTS: QueryCoverageSettings = { lambda: 0.7, head: 20 }

/**
 * `rerank=plugin:coverage`: re-orders the head so that, position by position, the ranking covers the
 * query's words, in the manner of xQuAD (Santos, Macdonald & Ounis, "Exploiting Query Reformulations
 * for Web Search Result Diversification", WWW 2010) with the query's own terms as its aspects, each
 * weighted by its idf in the passage index (the brain's BM25 analysis, through `ctx.text.terms`).
 *
 * Greedily, the next hit is the one maximising
 *
 *   (1 - lambda) * relevance + lambda * sum over query terms t in the hit of w(t) * [no hit placed yet has t]
 *
 * where relevance is the hit's score min-max normalised over the head and the weights w sum to 1. A
 * multi-hop question ("the waterfall in the country where the Bubye River is found") is answered by
 * passages that each hold part of its words; once one passage covers "Bubye River", the next place goes
 * to the best passage holding what is still uncovered ("waterfall"), not to a second passage about the
 * river. On MuSiQue-100 after the graph stage this lifts R@5; on LoCoMo, whose questions one turn
 * answers, it costs a little (benchmarks/LOG.md), which is why it is a rerank to ask for, not a default.
 *
 * Entity hits (no passage text) are placed by their score alone. Scores: each hit scores its value
 * when it was placed, mapped onto [lowest, highest] score of the head, so the head stays on the scale
 * of the hits behind it and scores fall with the new order (a value can only drop as terms get
 * covered, and the best remaining one is taken each time).
 */
export function queryCoverage(settings: Partial<QueryCoverageSettings> = {}): StagePlugin {
  const { lambda, head } = { ...QUERY_COVERAGE_DEFAULTS, ...settings }
  return {
    kind: 'stage',
    name: 'coverage',
    // Only the head's passage texts are read (one store call), not the whole candidate window's
    // records, which `reads: 'records'` would hydrate first.
    reads: 'candidates',
    head,
    async run(query, hits, ctx) {
      const texts = new Map(
        (await ctx.graph.passages(hits.map((h) => h.id))).map((p) => [p.id, p.text]),
      )
      return coverQuery(
        hits.map((h) => ({ ...h, text: texts.get(h.id) ?? '' })),
        ctx.text.terms('passages', query),
        lambda,
        (text) => ctx.text.terms('passages', text),
      )
    },
  }
}

/** The greedy xQuAD ordering of `hits` over the query's weighted terms (see {@link queryCoverage}). */
export function coverQuery(
  hits: readonly StageHit[],
  queryTerms: readonly TermWeight[],
  lambda: number,
  termsOf: (text: string) => readonly TermWeight[],
): StageResult {
  const scores = new Map<string, number>()
  if (hits.length === 0) return { scores, order: [] }
  const weight = new Map<string, number>()
  let total = 0
  for (const { idf } of queryTerms) total += idf
  for (const { term, idf } of queryTerms) weight.set(term, total > 0 ? idf / total : 0)
  let hi = -Infinity
  let lo = Infinity
  for (const h of hits) {
    hi = Math.max(hi, h.score)
    lo = Math.min(lo, h.score)
  }
  const relevance = (h: StageHit) => (hi > lo ? (h.score - lo) / (hi - lo) : 1)
  // Only the query's terms matter in a hit: keep those it holds.
  const held = hits.map((h) =>
    termsOf(h.text)
      .map((t) => t.term)
      .filter((t) => weight.has(t)),
  )
  const uncovered = new Set(weight.keys())
  const pool = hits.map((_, i) => i)
  const order: string[] = []
  while (pool.length > 0) {
    let best = 0
    let bestValue = -Infinity
    for (let j = 0; j < pool.length; j++) {
      const i = pool[j]!
      let gain = 0
      for (const t of held[i]!) if (uncovered.has(t)) gain += weight.get(t)!
      const value = (1 - lambda) * relevance(hits[i]!) + lambda * gain
      // Ties keep the incoming order (the pool stays in it).
      if (value > bestValue) {
        bestValue = value
        best = j
      }
    }
    const i = pool.splice(best, 1)[0]!
    const hit = hits[i]!
    order.push(hit.id)
    scores.set(hit.id, hi > lo ? lo + bestValue * (hi - lo) : hi)
    for (const t of held[i]!) uncovered.delete(t)
  }
  return { scores, order }
}
