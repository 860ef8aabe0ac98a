import type { Hit } from './ranking.js'

export type GainMode = 'binary' | 'graded'

/**
 * nDCG@k (Järvelin & Kekäläinen, ACM TOIS 2002) with the linear gain and log2(rank + 1) discount used by
 * trec_eval's ndcg_cut and pytrec_eval (BEIR). The ideal DCG comes from the judgements, not from the run.
 * `hits` must already be in rank order (see rankHits). Binary mode counts every gain > 0 as 1.
 */
export function ndcgAtK(
  hits: readonly Hit[],
  judged: ReadonlyMap<string, number>,
  k: number,
  mode: GainMode = 'graded',
): number {
  const gain = (g: number) => (g <= 0 ? 0 : mode === 'binary' ? 1 : g)
  let dcg = 0
  hits.slice(0, k).forEach((h, i) => {
    dcg += gain(judged.get(h.id) ?? 0) / Math.log2(i + 2)
  })
  const ideal = [...judged.values()].map(gain).sort((a, b) => b - a)
  let idcg = 0
  ideal.slice(0, k).forEach((g, i) => {
    idcg += g / Math.log2(i + 2)
  })
  return idcg === 0 ? 0 : dcg / idcg
}
