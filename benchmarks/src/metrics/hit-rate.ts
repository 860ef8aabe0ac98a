import type { Hit } from './ranking.js'

/** Hit@k: 1 when at least one relevant document is in the top k, else 0 (recommender "hit rate"). */
export function hitAtK(
  hits: readonly Hit[],
  judged: ReadonlyMap<string, number>,
  k: number,
): number {
  return hits.slice(0, k).some((h) => (judged.get(h.id) ?? 0) > 0) ? 1 : 0
}
