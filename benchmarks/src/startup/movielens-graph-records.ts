import type { Entity, Relationship } from '@engram/core'
import type { MovieLens } from '../loaders/movielens.js'

const NOW = '2025-06-01T00:00:00.000Z'

function entity(uuid: string, name: string, labels: string[], extra: Partial<Entity> = {}): Entity {
  return {
    uuid,
    name,
    description: null,
    labels,
    properties: {},
    metadata: null,
    happenedAt: null,
    lastUpdated: NOW,
    polarity: 'neutral',
    aliases: [],
    sourcePassageIds: [],
    createdAt: NOW,
    ...extra,
  }
}

function relationship(
  uuid: string,
  subjectUuid: string,
  name: string,
  objectUuid: string,
  extra: Partial<Relationship> = {},
): Relationship {
  return {
    uuid,
    subjectUuid,
    objectUuid,
    name,
    description: null,
    amount: null,
    deprecated: false,
    direction: 'neutral',
    flowKey: null,
    level: null,
    properties: {},
    happenedAt: null,
    lastUpdated: NOW,
    sourcePassageIds: [],
    createdAt: NOW,
    ...extra,
  }
}

/**
 * MovieLens as a graph of records, for the graph-snapshot benchmark: users, movies, genres and tags
 * as entities; each rating an event entity (`EVENT`, `RATING`, its time as `happenedAt` and `validAt`)
 * between `user -RATED-> rating -TARGETED-> movie` (the score as the edge's amount, both edges in one
 * flow); `movie -HAS_GENRE-> genre` and `movie -HAS_TAG-> tag` (tags lower-cased and trimmed, one edge
 * per movie and tag). On ml-latest-small: about 113,000 nodes and 227,000 edges.
 */
export function movieLensGraphRecords(data: MovieLens): {
  entities: Entity[]
  relationships: Relationship[]
} {
  const entities: Entity[] = []
  const relationships: Relationship[] = []
  const edge = (s: string, name: string, o: string, extra: Partial<Relationship> = {}) =>
    relationships.push(relationship(`r${relationships.length}`, s, name, o, extra))
  for (const user of new Set(data.ratings.map((r) => r.userId)))
    entities.push(entity(`user-${user}`, `user ${user}`, ['USER']))
  const genres = new Set<string>()
  for (const m of data.movies) {
    entities.push(entity(`movie-${m.movieId}`, m.title, ['MOVIE']))
    for (const g of m.genres) {
      genres.add(g)
      edge(`movie-${m.movieId}`, 'HAS_GENRE', `genre-${g}`)
    }
  }
  for (const g of genres) entities.push(entity(`genre-${g}`, g, ['GENRE']))
  const tags = new Set<string>()
  const tagged = new Set<string>()
  for (const t of data.tags) {
    const name = t.tag.trim().toLowerCase()
    const key = `${t.movieId}\u0000${name}`
    if (tagged.has(key)) continue
    tagged.add(key)
    tags.add(name)
    edge(`movie-${t.movieId}`, 'HAS_TAG', `tag-${name}`)
  }
  for (const t of tags) entities.push(entity(`tag-${t}`, t, ['TAG']))
  data.ratings.forEach((r, i) => {
    const at = Number.isFinite(r.timestamp) ? new Date(r.timestamp * 1000).toISOString() : null
    const event = `rating-${i}`
    entities.push(
      entity(event, 'rated', ['EVENT', 'RATING'], {
        happenedAt: at,
        validAt: at,
        properties: { type: 'rating' },
      }),
    )
    edge(`user-${r.userId}`, 'RATED', event, { flowKey: 'f', happenedAt: at })
    edge(event, 'TARGETED', `movie-${r.movieId}`, { flowKey: 'f', amount: r.rating })
  })
  return { entities, relationships }
}
