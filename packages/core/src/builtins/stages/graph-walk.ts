import type {
  Candidate,
  ChannelList,
  GraphWalkOptions,
  GraphWalkResult,
  GraphWalkSeeds,
  SearchContext,
  StageHit,
  StagePlugin,
} from '../../contracts/search-plugins.js'
import { VALUE_LABELS } from '../../model/entity.js'
import { neighbourExpansion } from './neighbour-expansion.js'

/** Settings of the graph walk stage; the defaults were chosen on MuSiQue-100 and LoCoMo dev (LOG.md). */
export interface GraphWalkSettings {
  /** Best passage candidates that seed the walk with their fused score. */
  readonly passageSeeds: number
  /** Weight of the passage seeds against the query's entity matches (each side normalised to 1). */
  readonly passageWeight: number
  /** Entities matched against the query (BM25 over names, and entity vectors when the brain has them). */
  readonly entitySeeds: number
  /** Share of the fused score in a passage's new score; the rest is its walk score. */
  readonly keepFused: number
  /**
   * Share of a passage's best sequence neighbour's score it gains (the turn before or after it in its
   * conversation session); 0 turns this off. Chunks of one text lend nothing to each other: they overlap
   * already (32 tokens), and a lent score put a text's second chunk beside its first in the hits, where
   * another text would have been (SciFact ingested, train split: nDCG@10 0.6447 -> 0.6740, the search
   * without the graph stage 0.6956; benchmarks/LOG.md, 2026-12-05).
   */
  readonly sequenceWeight: number
  /** Entity labels the walk leaves out (`GraphWalkOptions.skipLabels`). */
  readonly skipLabels: readonly string[]
  /** `GraphWalkOptions.skipDeadEnds`. */
  readonly skipDeadEnds: boolean
}

export const GRAPH_WALK_DEFAULTS: GraphWalkSettings = {
  passageSeeds: 20,
  passageWeight: 0.3,
  entitySeeds: 10,
  keepFused: 0.5,
  sequenceWeight: 0.7,
  skipLabels: VALUE_LABELS,
  skipDeadEnds: false,
}

/** Scores over the best one, so each list's top weighs 1; non-positive scores drop. */
function byBest(items: readonly Candidate[]): Map<string, number> {
  const top = items[0]?.score ?? 0
  const out = new Map<string, number>()
  if (top <= 0) return out
  for (const i of items) if (i.score > 0) out.set(i.id, Math.max(out.get(i.id) ?? 0, i.score / top))
  return out
}

/**
 * Min-max normalised, so the weakest of the list counts 0 and the best 1 (a single item counts 1): the
 * `min-max` of `fusions/score-normalization.ts`, which a stage may not import (builtins/ boundary rule).
 */
function minMax(items: readonly Candidate[]): Map<string, number> {
  const out = new Map<string, number>()
  if (items.length === 0) return out
  let hi = -Infinity
  let lo = Infinity
  for (const i of items) {
    hi = Math.max(hi, i.score)
    lo = Math.min(lo, i.score)
  }
  for (const i of items) out.set(i.id, hi > lo ? (i.score - lo) / (hi - lo) : 1)
  return out
}

/** What ranking passages by a walk reads: entity matches, the walk itself and passage sequences. */
export interface WalkReaders {
  /** BM25 over entity names, aliases and descriptions. */
  entities(query: string, k: number): readonly Candidate[]
  /** Entity-vector cosine; null when the brain has no vectors. */
  denseEntities: ((query: string, k: number) => Promise<readonly Candidate[]>) | null
  walk(seeds: GraphWalkSeeds, options: GraphWalkOptions): Promise<GraphWalkResult>
  /** Each passage's neighbours in its conversation session (`GraphReader.sequenceNeighbours`, `session`). */
  sequenceNeighbours(ids: readonly string[]): Promise<ReadonlyMap<string, readonly string[]>>
}

/**
 * The query's best `depth` entity matches by BM25 and, with vectors, by cosine, plus the first `depth`
 * hits of any `extra` list (a search's graph channels), each over its list's best; best weight per entity.
 */
async function entityMatches(
  query: string,
  depth: number,
  readers: WalkReaders,
  extra: readonly ChannelList[],
): Promise<Map<string, number>> {
  const seeds = new Map<string, number>()
  const offer = (weights: Map<string, number>) => {
    for (const [id, w] of weights) seeds.set(id, Math.max(seeds.get(id) ?? 0, w))
  }
  offer(byBest(readers.entities(query, depth)))
  if (readers.denseEntities !== null) offer(byBest(await readers.denseEntities(query, depth)))
  for (const list of extra) offer(byBest(list.items.slice(0, depth)))
  return seeds
}

/**
 * Passages ranked by a walk (what `expand=neighbors` and the context pack share): seeds are the query's
 * entity matches and the best candidates; each passage then scores `blendWalk`, lifted by its sequence
 * neighbours (`smoothBySequence`). Candidates and the passages the walk reached, best first, scores in
 * [0, 1 + sequenceWeight]; `entities` are the entity seeds used.
 */
export async function walkRank(
  query: string,
  passages: readonly Candidate[],
  readers: WalkReaders,
  settings: GraphWalkSettings,
  extraEntitySeeds: readonly ChannelList[] = [],
): Promise<Candidate[]> {
  const entities = await entityMatches(query, settings.entitySeeds, readers, extraEntitySeeds)
  const walked = await readers.walk(walkSeeds(passages, entities, settings), {
    skipLabels: settings.skipLabels,
    skipDeadEnds: settings.skipDeadEnds,
  })
  const blended = blendWalk(passages, walked.passages, settings.keepFused)
  if (settings.sequenceWeight <= 0) return blended
  const neighbours = await readers.sequenceNeighbours(blended.map((c) => c.id))
  return smoothBySequence(blended, neighbours, settings.sequenceWeight)
}

/**
 * Graph expansion (`expand=neighbors`): a personalised PageRank over the passage-entity graph, seeded
 * by the query's entity matches and the pipeline's best passages, re-ranks the passage candidates and
 * adds passages one or two entities away from them. This is HippoRAG 2's retrieval without its LLM
 * steps (Gutiérrez et al., "From RAG to Memory: Non-Parametric Continual Learning for Large Language
 * Models", arXiv 2502.14802): passage nodes in the graph and dense/lexical passage scores in the reset
 * vector are what make the walk help; plain one-hop neighbour expansion, which this replaces, is worse
 * than the seeds alone (HippoRAG, arXiv 2405.14831, ablations; our MuSiQue-100 runs agree, LOG.md).
 *
 * A passage's new score is `keepFused` x its fused score (min-max over the head) plus the rest x its
 * walk mass over the best passage's, scaled to the head's best fused score so the ranking below the
 * head stays comparable. When the search asked for graph channels, entity hits also bring their
 * one-hop neighbours, as before (`neighbour-expansion.ts`).
 */
export function graphWalk(settings: GraphWalkSettings = GRAPH_WALK_DEFAULTS): StagePlugin {
  const oneHop = neighbourExpansion()
  return {
    kind: 'stage',
    name: 'graph-walk',
    reads: 'candidates',
    head: Number.POSITIVE_INFINITY,
    async run(query, hits, ctx, search) {
      const isEntity = (id: string) => ctx.entities.labels(id) !== undefined
      const passages = hits.filter((h) => !isEntity(h.id))
      const graphLists = search.lists.filter((l) => l.signal === 'graph')
      const blended = await walkRank(query, passages, searchReaders(ctx), settings, graphLists)
      const scale = hits[0]?.score ?? 1
      const present = new Set(hits.map((h) => h.id))
      const scores = new Map<string, number>()
      const added: Candidate[] = []
      for (const c of blended) {
        const score = scale * c.score
        if (present.has(c.id)) scores.set(c.id, score)
        else if (score > 0) added.push({ id: c.id, score })
      }
      // Entity hits keep their one-hop neighbourhood (relationships), as `expand=neighbors` always added.
      if (graphLists.length > 0) {
        const hop = await oneHop.run(query, hits, ctx, search)
        if (!(hop instanceof Map))
          for (const c of hop.added?.items ?? []) if (!present.has(c.id)) added.push(c)
      }
      return {
        scores,
        order: orderOf(hits, scores),
        added: {
          name: 'neighbors',
          signal: 'graph',
          items: added.sort(byScoreThenId),
        },
      }
    },
  }
}

/**
 * The reset vector of a walk: the best `passageSeeds` passages by their score over the best one, summing
 * to `passageWeight`, and the entity matches summing to the rest.
 */
function walkSeeds(
  passages: readonly Candidate[],
  entities: ReadonlyMap<string, number>,
  settings: GraphWalkSettings,
): GraphWalkSeeds {
  return {
    passages: scaleToSum(byBest(passages.slice(0, settings.passageSeeds)), settings.passageWeight),
    entities: scaleToSum(entities, 1 - settings.passageWeight),
  }
}

/**
 * Passages re-scored in [0, 1]: `keepFused` x the fused score (min-max over the candidates) plus the
 * rest x the walk mass over the best passage's; passages the walk reached beyond the candidates join
 * with their walk share alone. Best first, ties by id.
 */
export function blendWalk(
  passages: readonly Candidate[],
  walked: ReadonlyMap<string, number>,
  keepFused: number,
): Candidate[] {
  let best = 0
  for (const m of walked.values()) best = Math.max(best, m)
  const walk = (id: string) => (best > 0 ? (walked.get(id) ?? 0) / best : 0)
  const fused = minMax(passages)
  // The candidates once each (the first of an id), then the passages only the walk reached.
  const out: Candidate[] = []
  const scored = new Set<string>()
  for (const p of passages) {
    if (scored.has(p.id)) continue
    scored.add(p.id)
    out.push({ id: p.id, score: keepFused * fused.get(p.id)! + (1 - keepFused) * walk(p.id) })
  }
  walked.forEach((_, id) => {
    if (!scored.has(id)) out.push({ id, score: (1 - keepFused) * walk(id) })
  })
  return out.sort(byScoreThenId)
}

/** Best first, ties by id (`fusions/order.ts`'s order, which a stage may not import). */
function byScoreThenId(a: Candidate, b: Candidate): number {
  return b.score - a.score || (a.id < b.id ? -1 : 1)
}

/**
 * Each passage gains `weight` x the score of its best-scored sequence neighbour (its score is then its
 * own plus that); neighbours not scored yet join with that share alone. Best first, ties by id.
 */
export function smoothBySequence(
  scored: readonly Candidate[],
  neighbours: ReadonlyMap<string, readonly string[]>,
  weight: number,
): Candidate[] {
  const own = new Map<string, number>()
  for (const c of scored) own.set(c.id, c.score)
  const out = new Map(own)
  for (const c of scored)
    for (const n of neighbours.get(c.id) ?? []) {
      const lifted = (own.get(n) ?? 0) + weight * c.score
      if (lifted > (out.get(n) ?? 0)) out.set(n, lifted)
    }
  const ranked: Candidate[] = []
  out.forEach((score, id) => ranked.push({ id, score }))
  return ranked.sort(byScoreThenId)
}

/** The walk readers of one search. */
function searchReaders(ctx: SearchContext): WalkReaders {
  const { vectors, embed } = ctx
  return {
    entities: (query, k) => ctx.text.search('entities', query, k),
    denseEntities:
      vectors === null || embed === null
        ? null
        : async (query, k) => vectors.search('entities', await embed(query), k),
    walk: (seeds, options) => ctx.graph.walk(seeds, options),
    sequenceNeighbours: (ids) => ctx.graph.sequenceNeighbours(ids, 'session'),
  }
}

function scaleToSum(weights: ReadonlyMap<string, number>, sum: number): Map<string, number> {
  let total = 0
  for (const w of weights.values()) total += w
  const out = new Map<string, number>()
  if (total > 0 && sum > 0) for (const [id, w] of weights) out.set(id, (w / total) * sum)
  return out
}

/** Passages by their new score, entities kept where they were among them (by their own score). */
function orderOf(hits: readonly StageHit[], scores: ReadonlyMap<string, number>): string[] {
  return hits
    .map((h) => ({ id: h.id, score: scores.get(h.id) ?? h.score }))
    .sort(byScoreThenId)
    .map((h) => h.id)
}
