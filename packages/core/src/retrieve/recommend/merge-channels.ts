import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import type { ChannelHit, RecommendChannel } from './recommend-types.js'

/**
 * Weight of each channel in the fused score. The original's factors: inbound walks 0.55 and
 * multi-interest 0.85 relative to the rest (original-notes.md section A.7). Multi-interest is 0.1:
 * on MovieLens validation folds (`npm run bench -- --recsys-validation`, never the test ratings) every
 * step down from 0.85 raised HR@10, and 0.1 is the lowest weight compared that keeps the channel,
 * on by default, in the fusion (docs/recommend.md).
 */
export const CHANNEL_WEIGHTS: Readonly<Record<RecommendChannel, number>> = {
  synergy: 1,
  asymmetric_outbound: 1,
  asymmetric_inbound: 0.55,
  collaborative: 1,
  multi_interest: 0.1,
  attribute_pref: 1,
}
/** Channels whose scores `dampen_degree` divides by log2(2 + degree) (the walks already weigh events). */
const DAMPED: ReadonlySet<RecommendChannel> = new Set([
  'synergy',
  'multi_interest',
  'attribute_pref',
])
const MAX_CONNECTED_BY = 10

export interface MergedRecommendation {
  node: number
  /** Fused score: the weighted sum of the channels' normalised scores. */
  score: number
  /** The channel contributing most. */
  channel: RecommendChannel
  /** Union of the channels' explanations, the winning channel's first. */
  connectedBy: number[]
}

export interface MergeOptions {
  /** Candidates to keep (label filter, seen items, the target itself...). */
  keep: (node: number) => boolean
  dampenDegree: boolean
  /** Channel weights over {@link CHANNEL_WEIGHTS}. */
  weights?: Partial<Record<RecommendChannel, number>>
}

/**
 * Merges the channels' hits. Each channel's scores are first divided by its best score (max
 * normalisation), since walks, synergies and attribute sums live on different scales, then summed
 * with {@link CHANNEL_WEIGHTS}: CombSUM (Fox & Shaw, "Combination of multiple searches", TREC-2 1994),
 * so a node several channels agree on ranks above one only a single channel found. The original kept
 * the maximum raw score per node, mixing incomparable scales. Ties are broken by uuid.
 */
export function mergeChannels(
  graph: GraphIndex,
  channels: ReadonlyMap<RecommendChannel, ChannelHit[]>,
  options: MergeOptions,
): MergedRecommendation[] {
  const merged = new Map<
    number,
    { score: number; best: number; channel: RecommendChannel; by: number[][] }
  >()
  for (const [channel, hits] of channels) {
    const weight = options.weights?.[channel] ?? CHANNEL_WEIGHTS[channel]
    if (!(weight > 0)) continue
    const kept = hits
      .filter((h) => options.keep(h.node))
      .map((h) => ({
        ...h,
        score:
          options.dampenDegree && DAMPED.has(channel)
            ? h.score / Math.log2(2 + graph.degree(h.node))
            : h.score,
      }))
    const max = kept.reduce((m, h) => Math.max(m, h.score), 0)
    if (max <= 0) continue
    for (const hit of kept) {
      if (hit.score <= 0) continue
      const part = (weight * hit.score) / max
      const entry = merged.get(hit.node)
      if (entry === undefined) {
        merged.set(hit.node, { score: part, best: part, channel, by: [hit.connectedBy] })
      } else {
        entry.score += part
        if (part > entry.best) {
          entry.best = part
          entry.channel = channel
          entry.by.unshift(hit.connectedBy)
        } else entry.by.push(hit.connectedBy)
      }
    }
  }
  return [...merged]
    .map(([node, m]) => ({
      node,
      score: m.score,
      channel: m.channel,
      connectedBy: [...new Set(m.by.flat())].filter((n) => n !== node).slice(0, MAX_CONNECTED_BY),
    }))
    .sort((a, b) => b.score - a.score || (graph.uuid[a.node]! < graph.uuid[b.node]! ? -1 : 1))
}
