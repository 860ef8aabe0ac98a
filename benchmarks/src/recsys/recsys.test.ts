import { describe, expect, it } from 'vitest'
import { leaveLastOut, type MovieLens } from '../loaders/movielens.js'
import { movieLensGraph, movieUuid } from './movielens-graph.js'
import { itemKnn, popularity } from './recsys-baselines.js'

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
