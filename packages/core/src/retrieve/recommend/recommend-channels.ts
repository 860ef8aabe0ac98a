import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import type { RetrieveDeps } from '../retrieve-deps.js'
import { polarityAccepts, synergyScores } from '../synergies-scores.js'
import { asymmetricChannel } from './asymmetric-channel.js'
import { attributePreferenceChannel } from './attribute-preference-channel.js'
import { behaviorWeights } from './behavior-weights.js'
import { collaborativeChannel } from './collaborative-channel.js'
import { multiInterestChannel } from './multi-interest-channel.js'
import type {
  ChannelHit,
  RecommendChannel,
  RecommendContext,
  RecommendOptions,
} from './recommend-types.js'
import { interactionsOf, type Interaction } from './target-interactions.js'

/** What the channels of one request proposed, before fusion. */
export interface RecommendChannels {
  channels: Map<RecommendChannel, ChannelHit[]>
  /** The request's final filter (`RecommendContext.keep`). */
  keep: (node: number) => boolean
  /** Recommendations asked for, clamped to 1..200. */
  topK: number
}

/**
 * Runs the channels a request asks for on node numbers: `synergy` always, `asymmetric_*` and
 * `collaborative` with `includeAsymmetric`, `multi_interest` and `attribute_pref` when included.
 * Candidates are filtered by the request (target, events, labels, polarity, seen nodes with
 * `excludeSeen`) when fused.
 */
export async function recommendChannels(
  deps: RetrieveDeps,
  graph: GraphIndex,
  target: number,
  options: RecommendOptions = {},
): Promise<RecommendChannels> {
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
    // A date is no item to recommend, unless dates are asked for.
    (labels.size === 0 ? !graph.isValue(n) : graph.labels[n]!.some((l) => labels.has(l))) &&
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
    tuning: options.tuning ?? {},
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
  return { channels, keep, topK }
}
