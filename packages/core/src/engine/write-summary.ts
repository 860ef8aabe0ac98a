import type { WriteSummary } from '../contracts/coordination.js'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import type { Observation } from '../model/observation.js'

const ids = <T>(records: readonly T[] | undefined, id: (record: T) => string) =>
  records === undefined || records.length === 0 ? undefined : [...new Set(records.map(id))]

const pairs = (records: readonly { space: string; id: string }[] | undefined) =>
  records === undefined || records.length === 0
    ? undefined
    : [...new Map(records.map((r) => [`${r.space}\u0000${r.id}`, [r.space, r.id]] as const))].map(
        ([, pair]) => [pair[0], pair[1]] as [string, string],
      )

/**
 * What a batch changes in the indexes, by id (the write feed's entry), or null when it changes none
 * (a batch of task state, structured records, sources, evidence links or redactions only: the
 * indexes hold none of them). Adapters with a `coordination` store it with
 * the batch, in its transaction.
 */
export function summarizeBatch(batch: WriteBatch): WriteSummary | null {
  const summary: WriteSummary = {}
  const put = <K extends keyof WriteSummary>(key: K, value: WriteSummary[K] | undefined) => {
    if (value !== undefined) summary[key] = value
  }
  put(
    'passages',
    ids(batch.passages, (p) => p.id),
  )
  put(
    'entities',
    ids(batch.entities, (e) => e.uuid),
  )
  put(
    'relationships',
    ids(batch.relationships, (r) => r.uuid),
  )
  put(
    'observations',
    ids(batch.observations, (o) => o.id),
  )
  put('vectors', pairs(batch.vectors))
  put(
    'deleteEntities',
    ids(batch.deleteEntities, (id) => id),
  )
  put(
    'deleteRelationships',
    ids(batch.deleteRelationships, (id) => id),
  )
  put('deleteVectors', pairs(batch.deleteVectors))
  put(
    'deletePassages',
    ids(batch.deletePassages, (id) => id),
  )
  put(
    'deleteObservations',
    ids(batch.deleteObservations, (id) => id),
  )
  return Object.keys(summary).length === 0 ? null : summary
}

/**
 * The batch a summary stands for, read back from storage as the records are now. A record written
 * by this entry and changed or removed by a later one comes back in its later form or not at all;
 * the follower applies that later entry too, so its indexes end where storage is.
 */
export async function batchFromSummary(
  store: BrainStore,
  summary: WriteSummary,
): Promise<WriteBatch> {
  const batch: WriteBatch = {}
  if (summary.passages) batch.passages = await store.passages.get(summary.passages)
  if (summary.entities) batch.entities = await store.entities.get(summary.entities)
  if (summary.relationships)
    batch.relationships = await store.relationships.get(summary.relationships)
  if (summary.observations) {
    const found = await Promise.all(summary.observations.map((id) => store.observations.get(id)))
    batch.observations = found.filter((o): o is Observation => o !== null)
  }
  if (summary.vectors) {
    const bySpace = new Map<string, string[]>()
    for (const [space, id] of summary.vectors) {
      const list = bySpace.get(space)
      if (list === undefined) bySpace.set(space, [id])
      else list.push(id)
    }
    batch.vectors = (
      await Promise.all([...bySpace].map(([space, list]) => store.vectors.get(space, list)))
    ).flat()
  }
  if (summary.deleteEntities) batch.deleteEntities = summary.deleteEntities
  if (summary.deleteRelationships) batch.deleteRelationships = summary.deleteRelationships
  if (summary.deleteVectors)
    batch.deleteVectors = summary.deleteVectors.map(([space, id]) => ({ space, id }))
  if (summary.deletePassages) batch.deletePassages = summary.deletePassages
  if (summary.deleteObservations) batch.deleteObservations = summary.deleteObservations
  return batch
}
