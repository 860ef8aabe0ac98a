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

/** Per-query metric of a run on a set, in the set's query order (a query missing from the run scores 0). */
function perQuery(set: CalibrationSet, run: ReadonlyMap<string, readonly Hit[]>): number[] {
  return [...set.qrels]
    .filter(([, judged]) => [...judged.values()].some((g) => g > 0))
    .map(
      ([qid, judged]) =>
        evaluateRun(new Map([[qid, run.get(qid) ?? []]]), new Map([[qid, judged]]), [set.metric])[
          set.metric
        ]!,
    )
}

/** BM25 alone on a set, per query: the `bm25` list's own order (`/retrieve/search` without an embedder). */
export function bm25PerQuery(set: CalibrationSet): number[] {
  const run = new Map<string, Hit[]>()
  for (const [qid, lists] of set.lists)
    run.set(qid, lists.find((l) => l.signal === 'bm25')?.items.slice(0, set.depth) ?? [])
  return perQuery(set, run)
}

/** `cc` with these weights on a set, per query (graph weight irrelevant: passage lists only). */
export function fusedPerQuery(
  set: CalibrationSet,
  normalization: ScoreNormalization,
  denseShare: number,
): number[] {
  const run = new Map<string, Hit[]>()
  for (const [qid, lists] of set.lists)
    run.set(
      qid,
      fuseByConvexCombination(lists, { normalization, denseShare, graphWeight: 0 }).slice(
        0,
        set.depth,
      ),
    )
  return perQuery(set, run)
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

/** Standard error of the mean of the per-query differences a - b (paired). */
function pairedStandardError(a: readonly number[], b: readonly number[]): number {
  if (a.length < 2) return 0
  const d = a.map((x, i) => x - b[i]!)
  const m = mean(d)
  return Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / (d.length - 1) / d.length)
}

/**
 * Every grid point on every set, and the chosen one. Rows are ranked by the rule that favours "never
 * below BM25 on any set": the largest worst relative gain over BM25 across the sets, ties by the mean
 * gain, then the smaller dense share. The chosen row applies the one-standard-error rule (Breiman,
 * Friedman, Olshen & Stone, "Classification and Regression Trees", 1984, section 3.4.3) against the
 * winner's curse of picking the top of a noisy grid: the smallest dense share (the model closest to
 * BM25) whose metric is, on every set, within one paired standard error of the top row's and at least
 * BM25's.
 */
export function fusionGrid(sets: readonly CalibrationSet[]): {
  bm25: Record<string, number>
  rows: GridRow[]
  chosen: GridRow
} {
  const base = new Map(sets.map((s) => [s.name, bm25PerQuery(s)]))
  const bm25 = Object.fromEntries(sets.map((s) => [s.name, mean(base.get(s.name)!)]))
  const perRow: { row: GridRow; queries: Map<string, number[]> }[] = []
  for (const normalization of NORMALIZATIONS)
    for (const denseShare of DENSE_SHARES) {
      const queries = new Map(
        sets.map((s) => [s.name, fusedPerQuery(s, normalization, denseShare)]),
      )
      const scores = Object.fromEntries(sets.map((s) => [s.name, mean(queries.get(s.name)!)]))
      // Relative to BM25; a set where BM25 scores 0 counts the absolute difference.
      const gains = sets.map((s) =>
        bm25[s.name]! > 0 ? scores[s.name]! / bm25[s.name]! - 1 : scores[s.name]! - bm25[s.name]!,
      )
      perRow.push({
        queries,
        row: {
          normalization,
          denseShare,
          scores,
          worstGain: Math.min(...gains),
          meanGain: gains.reduce((a, b) => a + b, 0) / gains.length,
        },
      })
    }
  perRow.sort(
    (a, b) =>
      b.row.worstGain - a.row.worstGain ||
      b.row.meanGain - a.row.meanGain ||
      a.row.denseShare - b.row.denseShare,
  )
  const top = perRow[0]!
  const withinOneSe = perRow.filter(({ row, queries }) =>
    sets.every((s) => {
      const se = pairedStandardError(top.queries.get(s.name)!, queries.get(s.name)!)
      return (
        row.scores[s.name]! >= top.row.scores[s.name]! - se && row.scores[s.name]! >= bm25[s.name]!
      )
    }),
  )
  const chosen = withinOneSe.reduce((a, b) => (b.row.denseShare < a.row.denseShare ? b : a)).row
  return { bm25, rows: perRow.map((r) => r.row), chosen }
}
