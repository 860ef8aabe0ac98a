import type { Candidate } from '../contracts/search-plugins.js'
import type { Passage } from '../model/passage.js'
import {
  coverageWindow,
  coverQuery,
  heldInText,
  type QueryCoverageSettings,
} from '../builtins/stages/query-coverage.js'
import type { RetrieveDeps } from './retrieve-deps.js'

/**
 * The pack's passages re-ordered so that its first places cover the text's words (the `coverage`
 * rerank's xQuAD ordering, `query-coverage.ts`) and, when `hopsFrom` is given, lead on from the first
 * passage through the graph (the `hops` rerank): a pack is the evidence for one question, and a
 * multi-part question needs a passage for each part more than a second passage for the first. The
 * first `pool` passages of `ranked` are re-ordered, the rest keep their place. The records it read
 * come back with the order (`loaded`), so the pack does not read them again.
 */
export async function coverPackPassages(
  deps: Pick<RetrieveDeps, 'store' | 'indexes'>,
  text: string,
  ranked: readonly Candidate[],
  settings: QueryCoverageSettings,
  hopsFrom: ((id: string) => Promise<ReadonlyMap<string, number>>) | null = null,
): Promise<{ ranked: Candidate[]; loaded: Passage[] }> {
  const pool = ranked.slice(0, coverageWindow(settings, hopsFrom !== null))
  if (pool.length < 2) return { ranked: [...ranked], loaded: [] }
  const loaded = await deps.store.passages.get(pool.map((c) => c.id))
  const texts = new Map(loaded.map((p) => [p.id, p.text]))
  const index = deps.indexes.passages
  const inText = heldInText((passage) => index.termWeights(passage))
  const out = await coverQuery(
    pool.map((c) => ({ id: c.id, score: c.score, text: texts.get(c.id) ?? '', entity: null })),
    index.termWeights(text),
    settings,
    (hit, terms) => index.heldTerms(hit.id, terms) ?? inText(hit, terms),
    hopsFrom,
  )
  const score = new Map(pool.map((c) => [c.id, c.score]))
  const covered = (out.order ?? []).map((id) => ({
    id,
    score: out.scores.get(id) ?? score.get(id)!,
  }))
  return { ranked: [...covered, ...ranked.slice(pool.length)], loaded }
}
