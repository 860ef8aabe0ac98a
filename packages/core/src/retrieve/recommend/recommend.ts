import { notFound } from '../../errors.js'
import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import type { Entity } from '../../model/entity.js'
import { resolveTarget } from '../resolve-target.js'
import type { RetrieveDeps } from '../retrieve-deps.js'
import { entitiesOf } from '../synergies.js'
import { diversify } from './diversify.js'
import { mergeChannels, type MergedRecommendation } from './merge-channels.js'
import { recommendChannels, type RecommendChannels } from './recommend-channels.js'
import type { RecommendChannel, RecommendOptions } from './recommend-types.js'

export type { RecommendOptions }

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
  return rankRecommendations(graph, await recommendChannels(deps, graph, target, options), options)
}

/**
 * Fuses collected channels (`mergeChannels`) and, with `diversify`, re-orders the best by MMR: the
 * second half of {@link recommendNodes}, separate so a benchmark can rank one collection several ways.
 */
export function rankRecommendations(
  graph: GraphIndex,
  collected: RecommendChannels,
  options: RecommendOptions = {},
): MergedRecommendation[] {
  const tuning = options.tuning ?? {}
  const merged = mergeChannels(graph, collected.channels, {
    keep: collected.keep,
    dampenDegree: options.dampenDegree ?? false,
    ...(tuning.channelWeights ? { weights: tuning.channelWeights } : {}),
  })
  const { topK } = collected
  return (options.diversify ?? true)
    ? diversify(graph, merged, topK, tuning.mmrLambda)
    : merged.slice(0, topK)
}
