import type {
  Candidate,
  ChannelList,
  FusionCalibration,
  FusionPlugin,
} from '../../contracts/search-plugins.js'
import { byScoreThenId } from './order.js'
import { normalizeScores, scoresAreTied } from './score-normalization.js'

/**
 * The weights `cc` uses when neither the request nor the brain's calibration gives any: min-max and an
 * equal dense/BM25 split (Bruch et al.'s convex combination at alpha 0.5), graph lists at half a
 * passage signal's weight.
 */
export const NEUTRAL_FUSION: FusionCalibration = {
  normalization: 'min-max',
  denseShare: 0.5,
  graphWeight: 0.5,
}

/**
 * Weighted score fusion over every list (Bruch, Gai & Ingber, "An Analysis of Fusion Functions for
 * Hybrid Retrieval", TOIS 2023: a convex combination of normalised scores beats RRF once its weight is
 * tuned): each list is normalised on its own (see `normalizeScores`; an id a list did not return
 * scores 0 there, every returned id above 0; the members of a list whose scores are all equal, a
 * single hit included, score the mean top of the lists that have a spread), then
 *
 *   score = (1 - denseShare) * sum(bm25 lists) + denseShare * sum(dense lists) + graphWeight * sum(others)
 *
 * `alpha`, when given, replaces `denseShare`; when every list present weighs 0, each weighs 1. Each list counts once, with its own signal's weight, so
 * several entity and event lists no longer outvote the passages as they did when the combined passage
 * list was joined to them by RRF.
 */
export function fuseByConvexCombination(
  lists: readonly ChannelList[],
  calibration: FusionCalibration,
  alpha?: number,
): Candidate[] {
  const share = alpha ?? calibration.denseShare
  const weight = (l: ChannelList) =>
    l.signal === 'bm25' ? 1 - share : l.signal === 'dense' ? share : calibration.graphWeight
  const present = lists.filter((l) => l.items.length > 0)
  // Only zero-weight lists (a dense share of 1 on a lexical search, 0 on a dense-only one): each
  // counts 1 rather than every id tying at 0.
  const equal = present.every((l) => weight(l) === 0)
  const how = calibration.normalization
  const spread = present.filter((l) => !scoresAreTied(l.items))
  const normalized = spread.map((l) => ({
    weight: equal ? 1 : weight(l),
    scores: normalizeScores(l.items, how),
  }))
  // A list with no spread (a single hit included) scores its members as the other lists score their
  // tops, on average; 1 (min-max's top) when no list has a spread.
  const tops = normalized.map((l) => Math.max(...l.scores.values()))
  const tied = tops.length > 0 ? tops.reduce((a, b) => a + b, 0) / tops.length : 1
  for (const l of present)
    if (!spread.includes(l))
      normalized.push({
        weight: equal ? 1 : weight(l),
        scores: normalizeScores(l.items, how, tied),
      })
  const ids = new Set<string>()
  for (const l of lists) for (const item of l.items) ids.add(item.id)
  return [...ids]
    .map((id) => {
      let score = 0
      for (const l of normalized) score += l.weight * (l.scores.get(id) ?? 0)
      return { id, score }
    })
    .sort(byScoreThenId)
}

/**
 * `cc`: weighted score fusion with the brain's calibration (`options.calibration`, chosen by the
 * search from the embedder the brain was built with), else `defaults`; `options.alpha` (the request's
 * `fusion_alpha`) sets the dense share.
 */
export function convexCombination({
  alpha,
  calibration = NEUTRAL_FUSION,
}: { alpha?: number; calibration?: FusionCalibration } = {}): FusionPlugin {
  return {
    kind: 'fusion',
    name: 'cc',
    fuse: (lists, options) =>
      fuseByConvexCombination(lists, options.calibration ?? calibration, options.alpha ?? alpha),
  }
}
