import type { BrainStore, VectorRecord, WriteBatch } from '../../contracts/storage-adapter.js'
import type { Entity } from '../../model/entity.js'
import { checkEmbedder } from './check-embedder.js'
import type { IngestionComponents } from './ingestion-components.js'

/** Text the embedder sees for an entity: its name, and its description when it has one. */
export function entityEmbeddingText(entity: Pick<Entity, 'name' | 'description'>): string {
  return entity.description ? `${entity.name}: ${entity.description}` : entity.name
}

/**
 * What embedding one write has learnt so far, kept from a forecast of the batch (built and embedded
 * outside the brain's write lock) to the batch built under the lock, which then embeds only what
 * changed in between: usually nothing.
 */
export interface EmbedMemo {
  /** Vectors by text. */
  readonly vectors: Map<string, Float32Array>
  /** `uuid \0 text` of entities seen stored with that text and a vector. */
  readonly storedWithText: Set<string>
}

export function embedMemo(): EmbedMemo {
  return { vectors: new Map(), storedWithText: new Set() }
}

/** A memo of the vectors a batch carries, by the text they embed (a forecast's: `BeforeCommitHook`). */
export function embedMemoOf(batch: WriteBatch): EmbedMemo {
  const memo = embedMemo()
  const texts = new Map<string, string>()
  for (const p of batch.passages ?? []) texts.set(`passages\u0000${p.id}`, p.text)
  for (const e of batch.entities ?? []) texts.set(`entities\u0000${e.uuid}`, entityEmbeddingText(e))
  for (const v of batch.vectors ?? []) {
    const text = texts.get(`${v.space}\u0000${v.id}`)
    if (text !== undefined) memo.vectors.set(text, v.vector)
  }
  return memo
}

/** Ids read per store call. */
const READ_CHUNK = 500

/**
 * The batch's entities whose stored record has the same text and a stored vector, which is then that
 * text's vector (every write that changes an entity's text writes its vector in the same batch): most
 * entities a task touches already exist, unchanged but for provenance, and need no embedding.
 */
async function unchangedWithVector(
  store: BrainStore,
  entities: Entity[],
  memo: EmbedMemo,
): Promise<Set<string>> {
  const unchanged = new Set<string>()
  const text = new Map(entities.map((e) => [e.uuid, entityEmbeddingText(e)]))
  const key = (uuid: string) => `${uuid}\u0000${text.get(uuid)}`
  for (let i = 0; i < entities.length; i += READ_CHUNK) {
    const ids = entities.slice(i, i + READ_CHUNK).map((e) => e.uuid)
    const toCheck: string[] = []
    for (const stored of await store.entities.get(ids)) {
      if (entityEmbeddingText(stored) !== text.get(stored.uuid)) continue
      // Seen with this text and a vector before (the forecast), and still this text: still its vector.
      if (memo.storedWithText.has(key(stored.uuid))) unchanged.add(stored.uuid)
      else toCheck.push(stored.uuid)
    }
    if (toCheck.length === 0) continue
    for (const vector of await store.vectors.get('entities', toCheck)) {
      unchanged.add(vector.id)
      memo.storedWithText.add(key(vector.id))
    }
  }
  return unchanged
}

/**
 * Adds vectors for the batch's passages and entities that need one (spaces `passages` and `entities`):
 * those without one in the batch, except entities whose stored text and vector are current. Each text
 * is embedded once, in one embedder call, and not at all when `memo` already holds its vector. `also`
 * are texts to embed into `memo` in the same call (a forecast's candidates for the similarity step of
 * resolution): one call per forecast instead of two. Returns how many texts were embedded; 0 without
 * an embedder.
 */
export async function embedMissing(
  store: BrainStore,
  batch: WriteBatch,
  components: Pick<IngestionComponents, 'embed' | 'embedderInfo'>,
  signal: AbortSignal,
  memo: EmbedMemo = embedMemo(),
  also: readonly string[] = [],
): Promise<number> {
  if (components.embed === null || components.embedderInfo === null) return 0
  const have = new Set((batch.vectors ?? []).map((v) => `${v.space}\u0000${v.id}`))
  const wanted: { space: string; id: string; text: string }[] = []
  for (const p of batch.passages ?? [])
    if (!have.has(`passages\u0000${p.id}`))
      wanted.push({ space: 'passages', id: p.id, text: p.text })
  const entities = (batch.entities ?? []).filter((e) => !have.has(`entities\u0000${e.uuid}`))
  const unchanged = await unchangedWithVector(store, entities, memo)
  for (const e of entities)
    if (!unchanged.has(e.uuid))
      wanted.push({ space: 'entities', id: e.uuid, text: entityEmbeddingText(e) })
  if (wanted.length === 0 && also.length === 0) return 0
  const texts = [...new Set([...wanted.map((w) => w.text), ...also])].filter(
    (t) => !memo.vectors.has(t),
  )
  if (texts.length > 0) {
    await checkEmbedder(store, components.embedderInfo)
    const vectors = await components.embed(texts, signal)
    texts.forEach((text, i) => memo.vectors.set(text, vectors[i]!))
  }
  const records: VectorRecord[] = wanted.map((w) => ({
    space: w.space,
    id: w.id,
    vector: memo.vectors.get(w.text)!,
  }))
  batch.vectors = [...(batch.vectors ?? []), ...records]
  return texts.length
}
