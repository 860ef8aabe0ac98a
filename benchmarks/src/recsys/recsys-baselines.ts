import type { Rating } from '../loaders/movielens.js'

/** A recommender under test: the top `k` movie ids for a user, best first, never a movie they rated. */
export type Recommender = (userId: number, k: number) => number[] | Promise<number[]>

/** Movies each user rated in training. */
export function seenByUser(train: readonly Rating[]): Map<number, Set<number>> {
  const seen = new Map<number, Set<number>>()
  for (const r of train) {
    let set = seen.get(r.userId)
    if (set === undefined) seen.set(r.userId, (set = new Set()))
    set.add(r.movieId)
  }
  return seen
}

function topUnseen(scores: Map<number, number>, seen: ReadonlySet<number>, k: number): number[] {
  return [...scores]
    .filter(([movie]) => !seen.has(movie))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([movie]) => movie)
}

/** Most-popular baseline: movies by number of training ratings, the user's own excluded. */
export function popularity(train: readonly Rating[]): Recommender {
  const counts = new Map<number, number>()
  for (const r of train) counts.set(r.movieId, (counts.get(r.movieId) ?? 0) + 1)
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([m]) => m)
  const seen = seenByUser(train)
  return (userId, k) => {
    const mine = seen.get(userId) ?? new Set<number>()
    const out: number[] = []
    for (const m of ranked) {
      if (out.length >= k) break
      if (!mine.has(m)) out.push(m)
    }
    return out
  }
}

/**
 * Each user's rated movies (in training order) with a recency rank weight 0.5^(rank / halfLife), rank being the number of
 * the user's ratings strictly newer (ties share a rank, undated ones rank last): the same weighting as
 * the engine's `historyWeights`. A half-life of Infinity weighs every rating 1.
 */
export function historyByUser(
  train: readonly Rating[],
  halfLife: number,
): Map<number, [number, number][]> {
  const byUser = new Map<number, Rating[]>()
  for (const r of train) (byUser.get(r.userId) ?? byUser.set(r.userId, []).get(r.userId)!).push(r)
  const time = (r: Rating) => (Number.isFinite(r.timestamp) ? r.timestamp : -Infinity)
  const out = new Map<number, [number, number][]>()
  for (const [user, ratings] of byUser) {
    const newest = ratings.map(time).sort((a, b) => b - a)
    // Rank = ratings strictly newer = the first position of this time among the newest first.
    out.set(
      user,
      ratings.map((r) => [r.movieId, 0.5 ** (newest.indexOf(time(r)) / halfLife)]),
    )
  }
  return out
}

/**
 * Item-based top-N kNN (Deshpande & Karypis, "Item-based top-N recommendation algorithms", ACM TOIS
 * 2004): cosine similarity of items over binary user vectors, each item keeps its `neighbours` most
 * similar items, and a user's score for an item is the sum of its similarities to the items they rated.
 * Co-occurrence rows are computed one item at a time into a dense accumulator (sum over users of
 * |items(u)|^2 work, no quadratic memory). With a finite `historyHalfLife`, each rated item's
 * similarities count with its recency rank weight (`historyByUser`), the weighting Engram's
 * collaborative walk uses: a stronger baseline than the plain sum (default: plain).
 */
export function itemKnn(
  train: readonly Rating[],
  neighbours = 50,
  historyHalfLife = Number.POSITIVE_INFINITY,
): Recommender {
  const itemsOf = new Map<number, number[]>()
  const usersOf = new Map<number, number[]>()
  for (const r of train) {
    ;(itemsOf.get(r.userId) ?? itemsOf.set(r.userId, []).get(r.userId)!).push(r.movieId)
    ;(usersOf.get(r.movieId) ?? usersOf.set(r.movieId, []).get(r.movieId)!).push(r.userId)
  }
  const movies = [...usersOf.keys()].sort((a, b) => a - b)
  const index = new Map(movies.map((m, i) => [m, i]))
  const acc = new Float64Array(movies.length)
  const touched: number[] = []
  const similar = new Map<number, [number, number][]>()
  for (const m of movies) {
    const i = index.get(m)!
    for (const u of usersOf.get(m)!) {
      for (const other of itemsOf.get(u)!) {
        const j = index.get(other)!
        if (j === i) continue
        if (acc[j] === 0) touched.push(j)
        acc[j]! += 1
      }
    }
    const row: [number, number][] = []
    const ni = usersOf.get(m)!.length
    for (const j of touched) {
      const nj = usersOf.get(movies[j]!)!.length
      row.push([movies[j]!, acc[j]! / Math.sqrt(ni * nj)])
      acc[j] = 0
    }
    touched.length = 0
    row.sort((a, b) => b[1] - a[1] || a[0] - b[0])
    similar.set(m, row.slice(0, neighbours))
  }
  const seen = seenByUser(train)
  const history = historyByUser(train, historyHalfLife)
  return (userId, k) => {
    const mine = seen.get(userId) ?? new Set<number>()
    const scores = new Map<number, number>()
    for (const [m, w] of history.get(userId) ?? [])
      for (const [other, s] of similar.get(m) ?? [])
        scores.set(other, (scores.get(other) ?? 0) + w * s)
    return topUnseen(scores, mine, k)
  }
}
