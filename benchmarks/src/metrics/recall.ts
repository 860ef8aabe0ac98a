import type { Hit } from './ranking.js'

/** Recall@k: the share of a query's relevant documents (gain > 0) found in its top k (Manning et al., IR book §8.3). */
export function recallAtK(
  hits: readonly Hit[],
  judged: ReadonlyMap<string, number>,
  k: number,
): number {
  const relevant = [...judged].filter(([, g]) => g > 0).length
  if (relevant === 0) return 0
  const found = hits.slice(0, k).filter((h) => (judged.get(h.id) ?? 0) > 0).length
  return found / relevant
}
