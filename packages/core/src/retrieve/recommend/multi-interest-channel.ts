import { EVENT_LABEL } from '../../model/entity.js'
import { synergyScores } from '../synergies-scores.js'
import { forEachStep } from '../synergies-steps.js'
import { kMedoids } from './k-medoids.js'
import type { ChannelHit, RecommendContext } from './recommend-types.js'

/** Interests clustered (the strongest interactions), clusters kept, and features read per interest. */
export const MAX_INTERESTS = 100
export const INTEREST_CLUSTERS = 3
const FEATURE_EDGE_CAP = 100
/** Paths walked per medoid: a sample, most specific seeds first (a medoid is often a popular item). */
export const MEDOID_PATH_BUDGET = 20_000

/**
 * Multi-interest recommendations: the target's interests (nodes it interacted with, strongest first,
 * then newest: an active user's interests are its latest {@link MAX_INTERESTS}, not its first)
 * are split into up to {@link INTEREST_CLUSTERS} clusters by k-medoids (`kMedoids`, PAM); each
 * cluster's medoid stands for one interest, as multi-interest recommenders keep one representation per
 * interest instead of one averaged profile (Li et al., "Multi-Interest Network with Dynamic Routing for
 * Recommendation at Tmall", CIKM 2019). The original took the first node of each of the three largest
 * label groups; a medoid is the most central member instead.
 *
 * Distance between two interests: 1 - Jaccard overlap of their one-step neighbourhoods (attributes,
 * co-participants), plus 1 when their first labels differ, so different kinds never share a cluster
 * while there are fewer kinds than clusters. Each medoid's direct synergies (top max(5, top_k / 2))
 * are the hits, scored by association x the cluster's share of the interests; `connectedBy` is the
 * medoid.
 */
export async function multiInterestChannel(ctx: RecommendContext): Promise<ChannelHit[]> {
  const { graph, target } = ctx
  const time = (t: number) => (Number.isNaN(t) ? -Infinity : t)
  const interests = [...ctx.interactions()]
    .sort((a, b) => b[1].weight - a[1].weight || time(b[1].time) - time(a[1].time) || a[0] - b[0])
    .slice(0, MAX_INTERESTS)
    .map(([node]) => node)
  if (interests.length === 0) return []

  const features = interests.map((node) => {
    const set = new Set<number>()
    forEachStep(graph, node, FEATURE_EDGE_CAP, (far) => {
      if (far !== target) set.add(far)
    })
    return set
  })
  const kind = interests.map((n) => graph.labels[n]!.find((l) => l !== EVENT_LABEL) ?? '')
  const jaccard = (a: Set<number>, b: Set<number>) => {
    if (a.size === 0 && b.size === 0) return 0
    const [small, large] = a.size <= b.size ? [a, b] : [b, a]
    let shared = 0
    for (const x of small) if (large.has(x)) shared++
    return shared / (a.size + b.size - shared)
  }
  const { medoids, assignment } = kMedoids(
    interests.length,
    INTEREST_CLUSTERS,
    (i, j) => 1 - jaccard(features[i]!, features[j]!) + (kind[i] === kind[j] ? 0 : 1),
  )

  const perMedoid = Math.max(5, Math.floor(ctx.topK / 2))
  const hits: ChannelHit[] = []
  for (let m = 0; m < medoids.length; m++) {
    const medoid = interests[medoids[m]!]!
    const share = assignment.filter((a) => a === m).length / interests.length
    const { scores } = await synergyScores(ctx.deps, graph, medoid, {
      directOnly: true,
      polarity: ctx.polarity,
      ...(ctx.labels.size > 0 ? { labels: [...ctx.labels] } : {}),
      accept: ctx.keep,
      budget: MEDOID_PATH_BUDGET,
      limit: perMedoid,
    })
    for (const s of scores)
      hits.push({ node: s.node, score: s.score * share, connectedBy: [medoid] })
  }
  return hits
}
