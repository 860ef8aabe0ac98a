import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { leaveLastOut, type MovieLens } from '../loaders/movielens.js'
import { resultsDir } from '../paths.js'
import { movieLensGraph, movieUuid } from './movielens-graph.js'
import { historyByUser, itemKnn, popularity } from './recsys-baselines.js'
import {
  chooseDefaults,
  validationDataPath,
  type ValidationData,
} from './movielens-validation-report.js'
import {
  canBeDefault,
  chooseSetting,
  KNN_HISTORY_HALF_LIFE,
  settingGrid,
  settingKey,
} from './recsys-tuning.js'
import { engineDefaults } from './run-movielens-validation.js'
import { validationFolds } from './validation-folds.js'

const r = (userId: number, movieId: number, timestamp: number) => ({
  userId,
  movieId,
  rating: 4,
  timestamp,
})
/** Users 1-3 watch 10 then 20; user 4 watches 30 then 10; movie 40 is the most watched. */
const TRAIN = [
  r(1, 10, 1),
  r(1, 20, 2),
  r(2, 10, 1),
  r(2, 20, 2),
  r(3, 10, 1),
  r(3, 40, 2),
  r(5, 40, 1),
  r(6, 40, 1),
  r(7, 40, 1),
  r(4, 30, 1),
  r(4, 10, 2),
]

describe('recsys baselines', () => {
  it('popularity ranks by rating count and skips what the user rated', () => {
    expect(popularity(TRAIN)(4, 2)).toEqual([40, 20])
    expect(popularity(TRAIN)(1, 1)).toEqual([40])
  })

  it('item-kNN scores items co-rated with the user history (cosine)', () => {
    // 10 is rated by users 1-4; 20 by 1-2 (cos 2/sqrt(4*2)); 40 by 3,5,6,7 (cos 1/4); 30 by 4 (1/2).
    expect(itemKnn(TRAIN)(4, 3)).toEqual([20, 40])
    expect(itemKnn(TRAIN, 1)(4, 3)).toEqual([20])
  })

  it('recency-weighted item-kNN lets the latest rating lead', () => {
    // User 9 rated 10 then 30. Plain: 20 (cos 0.63 to 10) beats 40 (0.2 to 10 + 0.26 to 30).
    // Half-life 0.25: 10 weighs 0.5^4, so 30's neighbour 40 leads.
    const train = [...TRAIN, r(8, 30, 1), r(8, 40, 2), r(9, 10, 1), r(9, 30, 2)]
    expect(itemKnn(train)(9, 1)).toEqual([20])
    expect(itemKnn(train, 50, 0.25)(9, 1)).toEqual([40])
  })

  it('history weights: 0.5^(rank / half-life), ties share a rank', () => {
    const h = historyByUser([r(1, 10, 5), r(1, 20, 9), r(1, 30, 5), r(1, 40, 1)], 1)
    expect(h.get(1)).toEqual([
      [10, 0.5],
      [20, 1],
      [30, 0.5],
      [40, 0.125],
    ])
  })
})

describe('validation folds', () => {
  it('nest inside the training part: no fold trains on or predicts a test rating', () => {
    const ratings = [1, 2, 3, 4, 5].flatMap((u) =>
      [1, 2, 3, 4, 5, 6].map((m) => r(u, 10 * m + u, m)),
    )
    const outer = leaveLastOut(ratings)
    const folds = validationFolds(outer.train, 3)
    const key = (x: { userId: number; movieId: number }) => `${x.userId}:${x.movieId}`
    const test = new Set([...outer.test.values()].map(key))
    const held: string[] = []
    for (const [f, fold] of folds.entries()) {
      expect(fold.train).toHaveLength(30 - 5 * (f + 2))
      for (const x of fold.train) expect(test.has(key(x)) || held.includes(key(x))).toBe(false)
      for (const x of fold.test.values()) {
        expect(test.has(key(x))).toBe(false)
        expect(x.timestamp).toBe(5 - f) // each fold predicts the rating before the last one's
        held.push(key(x))
      }
    }
  })

  it('chooses the best HR@10, then nDCG@10, then grid order', () => {
    const s = (hr: number, ndcg: number, setting: string) => ({ setting, hr, ndcg })
    expect(chooseSetting([s(0.1, 0.05, 'a'), s(0.12, 0.04, 'b')]).setting).toBe('b')
    expect(chooseSetting([s(0.1, 0.05, 'a'), s(0.1, 0.06, 'b')]).setting).toBe('b')
    expect(chooseSetting([s(0.1, 0.05, 'a'), s(0.1, 0.05, 'b')]).setting).toBe('a')
    // A default keeps the default-on multi-interest channel in the fusion.
    expect(canBeDefault({ historyHalfLife: 2, multiInterestWeight: 0, mmrLambda: 0.7 })).toBe(false)
    expect(canBeDefault({ historyHalfLife: 2, multiInterestWeight: 0.1, mmrLambda: 0.7 })).toBe(
      true,
    )
  })

  it('the engine defaults are in the grid and are what the last validation run chose', () => {
    const defaults = engineDefaults()
    expect(settingGrid().map(settingKey)).toContain(settingKey(defaults))
    expect(canBeDefault(defaults)).toBe(true)
    const data = JSON.parse(readFileSync(validationDataPath(resultsDir), 'utf8')) as ValidationData
    const { chosen, knn } = chooseDefaults(data)
    expect(settingKey(defaults)).toBe(settingKey(chosen.setting))
    expect(KNN_HISTORY_HALF_LIFE).toBe(knn.setting)
  })
})

describe('movieLensGraph', () => {
  it('maps ratings to events, keeps tags out of held-out pairs, tolerates bad timestamps', () => {
    const data: MovieLens = {
      ratings: [r(1, 10, 100), r(1, 20, 200), r(2, 10, Number.NaN), r(2, 20, 50)],
      movies: [
        { movieId: 10, title: 'Ten', genres: ['Drama', 'Comedy'] },
        { movieId: 20, title: 'Twenty', genres: [] },
      ],
      tags: [
        { userId: 1, movieId: 20, tag: 'leak', timestamp: 300 },
        { userId: 1, movieId: 10, tag: 'Fine', timestamp: 300 },
        { userId: 2, movieId: 10, tag: 'fine ', timestamp: 300 },
      ],
    }
    const split = leaveLastOut(data.ratings)
    const held = [new Map([[1, r(1, 10, 100)]]), new Map([[2, r(2, 10, 100)]])]
    expect(movieLensGraph(data, split, held).counts.tags).toBe(0)
    const g = movieLensGraph(data, split)
    expect(g.counts).toEqual({ movies: 2, genres: 2, tags: 1, ratings: split.train.length })
    const catalog = g.catalogTasks.flat()
    expect(catalog.map((i) => `${i.subjEvent!.name}:${i.object.name}`)).toEqual([
      'HAS_GENRE:Drama',
      'HAS_GENRE:Comedy',
      'HAS_TAG:fine',
    ])
    const ratings = g.ratingTasks.flat()
    expect(ratings).toHaveLength(split.train.length)
    for (const item of ratings) {
      expect(item.event!.name).toBe('rated')
      expect(item.eventObj!.amount).toBe(4)
    }
    expect(ratings.some((i) => i.event!.happenedAt === undefined)).toBe(
      split.train.some((x) => !Number.isFinite(x.timestamp)),
    )
    expect(g.movieOfUuid.get(movieUuid(20))).toBe(20)
  })
})
