import type { Candidate, ScoreNormalization } from '../../contracts/search-plugins.js'

/**
 * One list's scores on a common scale, such that an id the list did not return scores 0 and every id
 * it returned scores above 0: returning an item is evidence for it, so it must count for more than
 * not returning it, in every normalisation (issue 27).
 * A list is cut at its depth, so an absent id
 * stands for the ranks below the last; it counts as one step below the list's lowest score, the step
 * being the list's mean gap between adjacent ranks, (max - min) / (n - 1): where the next rank would
 * score had the list gone one deeper at its average spacing. With `absent = min - step`:
 *
 * - `min-max`: (s - absent) / (max - absent), min-max (Lee, SIGIR 1997; Bruch, Gai & Ingber, TOIS
 *   2023) with the absent id as the minimum: the top scores 1, the lowest 1 / n.
 * - `z-score`: (s - absent) / sd, the z-score (s - mean) / sd (Montague & Aslam, "Relevance score
 *   normalization") less the absent id's.
 * - `dbsf`: distribution-based score fusion, min-max between mean - 3 sd and mean + 3 sd (Mazzeschi,
 *   "Distribution-Based Score Fusion", 2023; Qdrant's `dbsf`), here without clipping so outliers keep
 *   their order; an absent id scores the lower bound, as in Qdrant (or `absent` when that is lower).
 *
 * Each is increasing, so a single list keeps its order, and each only adds the same constant to every
 * returned id's z-score or dbsf value, so fused scores stay non-negative for consumers that sum them.
 *
 * A list whose scores are all equal (a single hit included) has no spread to place its members by;
 * they score `tied`, what a list's top scores on the scale: 1 by default, the top of min-max and of
 * dbsf's range; `cc` passes the mean top of the fusion's other lists (see `fuseByConvexCombination`),
 * so a channel that finds one passage counts it as the others count their best.
 */
export function normalizeScores(
  items: readonly Candidate[],
  how: ScoreNormalization,
  tied = 1,
): Map<string, number> {
  if (items.length === 0) return new Map()
  const { lo, hi, mean, sd } = statistics(items)
  if (!(hi > lo)) return new Map(items.map((i) => [i.id, tied]))
  const absent = lo - (hi - lo) / (items.length - 1)
  const f =
    how === 'min-max'
      ? (s: number) => (s - absent) / (hi - absent)
      : how === 'z-score'
        ? (s: number) => (s - absent) / sd
        : (s: number) => (s - Math.min(absent, mean - 3 * sd)) / (6 * sd)
  return new Map(items.map((i) => [i.id, f(i.score)]))
}

/** True when a list's scores are all equal (a single hit included): `normalizeScores` gives them `tied`. */
export function scoresAreTied(items: readonly Candidate[]): boolean {
  const { lo, hi } = statistics(items)
  return !(hi > lo)
}

function statistics(items: readonly Candidate[]) {
  let lo = Infinity
  let hi = -Infinity
  let sum = 0
  for (const { score } of items) {
    if (score < lo) lo = score
    if (score > hi) hi = score
    sum += score
  }
  const mean = sum / items.length
  let squares = 0
  for (const { score } of items) squares += (score - mean) ** 2
  return { lo, hi, mean, sd: Math.sqrt(squares / items.length) }
}
