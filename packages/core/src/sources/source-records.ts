import { createHash } from 'node:crypto'
import type { BrainStore, WriteBatch } from '../contracts/storage-adapter.js'
import { changelogEntry } from '../model-writes/changelog.js'
import type { JsonObject } from '../model/common.js'
import { EVENT_LABEL } from '../model/entity.js'
import { EMPTY_SOURCE_COUNTS, type Source, type SourceCounts } from '../model/source.js'

/** SHA-256 hex of what an ingestion asks for: its content and everything that shapes its records. */
export function contentHash(kind: string, content: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([kind, content]))
    .digest('hex')
}

/** The caller's `title` meta key when it is a non-blank string, else null. */
export function titleOf(meta: JsonObject): string | null {
  const title = meta.title
  return typeof title === 'string' && title.trim() !== '' ? title : null
}

/** Ids read per repository call. */
const CHUNK = 500

/**
 * What a source supports once `batch` is applied: its passages and structured record, and the
 * distinct entities, events, relationships and observations linked to them as evidence: the stored
 * links of `keptIds` (the passages it keeps from before) and the links `batch` adds. A new source
 * reads nothing.
 */
export async function sourceCounts(
  store: BrainStore,
  keptIds: readonly string[],
  passages: number,
  batch: WriteBatch,
): Promise<SourceCounts> {
  const records = {
    entity: new Set<string>(),
    relationship: new Set<string>(),
    observation: new Set<string>(),
  }
  for (let i = 0; i < keptIds.length; i += CHUNK)
    for (const link of await store.evidence.supportedBy(keptIds.slice(i, i + CHUNK)))
      records[link.kind].add(link.recordId)
  for (const link of batch.evidence ?? []) records[link.kind].add(link.recordId)
  const labels = new Map((batch.entities ?? []).map((e) => [e.uuid, e.labels]))
  const unknown = [...records.entity].filter((uuid) => !labels.has(uuid))
  for (let i = 0; i < unknown.length; i += CHUNK)
    for (const e of await store.entities.get(unknown.slice(i, i + CHUNK)))
      labels.set(e.uuid, e.labels)
  let events = 0
  for (const uuid of records.entity) if (labels.get(uuid)?.includes(EVENT_LABEL)) events++
  return {
    ...EMPTY_SOURCE_COUNTS,
    passages,
    structured: batch.structured?.length ?? 0,
    entities: records.entity.size - events,
    events,
    relationships: records.relationship.size,
    observations: records.observation.size,
  }
}

export interface SourceWrite {
  id: string
  taskId: string
  kind: string
  hash: string
  title: string | null
  filename: string | null
  meta: JsonObject
  now: string
  counts: SourceCounts
  /** When the source expires (`ingestionExpiry`), or null for never. */
  expiresAt: string | null
}

/** The source record after an ingestion: created, or updated from `previous` (a tombstone starts over). */
export function ingestedSource(previous: Source | null, write: SourceWrite): Source {
  const live = previous !== null && previous.status === 'active' ? previous : null
  return {
    id: write.id,
    status: 'active',
    title: write.title,
    filename: write.filename,
    meta: write.meta,
    contentHash: write.hash,
    kind: write.kind,
    createdAt: live?.createdAt ?? write.now,
    updatedAt: write.now,
    taskIds: [...(live?.taskIds ?? []).filter((id) => id !== write.taskId), write.taskId],
    counts: write.counts,
    forgottenAt: null,
    expiresAt: write.expiresAt,
  }
}

/** The tombstone a forget leaves: the id and when the forget was asked for, nothing of the content. */
export function sourceTombstone(id: string, forgetTaskId: string, forgottenAt: string): Source {
  return {
    id,
    status: 'forgotten',
    title: null,
    filename: null,
    meta: {},
    contentHash: null,
    kind: null,
    createdAt: forgottenAt,
    updatedAt: forgottenAt,
    taskIds: [forgetTaskId],
    counts: EMPTY_SOURCE_COUNTS,
    forgottenAt,
    expiresAt: null,
  }
}

/**
 * The changelog entry of an ingestion into a source: ids and counts, never content. Written last in
 * its batch; `entries` says how many changelog entries the batch wrote before it (consecutive `seq`s,
 * since a brain's writes commit one at a time), so a reader groups a write's entries exactly.
 */
export function sourceIngestedEntry(
  source: Source,
  taskId: string,
  change: { added: number; kept: number; removed: number },
  entries: number,
) {
  return changelogEntry(
    'source_ingested',
    { source_id: source.id, task_id: taskId, passages: change, counts: source.counts, entries },
    `${taskId}:source`,
  )
}
