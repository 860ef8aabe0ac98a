import type { SearchHit, SearchResponse } from '@engram/client'

/** RRF's k, fixed by the server (CONTRACT.md section 7; Cormack et al. 2009). */
export const RRF_K = 60

/** The list the graph stage adds passages to (`expand=neighbors`); it is not an input of the fusion. */
const ADDED_LIST = 'neighbors'

/** One ranked list that returned the hit. */
export interface ListPlace {
  /** `channel_lists` key: a signal (`bm25`, `dense`), a graph channel (`entities`…) or `plugin:<name>`. */
  list: string
  /** 1-based rank of the hit in that list. */
  rank: number
  /** The hit's score in that list, from `hit.scores`, when the response carries it. */
  score: number | null
  /** What the list adds to the fused score: `1 / (k + rank)` under rrf; null where not derivable. */
  contribution: number | null
}

/** A step after the fusion: a stage that ran, and what it did to this hit's score. */
export interface StageStep {
  stage: 'expand' | 'rerank' | 'personalize'
  /** The score after the step (null when a later step overwrote a value the response does not keep). */
  value: number | null
  note: string
}

/** How a hit's final score came about, from what the search response holds. */
export interface HitExplanation {
  /** `rrf`, `cc`, `none` or `plugin:<name>`; `added` for a hit the graph stage brought in. */
  fusion: string
  /** The fused score (`hit.scores.rrf`, `.cc`, a plugin fusion's, or the list score under `none`). */
  fused: number | null
  places: ListPlace[]
  /** For rrf: Σ 1/(k + rank) over the places, to compare with `fused`. */
  sum: number | null
  /** How the fusion makes its score, in words, with what cannot be itemised. */
  formula: string
  stages: StageStep[]
  final: number
  /** True when the shown steps end exactly at `final` (and, for rrf, the places add up to `fused`). */
  addsUp: boolean
}

const close = (a: number, b: number) =>
  Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b))

/** The hit's score in a list of `channel_lists`, as `hit.scores` names it. */
function listScore(hit: SearchHit, list: string): number | null {
  const scores = hit.scores as Record<string, unknown> & { plugin?: Record<string, number> }
  if (list.startsWith('plugin:')) return scores.plugin?.[list.slice('plugin:'.length)] ?? null
  const direct = scores[list]
  if (typeof direct === 'number') return direct
  // Entity, event and community lists report under `graph` (the best of them).
  return list !== ADDED_LIST && typeof scores.graph === 'number' ? scores.graph : null
}

/** The fusion a hit's scores show: the request's choice, else the one whose slot is filled. */
function fusionOf(hit: SearchHit, requested: string): string {
  if (requested !== '') return requested
  if (hit.scores.rrf !== undefined) return 'rrf'
  if (hit.scores.cc !== undefined) return 'cc'
  return 'none'
}

/**
 * Explains a hit's score from the response: its place in each ranked list (`channel_lists`), the
 * fusion's share of each (exact for rrf: 1/(60 + rank) per list, summed), then the stages that ran
 * (`stage_timings`, so the search must be profiled): the graph stage (`search.expand`) rescoring passages,
 * a rerank (`hit.scores.rerank`), personalization (`hit.scores.personalize`). Each stage's score
 * replaces the one before it. Where the response does not carry a step's inputs (cc normalises each
 * list over its whole spread and weighs it by the brain's calibration; the graph stage blends in a
 * walk score it does not return), the step is named and its result given, not itemised.
 */
export function explainHit(
  hit: SearchHit,
  response: Pick<SearchResponse, 'channel_lists' | 'stage_timings'>,
  requestedFusion: string,
  alpha: number | null = null,
): HitExplanation {
  const ran = new Set((response.stage_timings.stages ?? []).map((s) => s.stage))
  const places: ListPlace[] = []
  for (const [list, ids] of Object.entries(response.channel_lists)) {
    const at = ids.indexOf(hit.id)
    if (at === -1) continue
    places.push({ list, rank: at + 1, score: listScore(hit, list), contribution: null })
  }
  const fusedPlaces = places.filter((p) => p.list !== ADDED_LIST)
  const added = fusedPlaces.length === 0 && places.some((p) => p.list === ADDED_LIST)
  let fusion = added ? 'added' : fusionOf(hit, requestedFusion)
  let fused: number | null
  let sum: number | null = null
  let formula: string
  if (added) {
    fused = places.find((p) => p.list === ADDED_LIST)!.score ?? hit.score
    formula =
      'Not in any fused list: the graph stage added it, one or two entities from the best passages, with its walk score.'
  } else if (fusion === 'rrf') {
    for (const p of fusedPlaces) p.contribution = 1 / (RRF_K + p.rank)
    sum = fusedPlaces.reduce((total, p) => total + p.contribution!, 0)
    fused = hit.scores.rrf ?? null
    formula = `Reciprocal rank fusion: each list adds 1 / (${RRF_K} + rank); the scores inside a list only set its order.`
  } else if (fusion === 'cc') {
    fused = hit.scores.cc ?? null
    formula =
      `Convex combination: each list's scores are normalised over the whole list, then weighed ` +
      `(bm25 × (1 − α), dense × α, graph lists × the brain's graph weight)${alpha === null ? '' : `, α = ${alpha}`}. ` +
      'The response does not carry each list’s spread or the brain’s calibration, so the shares are not itemised.'
  } else if (fusion === 'none') {
    const first = fusedPlaces[0]
    fused = first?.score ?? null
    formula =
      'No fusion: the lists are concatenated in request order; a hit keeps its score in the first list that has it.'
  } else {
    fusion = fusion.startsWith('plugin:') ? fusion : `plugin:${fusion}`
    fused = hit.scores.plugin?.[fusion.slice('plugin:'.length)] ?? null
    formula = `A plugin fusion (${fusion}): its score is its own; the response does not itemise it.`
  }

  const stages: StageStep[] = []
  let current = fused
  const rerank = hit.scores.rerank
  const personalize = hit.scores.personalize
  if (ran.has('search.expand')) {
    // A later stage overwrites the graph stage's score, which the response does not keep.
    const later = rerank ?? personalize
    if (later !== undefined) {
      stages.push({
        stage: 'expand',
        value: null,
        note: 'The graph stage ran (it rescores passages by a walk over the passage-entity graph); a later stage replaced its score.',
      })
      current = null
    } else if (current !== null && close(current, hit.score)) {
      stages.push({
        stage: 'expand',
        value: current,
        note: 'The graph stage ran and kept this score.',
      })
    } else {
      stages.push({
        stage: 'expand',
        value: hit.score,
        note: 'The graph stage rescored it: ½ × its fused score (min-max over the candidates) + ½ × its walk mass over the best passage’s, times the top fused score, plus a share of its best neighbour in the text. The walk’s parts are not returned.',
      })
      current = hit.score
    }
  }
  if (ran.has('search.rerank')) {
    if (rerank !== undefined) {
      stages.push({
        stage: 'rerank',
        value: rerank,
        note: 'The rerank stage’s score replaces the one before.',
      })
      current = rerank
    } else
      stages.push({
        stage: 'rerank',
        value: current,
        note: 'The rerank ran but did not rescore this hit (outside the head it reads): its score is kept.',
      })
  }
  if (ran.has('search.personalize') && personalize !== undefined) {
    stages.push({
      stage: 'personalize',
      value: personalize,
      note: 'Personalization for the target replaces the score.',
    })
    current = personalize
  }
  const rrfAddsUp = sum === null || (fused !== null && close(sum, fused))
  return {
    fusion,
    fused,
    places,
    sum,
    formula,
    stages,
    final: hit.score,
    addsUp: rrfAddsUp && current !== null && close(current, hit.score),
  }
}
