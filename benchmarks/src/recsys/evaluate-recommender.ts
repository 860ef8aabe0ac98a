import { performance } from 'node:perf_hooks'
import type { LeaveLastOutSplit } from '../loaders/movielens.js'
import { hitAtK } from '../metrics/hit-rate.js'
import { ndcgAtK } from '../metrics/ndcg.js'
import { summarizeLatency, type LatencySummary } from '../metrics/percentiles.js'
import type { Recommender } from './recsys-baselines.js'

export interface RecommenderScore {
  /** HR@k: share of users whose held-out movie is in their top k. */
  readonly hr: number
  /** nDCG@k with binary gain (one relevant movie per user). */
  readonly ndcg: number
  readonly latency: LatencySummary
}

/**
 * Asks a recommender for every user of `split.test` (ascending id) and scores its top `k` against the
 * user's held-out movie. Latency is per call, measured around the call only.
 */
export async function evaluateRecommender(
  recommender: Recommender,
  split: LeaveLastOutSplit,
  k: number,
): Promise<RecommenderScore> {
  const users = [...split.test.keys()].sort((a, b) => a - b)
  const latencies: number[] = []
  let hr = 0
  let ndcg = 0
  for (const user of users) {
    const start = performance.now()
    const top = await recommender(user, k)
    latencies.push(performance.now() - start)
    const judged = new Map([[String(split.test.get(user)!.movieId), 1]])
    const hits = top.map((m, i) => ({ id: String(m), score: k - i }))
    hr += hitAtK(hits, judged, k)
    ndcg += ndcgAtK(hits, judged, k, 'binary')
  }
  return { hr: hr / users.length, ndcg: ndcg / users.length, latency: summarizeLatency(latencies) }
}
