import type { BrainStore, VectorRecord, WriteBatch } from '../../contracts/storage-adapter.js'
import type { Entity } from '../../model/entity.js'
import { checkEmbedder } from './check-embedder.js'
import type { IngestionComponents } from './ingestion-components.js'

/** Text the embedder sees for an entity: its name, and its description when it has one. */
export function entityEmbeddingText(entity: Pick<Entity, 'name' | 'description'>): string {
  return entity.description ? `${entity.name}: ${entity.description}` : entity.name
}

/**
 * Adds vectors for the batch's passages and entities that have none yet (spaces `passages` and
 * `entities`), in one embedder call. Returns how many were embedded; 0 without an embedder.
 */
export async function embedMissing(
  store: BrainStore,
  batch: WriteBatch,
  components: Pick<IngestionComponents, 'embed' | 'embedderInfo'>,
  signal: AbortSignal,
): Promise<number> {
  if (components.embed === null || components.embedderInfo === null) return 0
  const have = new Set((batch.vectors ?? []).map((v) => `${v.space}\u0000${v.id}`))
  const wanted: { space: string; id: string; text: string }[] = []
  for (const p of batch.passages ?? [])
    if (!have.has(`passages\u0000${p.id}`))
      wanted.push({ space: 'passages', id: p.id, text: p.text })
  for (const e of batch.entities ?? []) {
    if (!have.has(`entities\u0000${e.uuid}`))
      wanted.push({ space: 'entities', id: e.uuid, text: entityEmbeddingText(e) })
  }
  if (wanted.length === 0) return 0
  await checkEmbedder(store, components.embedderInfo)
  const vectors = await components.embed(
    wanted.map((w) => w.text),
    signal,
  )
  const records: VectorRecord[] = wanted.map((w, i) => ({
    space: w.space,
    id: w.id,
    vector: vectors[i]!,
  }))
  batch.vectors = [...(batch.vectors ?? []), ...records]
  return records.length
}
