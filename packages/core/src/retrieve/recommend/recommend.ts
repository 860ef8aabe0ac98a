import { notFound } from '../../errors.js'
import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import type { Entity } from '../../model/entity.js'
import { resolveTarget } from '../resolve-target.js'
import type { RetrieveDeps } from '../retrieve-deps.js'
import { entitiesOf } from '../synergies.js'
import { polarityAccepts, synergyScores } from '../synergies-scores.js'
import { asymmetricChannel } from './asymmetric-channel.js'
import { attributePreferenceChannel } from './attribute-preference-channel.js'
import { behaviorWeights } from './behavior-weights.js'
import { collaborativeChannel } from './collaborative-channel.js'
import { diversify } from './diversify.js'
import { mergeChannels, type MergedRecommendation } from './merge-channels.js'
import { multiInterestChannel } from './multi-interest-channel.js'
import type { ChannelHit, RecommendChannel, RecommendContext } from './recommend-types.js'
import { interactionsOf, type Interaction } from './target-interactions.js'

export interface RecommendOptions {
  /** `same` (default): drop candidates of the sign opposite to the target's; `opposite`: keep only those. */
  polarity?: 'same' | 'opposite'
  /** Recommendations returned, 1..200 (default 20). */
  topK?: number
  /** Event walks from the target (asymmetric outbound/inbound) and collaborative walks (default true). */
  includeAsymmetric?: boolean
  /** One medoid per interest cluster of the target (default true). */
  includeMultiInterest?: boolean
  /** Attribute preferences (default false). */
  includeAttributePref?: boolean
  /** MMR re-ordering for variety (default true). */
  diversify?: boolean
  /** Which event walks: `outbound` (default), `inbound` or `both`. */
  asymmetricDirection?: 'outbound' | 'inbound' | 'both'
  /** Drop nodes the target already interacted with (default false). */
  excludeSeen?: boolean
  /** Divide synergy, multi-interest and attribute scores by log2(2 + degree) (default false). */
  dampenDegree?: boolean
  /** Half-life of interactions in days; absent or 0: no decay. */
  recencyHalfLifeDays?: number
  /** Candidate labels (any-match). */
  labels?: string[]
  /** Behaviour name -> weight, over the defaults (names normalised, aliases folded). */
  behaviorWeights?: Record<string, number>
}

export interface Recommendation {
  node: Entity
  channel: RecommendChannel
  connectedBy: Entity[]
  score: number
}

export interface RecommendResult {
  targetNode: Entity
  recommendations: Recommendation[]
}

/**
 * `GET|POST /retrieve/recommend` (CONTRACT.md section 6): recommendations computed at query time from
 * the event graph, with no training. Channels (each in its own file): `synergy` (`synergyScores`),
 * `asymmetric_outbound` / `asymmetric_inbound` (event walks), `collaborative` (peers sharing events),
 * `multi_interest` (k-medoids interest clusters), `attribute_pref` (IDF-damped attribute weights).
 * Candidates are filtered (target, events, labels, polarity, seen items with `excludeSeen`), fused
 * (`mergeChannels`) and, with `diversify`, re-ordered by MMR. Unknown target -> 404.
 */
export async function recommend(
  deps: RetrieveDeps,
  target: string,
  options: RecommendOptions = {},
): Promise<RecommendResult> {
  const targetNode = await resolveTarget(deps, target)
  if (targetNode === null) throw notFound('Entity', target)
  const graph = await deps.indexes.graph.get(deps.store)
  const node = graph.node(targetNode.uuid)
  if (node === undefined) return { targetNode, recommendations: [] }
  const ranked = await recommendNodes(deps, graph, node, options)
  const entities = new Map(
    (
      await entitiesOf(
        deps,
        graph,
        ranked.flatMap((r) => [r.node, ...r.connectedBy]),
      )
    ).map((e) => [e.uuid, e]),
  )
  const entity = (n: number) => entities.get(graph.uuid[n]!)
  return {
    targetNode,
    recommendations: ranked.flatMap((r) => {
      const e = entity(r.node)
      if (e === undefined) return []
      const connectedBy = r.connectedBy.map(entity).filter((x): x is Entity => x !== undefined)
      return [{ node: e, channel: r.channel, connectedBy, score: r.score }]
    }),
  }
}

/** The ranking of {@link recommend} on node numbers (no record loads): for benchmarks and tests. */
export async function recommendNodes(
  deps: RetrieveDeps,
  graph: GraphIndex,
  target: number,
  options: RecommendOptions = {},
): Promise<MergedRecommendation[]> {
  const topK = Math.max(1, Math.min(200, Math.floor(options.topK ?? 20)))
  const now = (deps.now?.() ?? new Date()).getTime()
  const labels = new Set(options.labels ?? [])
  const polarity = options.polarity ?? 'same'
  const weights = behaviorWeights(graph, {
    now,
    halfLifeDays: options.recencyHalfLifeDays ?? null,
    ...(options.behaviorWeights ? { overrides: options.behaviorWeights } : {}),
  })
  let interactions: Map<number, Interaction> | null = null
  // Every edge of the target: `exclude_seen` must see all of its history, however long.
  const interactionsOnce = () =>
    (interactions ??= interactionsOf(graph, target, weights, { cap: Number.MAX_SAFE_INTEGER }))
  const seen = options.excludeSeen ? interactionsOnce() : null
  const keep = (n: number) =>
    n !== target &&
    graph.present[n]! &&
    !graph.isEvent[n] &&
    (labels.size === 0 || graph.labels[n]!.some((l) => labels.has(l))) &&
    polarityAccepts(polarity, graph.polarity[target]!, graph.polarity[n]!) &&
    (seen === null || !seen.has(n))
  const ctx: RecommendContext = {
    deps,
    graph,
    target,
    weights,
    labels,
    polarity,
    topK,
    keep,
    interactions: interactionsOnce,
  }

  const channels = new Map<RecommendChannel, ChannelHit[]>()
  const synergy = await synergyScores(deps, graph, target, {
    polarity,
    accept: keep,
    limit: 3 * topK,
    ...(labels.size > 0 ? { labels: [...labels] } : {}),
  })
  channels.set('synergy', synergy.scores)
  if (options.includeAsymmetric ?? true) {
    const direction = options.asymmetricDirection ?? 'outbound'
    if (direction !== 'inbound')
      channels.set('asymmetric_outbound', asymmetricChannel(ctx, 'outbound'))
    if (direction !== 'outbound')
      channels.set('asymmetric_inbound', asymmetricChannel(ctx, 'inbound'))
    channels.set('collaborative', collaborativeChannel(ctx))
  }
  if (options.includeMultiInterest ?? true)
    channels.set('multi_interest', await multiInterestChannel(ctx))
  if (options.includeAttributePref ?? false)
    channels.set('attribute_pref', attributePreferenceChannel(ctx))

  const merged = mergeChannels(graph, channels, {
    keep,
    dampenDegree: options.dampenDegree ?? false,
  })
  return (options.diversify ?? true) ? diversify(graph, merged, topK) : merged.slice(0, topK)
}
