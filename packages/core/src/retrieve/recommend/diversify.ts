import type { GraphIndex } from '../../indexes/graph/graph-index.js'
import { cappedEdges } from '../synergies-steps.js'
import type { MergedRecommendation } from './merge-channels.js'

/**
 * Trade-off between relevance and novelty: 0.8 (the original's 0.7), chosen on MovieLens validation
 * folds (`npm run bench -- --recsys-validation`; 0.8 and 0.9 tied, and 1 would switch MMR off).
 */
export const MMR_LAMBDA = 0.8
const FEATURE_EDGE_CAP = 100

/**
 * Maximal marginal relevance (Carbonell & Goldstein, "The use of MMR, diversity-based reranking for
 * reordering documents and producing summaries", SIGIR 1998): repeatedly take the candidate with the
 * best lambda x relevance - (1 - lambda) x (its highest similarity to those already taken). Relevance
 * is the fused score over the best one; similarity is the Jaccard overlap of the two nodes' labels and
 * direct (non-event) neighbours, i.e. shared attributes. The original penalised the share of labels
 * already selected, which cannot tell two items of one kind apart. Scores are kept; only the order
 * changes. Candidates examined: the best 3 x k.
 */
export function diversify(
  graph: GraphIndex,
  ranked: readonly MergedRecommendation[],
  k: number,
  lambda = MMR_LAMBDA,
): MergedRecommendation[] {
  const pool = ranked.slice(0, 3 * k)
  if (pool.length <= 1) return pool.slice(0, k)
  const top = pool[0]!.score
  const features = pool.map((r) => {
    const set = new Set<string>(graph.labels[r.node]!.map((l) => `label:${l}`))
    for (const e of cappedEdges(graph, r.node, FEATURE_EDGE_CAP)) {
      const far = graph.other(e, r.node)
      if (!graph.isEvent[far]) set.add(graph.uuid[far]!)
    }
    return set
  })
  const similarity = (a: Set<string>, b: Set<string>) => {
    let shared = 0
    for (const x of a) if (b.has(x)) shared++
    const union = a.size + b.size - shared
    return union === 0 ? 0 : shared / union
  }
  const chosen: number[] = []
  const redundancy = new Float64Array(pool.length)
  const left = new Set(pool.map((_, i) => i))
  while (chosen.length < k && left.size > 0) {
    let pick = -1
    let best = -Infinity
    for (const i of left) {
      const value = lambda * (pool[i]!.score / top) - (1 - lambda) * redundancy[i]!
      if (value > best) {
        best = value
        pick = i
      }
    }
    chosen.push(pick)
    left.delete(pick)
    for (const i of left)
      redundancy[i] = Math.max(redundancy[i]!, similarity(features[i]!, features[pick]!))
  }
  return chosen.map((i) => pool[i]!)
}
