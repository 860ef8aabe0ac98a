/** One ranked hit as two brains can be compared on: ids may differ, what the hit says does not. */
export interface RankedKey {
  /** What the hit is (a passage's text, or channel and snippet). */
  readonly key: string
  readonly score: number
}

/**
 * How brain A's ranking of one query compares with brain B's, from the strictest agreement down:
 * - `identical`: the same hits in the same order with the same scores (within `epsilon`);
 * - `scores-differ`: the same hits in the same order, some score differs;
 * - `order-differs`: the same hits, another order;
 * - `hits-differ`: some hit of one is not in the other.
 */
export type RankingOutcome = 'identical' | 'scores-differ' | 'order-differs' | 'hits-differ'

export const RANKING_OUTCOMES: readonly RankingOutcome[] = [
  'identical',
  'scores-differ',
  'order-differs',
  'hits-differ',
]

/** Scores closer than this are equal: both brains compute them the same way, in doubles. */
export const SCORE_EPSILON = 1e-9

export function compareRankings(
  a: readonly RankedKey[],
  b: readonly RankedKey[],
  epsilon = SCORE_EPSILON,
): RankingOutcome {
  const sameOrder = a.length === b.length && a.every((hit, i) => hit.key === b[i]!.key)
  if (sameOrder)
    return a.every((hit, i) => Math.abs(hit.score - b[i]!.score) <= epsilon)
      ? 'identical'
      : 'scores-differ'
  const keys = (list: readonly RankedKey[]) => list.map((h) => h.key).sort()
  const [ka, kb] = [keys(a), keys(b)]
  const sameSet = ka.length === kb.length && ka.every((key, i) => key === kb[i])
  return sameSet ? 'order-differs' : 'hits-differ'
}

/** Largest score difference between hits at the same rank (0 for rankings of other hits). */
export function maxScoreDifference(a: readonly RankedKey[], b: readonly RankedKey[]): number {
  let max = 0
  for (let i = 0; i < Math.min(a.length, b.length); i++)
    if (a[i]!.key === b[i]!.key) max = Math.max(max, Math.abs(a[i]!.score - b[i]!.score))
  return max
}
