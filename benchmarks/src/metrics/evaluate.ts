import type { Qrels } from '../loaders/dataset-types.js'
import { hitAtK } from './hit-rate.js'
import { reciprocalRank } from './mrr.js'
import { ndcgAtK, type GainMode } from './ndcg.js'
import { rankHits, type Hit, type Run } from './ranking.js'
import { recallAtK } from './recall.js'

/**
 * A metric by its config name: `nDCG@10`, `R@100`, `MRR`, `MRR@10`, `Hit@10`. `@all` scores the whole
 * returned list (`R@all`: the share of the relevant documents the system returned at all, for systems such
 * as the context pack whose output is a bounded set rather than a top k).
 */
export interface MetricSpec {
  readonly name: string
  readonly kind: 'ndcg' | 'recall' | 'mrr' | 'hit'
  readonly k: number
}

const PATTERN = /^(nDCG|R|MRR|Hit)(?:@(\d+|all))?$/

export function parseMetric(name: string): MetricSpec {
  const m = PATTERN.exec(name)
  if (!m || (m[1] !== 'MRR' && !m[2])) {
    throw new Error(`unknown metric '${name}' (use nDCG@k, R@k, MRR, MRR@k, Hit@k; k may be 'all')`)
  }
  const kind = ({ nDCG: 'ndcg', R: 'recall', MRR: 'mrr', Hit: 'hit' } as const)[m[1] as 'nDCG']
  return { name, kind, k: m[2] && m[2] !== 'all' ? Number(m[2]) : Number.POSITIVE_INFINITY }
}

function score(
  spec: MetricSpec,
  hits: readonly Hit[],
  judged: ReadonlyMap<string, number>,
  mode: GainMode,
) {
  switch (spec.kind) {
    case 'ndcg':
      return ndcgAtK(hits, judged, spec.k, mode)
    case 'recall':
      return recallAtK(hits, judged, spec.k)
    case 'mrr':
      return reciprocalRank(hits, judged, spec.k)
    case 'hit':
      return hitAtK(hits, judged, spec.k)
  }
}

/**
 * Mean of each metric over every judged query that has at least one relevant document. A judged query missing
 * from the run scores 0 (as trec_eval -c does), so a system cannot gain by skipping hard queries.
 */
export function evaluateRun(
  run: Run,
  qrels: Qrels,
  metrics: readonly string[],
  mode: GainMode = 'graded',
): Record<string, number> {
  const specs = metrics.map(parseMetric)
  const sums = new Array<number>(specs.length).fill(0)
  let n = 0
  for (const [qid, judged] of qrels) {
    if (![...judged.values()].some((g) => g > 0)) continue
    n++
    const hits = rankHits(run.get(qid) ?? [])
    specs.forEach((s, i) => (sums[i]! += score(s, hits, judged, mode)))
  }
  return Object.fromEntries(specs.map((s, i) => [s.name, n === 0 ? 0 : sums[i]! / n]))
}
