import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseCsv } from './parse-csv.js'

export interface Rating {
  readonly userId: number
  readonly movieId: number
  readonly rating: number
  readonly timestamp: number
}
export interface Movie {
  readonly movieId: number
  readonly title: string
  readonly genres: readonly string[]
}
export interface Tag {
  readonly userId: number
  readonly movieId: number
  readonly tag: string
  readonly timestamp: number
}
export interface MovieLens {
  readonly ratings: readonly Rating[]
  readonly movies: readonly Movie[]
  readonly tags: readonly Tag[]
}
export interface LeaveLastOutSplit {
  readonly train: readonly Rating[]
  /** One held-out rating per user: the latest by timestamp, ties broken by the larger movieId. */
  readonly test: ReadonlyMap<number, Rating>
}

/** MovieLens ml-latest-small loader (Harper & Konstan, ACM TiiS 2015): ratings, movies, tags CSVs. */
export function loadMovieLens(dir: string): MovieLens {
  const read = (f: string) => parseCsv(readFileSync(join(dir, f), 'utf8'))
  const ratings = read('ratings.csv').map(([u, m, r, t]) => ({
    userId: Number(u),
    movieId: Number(m),
    rating: Number(r),
    timestamp: Number(t),
  }))
  const movies = read('movies.csv').map(([m, title, genres]) => ({
    movieId: Number(m),
    title: title ?? '',
    genres: genres && genres !== '(no genres listed)' ? genres.split('|') : [],
  }))
  const tags = read('tags.csv').map(([u, m, tag, t]) => ({
    userId: Number(u),
    movieId: Number(m),
    tag: tag ?? '',
    timestamp: Number(t),
  }))
  return { ratings, movies, tags }
}

/**
 * Leave-last-out split (the temporal variant of He et al., NCF, WWW 2017): each user's latest rating is the test
 * item. Ties on timestamp are broken by movieId so the split is deterministic; users with a single rating stay in train.
 */
export function leaveLastOut(ratings: readonly Rating[]): LeaveLastOutSplit {
  const byUser = new Map<number, Rating[]>()
  for (const r of ratings) {
    const list = byUser.get(r.userId)
    if (list) list.push(r)
    else byUser.set(r.userId, [r])
  }
  const train: Rating[] = []
  const test = new Map<number, Rating>()
  for (const [user, list] of [...byUser].sort((a, b) => a[0] - b[0])) {
    list.sort((a, b) => a.timestamp - b.timestamp || a.movieId - b.movieId)
    if (list.length > 1) test.set(user, list.pop()!)
    train.push(...list)
  }
  return { train, test }
}
