import type { Qrels } from '../loaders/dataset-types.js'
import type { GainMode } from './ndcg.js'
import type { Run } from './ranking.js'
import { evaluateRun } from './evaluate.js'

/** The metrics of one category of queries and how many judged queries it holds. */
export interface CategoryScores {
  readonly queries: number
  readonly metrics: Readonly<Record<string, number>>
}

/**
 * `evaluateRun` per query category (LoCoMo's question categories: `metadata.category` of the loader's
 * queries), so a change that helps one kind of question and hurts another shows. Each category's score is
 * the mean over its own judged queries, scored exactly as the whole run is (a missing query scores 0).
 * Queries without a category are left out; `{}` when no query has one.
 */
export function evaluateByCategory(
  run: Run,
  qrels: Qrels,
  categoryOf: ReadonlyMap<string, string>,
  metrics: readonly string[],
  mode: GainMode = 'graded',
): Record<string, CategoryScores> {
  const split = new Map<string, Map<string, ReadonlyMap<string, number>>>()
  for (const [qid, judged] of qrels) {
    const category = categoryOf.get(qid)
    if (category === undefined) continue
    const of = split.get(category) ?? new Map<string, ReadonlyMap<string, number>>()
    of.set(qid, judged)
    split.set(category, of)
  }
  const judgedCount = (q: Qrels) =>
    [...q.values()].filter((judged) => [...judged.values()].some((g) => g > 0)).length
  return Object.fromEntries(
    [...split.keys()]
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .map((c) => {
        const q = split.get(c)!
        return [c, { queries: judgedCount(q), metrics: evaluateRun(run, q, metrics, mode) }]
      }),
  )
}
