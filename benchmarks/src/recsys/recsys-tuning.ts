import type { RecommendTuning } from '@engram/core'

/**
 * The settings of `recommend` that the MovieLens validation folds compare (issue 14): how fast the
 * target's history fades by recency rank, how much the multi-interest channel weighs in the fusion,
 * and MMR's trade-off. Everything else stays at the engine's defaults (the REST defaults of
 * CONTRACT.md section 6 are not settings here).
 */
export interface RecsysSetting {
  /** `historyWeights` half-life in interactions (Infinity: no recency rank weighting). */
  readonly historyHalfLife: number
  readonly multiInterestWeight: number
  readonly mmrLambda: number
}

/** History half-lives compared, for Engram and for the recency-weighted item-kNN baseline. */
export const HALF_LIFE_GRID: readonly number[] = [1, 2, 3, 5, 10, Number.POSITIVE_INFINITY]
/** 0.85 is the original's factor; 0 leaves the channel out of the fusion (compared, never a default). */
export const MULTI_INTEREST_WEIGHT_GRID: readonly number[] = [0.85, 0.5, 0.25, 0.1, 0]
/** 0.7 is the original's; 1 would switch diversification off, which the defaults may not do. */
export const MMR_LAMBDA_GRID: readonly number[] = [0.5, 0.7, 0.8, 0.9]

/**
 * item-kNN's history half-life in the "recency-weighted" baseline row of the test table: the best of
 * {@link HALF_LIFE_GRID} for item-kNN on the validation folds (results/movielens-validation.md).
 */
export const KNN_HISTORY_HALF_LIFE = 3

/**
 * Whether a setting may become the engine default: `include_multi_interest` is on by default (REST
 * contract), so its channel must weigh something in the fusion, as `diversify` on by default rules
 * out lambda 1 (not in the grid).
 */
export const canBeDefault = (s: RecsysSetting): boolean => s.multiInterestWeight > 0

/** Every combination of the grids, in grid order. */
export function settingGrid(): RecsysSetting[] {
  return HALF_LIFE_GRID.flatMap((historyHalfLife) =>
    MULTI_INTEREST_WEIGHT_GRID.flatMap((multiInterestWeight) =>
      MMR_LAMBDA_GRID.map((mmrLambda) => ({ historyHalfLife, multiInterestWeight, mmrLambda })),
    ),
  )
}

/** The engine options of a setting. */
export function settingTuning(setting: RecsysSetting): RecommendTuning {
  return {
    historyHalfLife: setting.historyHalfLife,
    channelWeights: { multi_interest: setting.multiInterestWeight },
    mmrLambda: setting.mmrLambda,
  }
}

export const settingKey = (s: RecsysSetting): string =>
  `h=${s.historyHalfLife} mi=${s.multiInterestWeight} lambda=${s.mmrLambda}`

/** A setting as the validation report writes it. */
export const settingLabel = (s: RecsysSetting): string =>
  `half-life ${s.historyHalfLife === Number.POSITIVE_INFINITY ? '∞' : s.historyHalfLife}, ` +
  `multi-interest ${s.multiInterestWeight}, lambda ${s.mmrLambda}`

/** A setting's mean validation scores over the folds. */
export interface ScoredSetting<S> {
  readonly setting: S
  readonly hr: number
  readonly ndcg: number
}

/**
 * The rule that picks a setting from validation scores: the highest mean HR@10 (the metric issue 14
 * judges), then the highest mean nDCG@10, then the earliest in grid order.
 */
export function chooseSetting<S>(scored: readonly ScoredSetting<S>[]): ScoredSetting<S> {
  let best = scored[0]
  if (best === undefined) throw new Error('no setting to choose from')
  for (const s of scored.slice(1))
    if (s.hr > best.hr || (s.hr === best.hr && s.ndcg > best.ndcg)) best = s
  return best
}
