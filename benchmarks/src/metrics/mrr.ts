import type { Hit } from './ranking.js'

/** Reciprocal rank of the first relevant hit within the top k (Voorhees, TREC-8 QA track 1999); 0 if none. */
export function reciprocalRank(
  hits: readonly Hit[],
  judged: ReadonlyMap<string, number>,
  k = Number.POSITIVE_INFINITY,
): number {
  const limit = Math.min(k, hits.length)
  for (let i = 0; i < limit; i++) if ((judged.get(hits[i]!.id) ?? 0) > 0) return 1 / (i + 1)
  return 0
}
