import type { WriteBatch } from '../contracts/storage-adapter.js'
import { isVectorSpace, type VectorSpace } from './brain-indexes.js'

/**
 * Meta key of a brain (`BrainStore.meta`) naming its valid index snapshots. A space listed here
 * has a snapshot that equals the brain's stored vectors of that space; a space not listed has none
 * and is rebuilt from storage. Writes remove a space before they are applied (see `VectorSnapshots`).
 */
export const SNAPSHOT_META = 'index.snapshots'

export interface SnapshotMeta {
  format: 1
  /** Snapshot id per vector space; its files are in `<snapshotDir>/<snapshotDirName(space, id)>`. */
  vectors: Partial<Record<VectorSpace, string>>
}

const EMPTY_SNAPSHOT_META: SnapshotMeta = { format: 1, vectors: {} }

/** Directory of one vector snapshot inside the brain's `snapshotDir`. */
export const snapshotDirName = (space: VectorSpace, id: string) => `vectors-${space}-${id}`

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
      if (isVectorSpace(space) && typeof id === 'string' && /^[A-Za-z0-9-]+$/.test(id))
        vectors[space] = id
    return { format: 1, vectors }
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
