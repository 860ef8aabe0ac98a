import type { WriteSummary } from '../contracts/coordination.js'
import type { BrainStore, VectorRecord, WriteBatch } from '../contracts/storage-adapter.js'

/** Entries whose records are read together. */
const CHUNK = 500

/** Unique ids of `pick` over `summaries`. */
function idsOf(
  summaries: readonly WriteSummary[],
  pick: (s: WriteSummary) => string[] | undefined,
) {
  const ids = new Set<string>()
  for (const summary of summaries) for (const id of pick(summary) ?? []) ids.add(id)
  return [...ids]
}

/** Records by id, read in pages of `CHUNK` ids. */
async function byId<T>(ids: string[], read: (ids: string[]) => Promise<T[]>, id: (r: T) => string) {
  const found = new Map<string, T>()
  for (let i = 0; i < ids.length; i += CHUNK)
    for (const record of await read(ids.slice(i, i + CHUNK))) found.set(id(record), record)
  return found
}

const kept = <T>(ids: string[] | undefined, found: Map<string, T>): T[] | undefined =>
  ids?.flatMap((id) => {
    const record = found.get(id)
    return record === undefined ? [] : [record]
  })

/**
 * The batches of the write-feed entries a load applies on top of snapshots (`LoadedSnapshots.tail`),
 * in feed order: each what `batchFromSummary` reads back for its entry, "the records as they are
 * now", except that the records of `CHUNK` entries are read together, a few queries per chunk
 * instead of a few per entry (measured on PostgreSQL: ~5 ms per entry one by one). Reading later is
 * what the write follower does as well: every entry was committed before the load read the tail, so
 * a record put by one entry and changed or removed by a later one comes back in its last form or not
 * at all, and applying the entries in order still ends where storage is.
 */
export async function* feedTailBatches(
  store: BrainStore,
  tail: readonly WriteSummary[],
): AsyncGenerator<WriteBatch> {
  for (let at = 0; at < tail.length; at += CHUNK) {
    const chunk = tail.slice(at, at + CHUNK)
    const passages = await byId(
      idsOf(chunk, (s) => s.passages),
      (ids) => store.passages.get(ids),
      (p) => p.id,
    )
    const entities = await byId(
      idsOf(chunk, (s) => s.entities),
      (ids) => store.entities.get(ids),
      (e) => e.uuid,
    )
    const relationships = await byId(
      idsOf(chunk, (s) => s.relationships),
      (ids) => store.relationships.get(ids),
      (r) => r.uuid,
    )
    const observations = new Map(
      (
        await Promise.all(
          idsOf(chunk, (s) => s.observations).map((id) => store.observations.get(id)),
        )
      ).flatMap((o) => (o === null ? [] : [[o.id, o] as const])),
    )
    const spaces = new Set(chunk.flatMap((s) => (s.vectors ?? []).map(([space]) => space)))
    const vectors = new Map<string, Map<string, VectorRecord>>()
    for (const space of spaces)
      vectors.set(
        space,
        await byId(
          idsOf(chunk, (s) => s.vectors?.filter(([sp]) => sp === space).map(([, id]) => id)),
          (ids) => store.vectors.get(space, ids),
          (v) => v.id,
        ),
      )
    for (const summary of chunk) {
      const batch: WriteBatch = {}
      if (summary.passages) batch.passages = kept(summary.passages, passages)!
      if (summary.entities) batch.entities = kept(summary.entities, entities)!
      if (summary.relationships) batch.relationships = kept(summary.relationships, relationships)!
      if (summary.observations) batch.observations = kept(summary.observations, observations)!
      if (summary.vectors)
        batch.vectors = summary.vectors.flatMap(([space, id]) => {
          const record = vectors.get(space)?.get(id)
          return record === undefined ? [] : [record]
        })
      if (summary.deleteEntities) batch.deleteEntities = summary.deleteEntities
      if (summary.deleteRelationships) batch.deleteRelationships = summary.deleteRelationships
      if (summary.deleteVectors)
        batch.deleteVectors = summary.deleteVectors.map(([space, id]) => ({ space, id }))
      if (summary.deletePassages) batch.deletePassages = summary.deletePassages
      if (summary.deleteObservations) batch.deleteObservations = summary.deleteObservations
      yield batch
    }
  }
}
