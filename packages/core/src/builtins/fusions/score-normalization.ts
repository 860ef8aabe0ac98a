import type { Candidate, ScoreNormalization } from '../../contracts/search-plugins.js'

/**
 * One list's scores on a common scale. Every normalisation is increasing, so a single list keeps its
 * order, and each is shifted so that an id the list did not return scores 0 and every returned id at
 * least 0 (the shift adds the same constant to every id's fused score, so it never changes a ranking,
 * and fused scores stay non-negative for consumers that sum or split them):
 *
 * - `min-max`: (s - min) / (max - min) (Lee, SIGIR 1997; Bruch, Gai & Ingber, TOIS 2023).
 * - `z-score`: (s - mean) / sd (Montague & Aslam, CIKM 2001, "Relevance score normalization"), an
 *   absent id counting as the list's lowest (it ranked below the list's depth): (s - min) / sd.
 * - `dbsf`: distribution-based score fusion, min-max between mean - 3 sd and mean + 3 sd (Mazzeschi,
 *   "Distribution-Based Score Fusion", 2023; Qdrant's `dbsf`), here without clipping so outliers keep
 *   their order; an absent id scores the lower bound, as in Qdrant (or the lowest when that is below).
 *
 * A list whose scores are all equal normalises to 1 (every member equally good).
 */
export function normalizeScores(
  items: readonly Candidate[],
  how: ScoreNormalization,
): Map<string, number> {
  if (items.length === 0) return new Map()
  let lo = Infinity
  let hi = -Infinity
  let sum = 0
  for (const { score } of items) {
    if (score < lo) lo = score
    if (score > hi) hi = score
    sum += score
  }
  if (!(hi > lo)) return new Map(items.map((i) => [i.id, 1]))
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
  const floor = how === 'dbsf' ? Math.min(0, f(lo)) : f(lo)
  return new Map(items.map((i) => [i.id, f(i.score) - floor]))
}
