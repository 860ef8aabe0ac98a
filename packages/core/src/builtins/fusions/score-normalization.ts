import type { Candidate, ScoreNormalization } from '../../contracts/search-plugins.js'

/**
 * One list's scores on a common scale, and the value an id the list did not return gets. Every
 * normalisation is increasing, so a single list keeps its order.
 *
 * - `min-max`: (s - min) / (max - min) (Lee, SIGIR 1997; Bruch, Gai & Ingber, TOIS 2023).
 * - `z-score`: (s - mean) / sd (Montague & Aslam, CIKM 2001, "Relevance score normalization").
 * - `dbsf`: distribution-based score fusion, min-max between mean - 3 sd and mean + 3 sd (Mazzeschi,
 *   "Distribution-Based Score Fusion", 2023; Qdrant's `dbsf`), here without clipping so outliers keep
 *   their order.
 *
 * An id a list did not return scores as the list's lowest (it ranked below the list's depth) under
 * `min-max` (0) and `z-score`; under `dbsf` it scores the lower bound (0), as in Qdrant, or the lowest
 * when that is below it.
 *
 * A list whose scores are all equal normalises to 1 (every member equally good), its missing value 0.
 */
export interface NormalizedList {
  readonly scores: ReadonlyMap<string, number>
  readonly missing: number
}

export function normalizeScores(
  items: readonly Candidate[],
  how: ScoreNormalization,
): NormalizedList {
  if (items.length === 0) return { scores: new Map(), missing: 0 }
  let lo = Infinity
  let hi = -Infinity
  let sum = 0
  for (const { score } of items) {
    if (score < lo) lo = score
    if (score > hi) hi = score
    sum += score
  }
  if (!(hi > lo)) return { scores: new Map(items.map((i) => [i.id, 1])), missing: 0 }
  const mean = sum / items.length
  let squares = 0
  for (const { score } of items) squares += (score - mean) ** 2
  const sd = Math.sqrt(squares / items.length)
  const f =
    how === 'min-max'
      ? (s: number) => (s - lo) / (hi - lo)
      : how === 'z-score'
        ? (s: number) => (s - mean) / sd
        : (s: number) => (s - (mean - 3 * sd)) / (6 * sd)
  const missing = how === 'dbsf' ? Math.min(0, f(lo)) : f(lo)
  return { scores: new Map(items.map((i) => [i.id, f(i.score)])), missing }
}
