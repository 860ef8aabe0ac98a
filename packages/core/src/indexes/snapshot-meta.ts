import type { WriteBatch } from '../contracts/storage-adapter.js'
import { isVectorSpace, type VectorSpace } from './brain-indexes.js'

/**
 * Meta key of a brain (`BrainStore.meta`) naming its valid index snapshots. A part listed here has
 * a snapshot that equals the brain's stored records it indexes; a part not listed has none and is
 * rebuilt from storage. Writes remove a part before they are applied (see `IndexSnapshots`).
 */
export const SNAPSHOT_META = 'index.snapshots'

/** What is snapshotted on its own: a vector space's HNSW index, the lexical indexes, or the graph. */
export type SnapshotPart = VectorSpace | 'lexical' | 'graph'

export interface SnapshotMeta {
  format: 1
  /** Snapshot id per vector space; its files are in `<snapshotDir>/<snapshotDirName(space, id)>`. */
  vectors: Partial<Record<VectorSpace, string>>
  /** Snapshot id of the lexical indexes (BM25, passage sequence, entity attributes), if valid. */
  lexical?: string
  /** Snapshot id of the graph index (`graph/graph-snapshot.ts`), if valid. */
  graph?: string
}

const EMPTY_SNAPSHOT_META: SnapshotMeta = { format: 1, vectors: {} }

/** Directory of one part's snapshot inside the brain's `snapshotDir`. */
export const snapshotDirName = (part: SnapshotPart, id: string) =>
  part === 'lexical' || part === 'graph' ? `${part}-${id}` : `vectors-${part}-${id}`

/** The id of the part's valid snapshot, if the meta names one. */
export const snapshotIdOf = (meta: SnapshotMeta, part: SnapshotPart): string | undefined =>
  part === 'lexical' || part === 'graph' ? meta[part] : meta.vectors[part]

/** The meta with the part's snapshot set to `id` (undefined: no valid snapshot). */
export function withSnapshotId(
  meta: SnapshotMeta,
  part: SnapshotPart,
  id: string | undefined,
): SnapshotMeta {
  if (part === 'lexical' || part === 'graph') {
    const { [part]: _, ...rest } = meta
    return id === undefined ? rest : { ...rest, [part]: id }
  }
  const { [part]: _, ...vectors } = meta.vectors
  return { ...meta, vectors: id === undefined ? vectors : { ...vectors, [part]: id } }
}

const SNAPSHOT_ID = /^[A-Za-z0-9-]+$/

/**
 * The stored meta value, or no snapshots for anything unreadable: a damaged value costs a rebuild,
 * never a wrong index.
 */
export function parseSnapshotMeta(raw: string | null): SnapshotMeta {
  if (raw === null) return EMPTY_SNAPSHOT_META
  try {
    const value = JSON.parse(raw) as Partial<SnapshotMeta>
    if (value.format !== 1 || typeof value.vectors !== 'object' || value.vectors === null)
      return EMPTY_SNAPSHOT_META
    const vectors: SnapshotMeta['vectors'] = {}
    for (const [space, id] of Object.entries(value.vectors))
      if (isVectorSpace(space) && typeof id === 'string' && SNAPSHOT_ID.test(id))
        vectors[space] = id
    const meta: SnapshotMeta = { format: 1, vectors }
    for (const part of ['lexical', 'graph'] as const) {
      const id = value[part]
      if (typeof id === 'string' && SNAPSHOT_ID.test(id)) meta[part] = id
    }
    return meta
  } catch {
    return EMPTY_SNAPSHOT_META
  }
}

/**
 * The vector spaces whose index a write changes. Entity writes count for the `entities` space even
 * without a vector in the batch: a deleted entity leaves that index, and an updated entity is
 * re-embedded under the same id by a commit hook that may run after the one asking.
 */
export function touchedVectorSpaces(batch: WriteBatch): Set<VectorSpace> {
  const spaces = new Set<VectorSpace>()
  for (const v of batch.vectors ?? []) if (isVectorSpace(v.space)) spaces.add(v.space)
  for (const v of batch.deleteVectors ?? []) if (isVectorSpace(v.space)) spaces.add(v.space)
  if ((batch.deletePassages?.length ?? 0) > 0) spaces.add('passages')
  if ((batch.entities?.length ?? 0) > 0 || (batch.deleteEntities?.length ?? 0) > 0)
    spaces.add('entities')
  return spaces
}

/** The write removes indexed records (a forget, a deleted entity): snapshots holding them go at once. */
export const deletesIndexedRecords = (batch: WriteBatch): boolean =>
  (batch.deletePassages?.length ?? 0) > 0 ||
  (batch.deleteEntities?.length ?? 0) > 0 ||
  (batch.deleteRelationships?.length ?? 0) > 0 ||
  (batch.deleteObservations?.length ?? 0) > 0

/** The write changes the graph index: it puts or deletes entities, relationships or observations. */
const touchesGraph = (batch: WriteBatch): boolean =>
  (batch.entities?.length ?? 0) > 0 ||
  (batch.relationships?.length ?? 0) > 0 ||
  (batch.observations?.length ?? 0) > 0 ||
  (batch.deleteEntities?.length ?? 0) > 0 ||
  (batch.deleteRelationships?.length ?? 0) > 0 ||
  (batch.deleteObservations?.length ?? 0) > 0

/**
 * The snapshot parts a write changes: its vector spaces (`touchedVectorSpaces`), `lexical` when it
 * puts or deletes passages, entities or observations (what `LexicalIndexes` holds), and `graph` when
 * it puts or deletes entities, relationships or observations (what `GraphIndex` holds).
 */
export function touchedSnapshotParts(batch: WriteBatch): Set<SnapshotPart> {
  const parts = new Set<SnapshotPart>(touchedVectorSpaces(batch))
  if (
    (batch.passages?.length ?? 0) > 0 ||
    (batch.entities?.length ?? 0) > 0 ||
    (batch.observations?.length ?? 0) > 0 ||
    (batch.deletePassages?.length ?? 0) > 0 ||
    (batch.deleteEntities?.length ?? 0) > 0 ||
    (batch.deleteObservations?.length ?? 0) > 0
  )
    parts.add('lexical')
  if (touchesGraph(batch)) parts.add('graph')
  return parts
}
