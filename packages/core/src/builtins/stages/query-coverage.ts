import type {
  GraphWalkResult,
  GraphWalkSeeds,
  StageHit,
  StagePlugin,
  StageResult,
  TermWeight,
} from '../../contracts/search-plugins.js'

/**
 * Settings of the `coverage` and `hops` reranks; the defaults were chosen on MuSiQue-100
 * (benchmarks/LOG.md).
 */
export interface QueryCoverageSettings {
  /** Weight of coverage against the hit's own score, 0..1 (xQuAD's lambda): 0 keeps the order. */
  readonly lambda: number
  /** Hits re-ordered by score and coverage, best first; their scores set the relevance scale. */
  readonly head: number
  /**
   * Weight of a hit's link to the passage placed first (its walk mass from there over the best linked
   * hit's, 0..1), added to its value; 0 turns hops off.
   */
  readonly hopWeight: number
  /**
   * Hits the stage sees (>= head): those behind the head can move up only through a link to the
   * first passage, at relevance 0; the rest keep their place behind the re-ordered ones.
   */
  readonly pool: number
}

/** `rerank=plugin:coverage`: the query's words only. */
export const QUERY_COVERAGE_DEFAULTS: QueryCoverageSettings = {
  lambda: 0.7,
  head: 20,
  hopWeight: 0,
  pool: 20,
}

/** `rerank=plugin:hops`: the query's words, then a hop through the graph from the first passage. */
export const HOP_COVERAGE_DEFAULTS: QueryCoverageSettings = {
  ...QUERY_COVERAGE_DEFAULTS,
  hopWeight: 0.2,
  pool: 50,
}

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
 * of the hits behind it, and never above the hit placed before it (scores fall with the new order).
 */
export function queryCoverage(settings: Partial<QueryCoverageSettings> = {}): StagePlugin {
  return coverageStage('coverage', { ...QUERY_COVERAGE_DEFAULTS, ...settings })
}

/**
 * `rerank=plugin:hops`: the `coverage` ordering plus one hop through the knowledge graph. Once the
 * first passage is placed, a personalised PageRank from it alone over the passage-entity graph
 * (`ctx.graph.walk`) says which passages it leads to: those sharing its specific entities (an entity's
 * mass is split among the passages citing it, so a rare name carries more than a common one). Each hit
 * then adds `hopWeight` x its walk mass over the best linked hit's to its value, and hits up to `pool`
 * deep, behind the head, may move up through that link alone.
 *
 * Why: in a multi-hop question the second passage often shares no word with the question, only the
 * bridge entity with the first ("the waterfall in the country where the Bubye River is found": the
 * river's passage names Zimbabwe, the waterfall's passage is about Zimbabwe). Choosing the next passage
 * conditioned on the one already chosen is the idea of retrieving reasoning paths over a passage graph
 * (Asai et al., "Learning to Retrieve Reasoning Paths over Wikipedia Graph for Question Answering",
 * ICLR 2020), here with the extractor's entities as the links and no trained model. On MuSiQue-100
 * after the graph stage R@5 rises from 0.6008 (coverage) to 0.6433; on LoCoMo, answered by single
 * turns, R@10 falls 0.6990 -> 0.6912 (benchmarks/LOG.md): a rerank for multi-hop questions.
 */
export function hopCoverage(settings: Partial<QueryCoverageSettings> = {}): StagePlugin {
  return coverageStage('hops', { ...HOP_COVERAGE_DEFAULTS, ...settings })
}

/** Hits an ordering reads: `pool` deep when it hops, else `head` deep (the stage's and the pack's). */
export function coverageWindow(settings: QueryCoverageSettings, hops: boolean): number {
  return hops ? Math.max(settings.head, settings.pool) : settings.head
}

/**
 * The hop of {@link hopCoverage} over a walk: the passages a walk from one hit alone reaches, the hit
 * seeding it as a passage, or as an entity when `isEntity` says it is one.
 */
export function hopsThrough(
  walk: (seeds: GraphWalkSeeds) => Promise<GraphWalkResult>,
  isEntity: (id: string) => boolean,
): (id: string) => Promise<GraphWalkResult['passages']> {
  return async (id) => {
    const seed = new Map([[id, 1]])
    const seeds: GraphWalkSeeds = isEntity(id)
      ? { passages: new Map(), entities: seed }
      : { passages: seed, entities: new Map() }
    return (await walk(seeds)).passages
  }
}

function coverageStage(name: string, settings: QueryCoverageSettings): StagePlugin {
  const hops = settings.hopWeight > 0
  return {
    kind: 'stage',
    name,
    // Only which query words each hit of the pool holds is read (from the passage index), not the
    // whole candidate window's records, which `reads: 'records'` would hydrate first.
    reads: 'candidates',
    head: coverageWindow(settings, hops),
    async run(query, hits, ctx) {
      const queryTerms = ctx.text.terms('passages', query)
      const words = queryTerms.map((t) => t.term)
      // Which query words a passage holds comes from the passage index's term lists; only a passage
      // the index does not hold (yet) is read from the store and analysed. Entities hold none.
      const held = new Map<string, readonly string[]>()
      for (const h of hits) {
        const terms =
          ctx.entities.labels(h.id) !== undefined ? [] : ctx.text.held('passages', h.id, words)
        if (terms !== undefined) held.set(h.id, terms)
      }
      const missing = hits.filter((h) => !held.has(h.id)).map((h) => h.id)
      const texts = new Map(
        missing.length === 0 ? [] : (await ctx.graph.passages(missing)).map((p) => [p.id, p.text]),
      )
      const inText = heldInText((text) => ctx.text.terms('passages', text))
      return coverQuery(
        hits.map((h) => ({ ...h, text: texts.get(h.id) ?? '' })),
        queryTerms,
        settings,
        (hit, terms) => held.get(hit.id) ?? inText(hit, terms),
        hops
          ? hopsThrough(
              (seeds) => ctx.graph.walk(seeds),
              (id) => ctx.entities.labels(id) !== undefined,
            )
          : null,
      )
    },
  }
}

/**
 * Which of the query's `terms` a hit holds, found by analysing its text with `termsOf` (a BM25 index's
 * `termWeights`), in the order of `terms`. What {@link coverQuery} is given when the hits' terms are not
 * in an index: a passage index's `heldTerms` answers the same without the analysis.
 */
export function heldInText(
  termsOf: (text: string) => readonly TermWeight[],
): (hit: StageHit, terms: readonly string[]) => string[] {
  return (hit, terms) => {
    const inText = new Set(termsOf(hit.text).map((t) => t.term))
    return terms.filter((t) => inText.has(t))
  }
}

/**
 * The greedy xQuAD ordering of `hits` over the query's weighted terms (see {@link queryCoverage}),
 * with the hop link of {@link hopCoverage} when `hopsFrom` is given: the mass a walk from the first
 * placed hit gives each other hit. `holds` says which of the query's terms (highest idf first) a
 * hit holds, in that order ({@link heldInText}, or a passage index's `heldTerms`). Settings are read
 * as `QueryCoverageSettings`; hits beyond `head` take part only through a link.
 */
export async function coverQuery(
  hits: readonly StageHit[],
  queryTerms: readonly TermWeight[],
  settings: Pick<QueryCoverageSettings, 'lambda' | 'head' | 'hopWeight'>,
  holds: (hit: StageHit, terms: readonly string[]) => readonly string[],
  hopsFrom: ((id: string) => Promise<ReadonlyMap<string, number>>) | null = null,
): Promise<StageResult> {
  const { lambda, hopWeight } = settings
  const scores = new Map<string, number>()
  if (hits.length === 0) return { scores, order: [] }
  const head = Math.max(1, Math.min(settings.head, hits.length))
  const weight = new Map<string, number>()
  let total = 0
  for (const { idf } of queryTerms) total += idf
  for (const { term, idf } of queryTerms) weight.set(term, total > 0 ? idf / total : 0)
  let hi = -Infinity
  let lo = Infinity
  for (const h of hits.slice(0, head)) {
    hi = Math.max(hi, h.score)
    lo = Math.min(lo, h.score)
  }
  const relevance = (i: number) => (i >= head ? 0 : hi > lo ? (hits[i]!.score - lo) / (hi - lo) : 1)
  // Only the query's terms matter in a hit: keep those it holds, asked when the hit is first weighed
  // (a hit behind the head only once a link makes it a contender).
  const terms = [...weight.keys()]
  const heldTerms: (readonly string[] | undefined)[] = []
  const held = (i: number) => (heldTerms[i] ??= holds(hits[i]!, terms))
  const uncovered = new Set(weight.keys())
  const link = new Map<string, number>()
  const linkable = hopsFrom !== null && hopWeight > 0
  const pool = hits.map((_, i) => i)
  const order: string[] = []
  let ceiling = Infinity
  for (;;) {
    let best = -1
    let bestValue = -Infinity
    for (let j = 0; j < pool.length; j++) {
      const i = pool[j]!
      const linked = link.get(hits[i]!.id) ?? 0
      if (i >= head && linked === 0) continue
      let gain = 0
      for (const t of held(i)) if (uncovered.has(t)) gain += weight.get(t)!
      const value = (1 - lambda) * relevance(i) + lambda * gain + hopWeight * linked
      // Ties keep the incoming order (the pool stays in it).
      if (value > bestValue) {
        bestValue = value
        best = j
      }
    }
    if (best < 0) break
    const i = pool.splice(best, 1)[0]!
    const hit = hits[i]!
    order.push(hit.id)
    ceiling = Math.min(ceiling, hi > lo ? lo + Math.min(bestValue, 1) * (hi - lo) : hi)
    scores.set(hit.id, ceiling)
    for (const t of held(i)) uncovered.delete(t)
    if (linkable && order.length === 1) {
      const reached = await hopsFrom(hit.id)
      let top = 0
      for (const h of hits) if (h.id !== hit.id) top = Math.max(top, reached.get(h.id) ?? 0)
      if (top > 0)
        for (const h of hits) {
          const mass = reached.get(h.id) ?? 0
          if (h.id !== hit.id && mass > 0) link.set(h.id, mass / top)
        }
    }
  }
  // Hits behind the head that no link lifted keep their order and score.
  for (const i of pool) order.push(hits[i]!.id)
  return { scores, order }
}
