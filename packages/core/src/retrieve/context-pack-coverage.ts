import type { Candidate } from '../contracts/search-plugins.js'
import type { Passage } from '../model/passage.js'
import { coverQuery, QUERY_COVERAGE_DEFAULTS } from '../builtins/stages/query-coverage.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/**
 * The pack's passages re-ordered so that its first places cover the text's words (the `coverage`
 * rerank's xQuAD ordering, `query-coverage.ts`, at its defaults): a pack is the evidence for one
 * question, and a multi-part question needs a passage for each part more than a second passage for
 * the first. The head of `ranked` is re-ordered, the rest keeps its place. Measured on the issue 14
 * tuning sets: MuSiQue-100 source passages R@5 0.5825 -> 0.6108, LoCoMo dev 0.6125 -> 0.6038
 * (benchmarks/LOG.md). The head's records it read come back with the order (`loaded`), so the pack
 * does not read them again.
 */
export async function coverPackPassages(
  deps: Pick<RetrieveDeps, 'store' | 'indexes'>,
  text: string,
  ranked: readonly Candidate[],
): Promise<{ ranked: Candidate[]; loaded: Passage[] }> {
  const head = ranked.slice(0, QUERY_COVERAGE_DEFAULTS.head)
  if (head.length < 2) return { ranked: [...ranked], loaded: [] }
  const loaded = await deps.store.passages.get(head.map((c) => c.id))
  const texts = new Map(loaded.map((p) => [p.id, p.text]))
  const index = deps.indexes.passages
  const out = coverQuery(
    head.map((c) => ({ id: c.id, score: c.score, text: texts.get(c.id) ?? '', entity: null })),
    index.termWeights(text),
    QUERY_COVERAGE_DEFAULTS.lambda,
    (passage) => index.termWeights(passage),
  )
  const covered = (out.order ?? []).map((id) => ({ id, score: out.scores.get(id)! }))
  return { ranked: [...covered, ...ranked.slice(head.length)], loaded }
}
