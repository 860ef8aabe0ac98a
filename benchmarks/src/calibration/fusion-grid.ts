import { fuseByConvexCombination, type ChannelList, type ScoreNormalization } from '@engram/core'
import type { Qrels } from '../loaders/dataset-types.js'
import { evaluateRun } from '../metrics/evaluate.js'
import type { Hit } from '../metrics/ranking.js'

/** One calibration set: each query's channel lists as the engine retrieved them, and its judgements. */
export interface CalibrationSet {
  /** E.g. `scifact-train`. */
  readonly name: string
  /** The metric the set is judged by, e.g. `nDCG@10`. */
  readonly metric: string
  /** Hits kept per query (the benchmark config's depth). */
  readonly depth: number
  readonly lists: ReadonlyMap<string, readonly ChannelList[]>
  readonly qrels: Qrels
}

/** One grid point: normalisation and dense share, with the metric on each set. */
export interface GridRow {
  readonly normalization: ScoreNormalization
  readonly denseShare: number
  /** Set name -> metric. */
  readonly scores: Readonly<Record<string, number>>
  /** Smallest relative gain over BM25 across the sets (the rule's first key). */
  readonly worstGain: number
  /** Mean relative gain over BM25 (the tie-break). */
  readonly meanGain: number
}

export const NORMALIZATIONS: readonly ScoreNormalization[] = ['min-max', 'z-score', 'dbsf']

/** Dense shares tried: fine steps near 0, where a weak embedder's weight lands, coarser above. */
export const DENSE_SHARES: readonly number[] = [
  0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6,
  0.7, 0.8, 0.9, 1,
]

/** BM25 alone on a set: the `bm25` list's own order (what `/retrieve/search` gives without an embedder). */
export function bm25Score(set: CalibrationSet): number {
  const run = new Map<string, Hit[]>()
  for (const [qid, lists] of set.lists)
    run.set(qid, lists.find((l) => l.signal === 'bm25')?.items.slice(0, set.depth) ?? [])
  return evaluateRun(run, set.qrels, [set.metric])[set.metric]!
}

/** The metric of `cc` with these weights on a set (graph weight irrelevant: passage lists only). */
export function fusedScore(
  set: CalibrationSet,
  normalization: ScoreNormalization,
  denseShare: number,
): number {
  const run = new Map<string, Hit[]>()
  for (const [qid, lists] of set.lists)
    run.set(
      qid,
      fuseByConvexCombination(lists, { normalization, denseShare, graphWeight: 0 }).slice(
        0,
        set.depth,
      ),
    )
  return evaluateRun(run, set.qrels, [set.metric])[set.metric]!
}

/**
 * Every grid point on every set, best first by the rule that favours "never below BM25 on any set":
 * the largest worst relative gain over BM25, ties by the mean gain, then the smaller dense share.
 */
export function fusionGrid(sets: readonly CalibrationSet[]): {
  bm25: Record<string, number>
  rows: GridRow[]
} {
  const bm25 = Object.fromEntries(sets.map((s) => [s.name, bm25Score(s)]))
  const rows: GridRow[] = []
  for (const normalization of NORMALIZATIONS)
    for (const denseShare of DENSE_SHARES) {
      const scores = Object.fromEntries(
        sets.map((s) => [s.name, fusedScore(s, normalization, denseShare)]),
      )
      // Relative to BM25; a set where BM25 scores 0 counts the absolute difference.
      const gains = sets.map((s) =>
        bm25[s.name]! > 0 ? scores[s.name]! / bm25[s.name]! - 1 : scores[s.name]! - bm25[s.name]!,
      )
      rows.push({
        normalization,
        denseShare,
        scores,
        worstGain: Math.min(...gains),
        meanGain: gains.reduce((a, b) => a + b, 0) / gains.length,
      })
    }
  rows.sort(
    (a, b) => b.worstGain - a.worstGain || b.meanGain - a.meanGain || a.denseShare - b.denseShare,
  )
  return { bm25, rows }
}
