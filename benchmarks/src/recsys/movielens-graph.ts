import { stableId, type StructuredItem } from '@engram/core'
import type { LeaveLastOutSplit, MovieLens, Rating } from '../loaders/movielens.js'

/** Ratings per structured-ingestion task (the resolver's work grows with the square of a task's size). */
const ITEMS_PER_TASK = 500

export const userUuid = (userId: number): string => stableId('movielens', 'user', String(userId))
export const movieUuid = (movieId: number): string =>
  stableId('movielens', 'movie', String(movieId))

/** The MovieLens graph as structured-ingestion tasks, and the way back from uuids to movie ids. */
export interface MovieLensGraph {
  /** Catalogue: movie -HAS_GENRE-> genre, movie -HAS_TAG-> tag (direct edges). */
  readonly catalogTasks: readonly StructuredItem[][]
  /** Training ratings: user -RATED-> rating event -TARGETED-> movie, one event per rating. */
  readonly ratingTasks: readonly StructuredItem[][]
  readonly movieOfUuid: ReadonlyMap<string, number>
  readonly counts: { movies: number; genres: number; tags: number; ratings: number }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/**
 * Maps MovieLens onto the event graph (issue 5): users, movies, genres and tags are entities with
 * stable uuids (so resolution is by uuid, never by title), every training rating is an event `user -RATED-> rating
 * -TARGETED-> movie` dated by its timestamp with the stars as the leg's amount, and genres and tags
 * are attribute nodes linked to movies. A tag a user put on their own held-out movie is left out, so
 * no held-out interaction leaks into the graph: the split's, and those of every map in `heldOut` (a
 * validation fold passes the test split's, whose ratings it does not train on either).
 */
export function movieLensGraph(
  data: MovieLens,
  split: LeaveLastOutSplit,
  heldOut: readonly ReadonlyMap<number, Rating>[] = [],
): MovieLensGraph {
  const held = [split.test, ...heldOut]
  const movie = (movieId: number, title: string) => ({
    name: title,
    type: 'movie',
    uuid: movieUuid(movieId),
  })
  const titles = new Map(data.movies.map((m) => [m.movieId, m.title || `movie ${m.movieId}`]))
  const title = (movieId: number) => titles.get(movieId) ?? `movie ${movieId}`

  const catalog: StructuredItem[] = []
  const genres = new Set<string>()
  for (const m of data.movies) {
    for (const genre of m.genres) {
      genres.add(genre)
      catalog.push({
        subject: movie(m.movieId, title(m.movieId)),
        subjEvent: { name: 'HAS_GENRE' },
        object: { name: genre, type: 'genre', uuid: stableId('movielens', 'genre', genre) },
      })
    }
  }
  const tags = new Set<string>()
  const tagged = new Set<string>()
  for (const t of data.tags) {
    const name = t.tag.trim().toLowerCase()
    if (name.length === 0 || held.some((h) => h.get(t.userId)?.movieId === t.movieId)) continue
    if (tagged.has(`${t.movieId}\u0000${name}`)) continue
    tagged.add(`${t.movieId}\u0000${name}`)
    tags.add(name)
    catalog.push({
      subject: movie(t.movieId, title(t.movieId)),
      subjEvent: { name: 'HAS_TAG' },
      object: { name, type: 'tag', uuid: stableId('movielens', 'tag', name) },
    })
  }

  const byUser = new Map<number, StructuredItem[]>()
  for (const r of split.train) {
    const list = byUser.get(r.userId) ?? []
    if (list.length === 0) byUser.set(r.userId, list)
    list.push({
      subject: { name: `user ${r.userId}`, type: 'user', uuid: userUuid(r.userId) },
      subjEvent: { name: 'RATED' },
      event: {
        name: 'rated',
        type: 'rating',
        // One row of the release has a corrupt timestamp (`847434962 https://...`): left undated.
        ...(Number.isFinite(r.timestamp)
          ? { happenedAt: new Date(r.timestamp * 1000).toISOString() }
          : {}),
      },
      eventObj: { name: 'TARGETED', amount: r.rating },
      object: movie(r.movieId, title(r.movieId)),
    })
  }
  const ratingTasks = [...byUser.values()].flatMap((items) => chunks(items, ITEMS_PER_TASK))

  return {
    catalogTasks: chunks(catalog, ITEMS_PER_TASK),
    ratingTasks,
    movieOfUuid: new Map(data.movies.map((m) => [movieUuid(m.movieId), m.movieId])),
    counts: {
      movies: data.movies.length,
      genres: genres.size,
      tags: tags.size,
      ratings: split.train.length,
    },
  }
}
