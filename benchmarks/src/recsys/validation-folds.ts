import { leaveLastOut, type LeaveLastOutSplit, type Rating } from '../loaders/movielens.js'

/**
 * Nested leave-last-out validation folds, cut from the training part of the test split only, so no
 * setting chosen on them has seen a test rating. Fold 1 holds out each user's latest training rating
 * and trains on the rest; fold f holds out the latest rating of fold f-1's training part. Every fold
 * predicts a "next" rating from the history before it, as the test split does, and the folds together
 * give `folds` x users targets instead of one per user (rolling-origin evaluation: Tashman,
 * "Out-of-sample tests of forecasting accuracy", Int. J. Forecasting 2000).
 */
export function validationFolds(train: readonly Rating[], folds: number): LeaveLastOutSplit[] {
  const out: LeaveLastOutSplit[] = []
  let rest = train
  for (let f = 0; f < folds; f++) {
    const split = leaveLastOut(rest)
    out.push(split)
    rest = split.train
  }
  return out
}
