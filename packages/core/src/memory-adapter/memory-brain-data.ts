import type { BrainStats, VectorRecord, WriteBatch } from '../contracts/storage-adapter.js'
import type { ChangelogEntry } from '../model/changelog-entry.js'
import { changelogEntrySchema } from '../model/changelog-entry.js'
import { entitySchema, type Entity } from '../model/entity.js'
import { observationSchema, type Observation } from '../model/observation.js'
import { passageSchema, type Passage } from '../model/passage.js'
import { relationshipSchema, type Relationship } from '../model/relationship.js'
import { structuredRecordSchema, type StructuredRecord } from '../model/structured-record.js'
import { taskSchema, type Task } from '../model/task.js'
import { sourceSchema, type Source } from '../model/source.js'
import { normalizeEntityName } from '../model-writes/normalize-entity-name.js'
import { MemoryEvidence } from './memory-evidence.js'

/** One brain's records in the memory adapter. */
export interface BrainData {
  passages: Map<string, Passage>
  entities: Map<string, Entity>
  relationships: Map<string, Relationship>
  observations: Map<string, Observation>
  structured: Map<string, StructuredRecord>
  changelog: Map<string, ChangelogEntry>
  tasks: Map<string, Task>
  vectors: Map<string, VectorRecord>
  meta: Map<string, string>
  sources: Map<string, Source>
  evidence: MemoryEvidence
  /** Normalised name and aliases -> uuids of the entities carrying them (`entities.findByName`). */
  names: Map<string, Set<string>>
  /**
   * Entity uuid -> uuids of the relationships it is the subject or object of (`relationships.of`), as
   * a database indexes both ends: scanning every relationship cost about 0.5 ms per call at 30,000
   * relationships, and the console's 2-hop view makes 153 such calls.
   */
  ends: Map<string, Set<string>>
  seq: number
}

export function emptyBrain(): BrainData {
  return {
    passages: new Map(),
    entities: new Map(),
    relationships: new Map(),
    observations: new Map(),
    structured: new Map(),
    changelog: new Map(),
    tasks: new Map(),
    vectors: new Map(),
    meta: new Map(),
    sources: new Map(),
    evidence: new MemoryEvidence(),
    names: new Map(),
    ends: new Map(),
    seq: 0,
  }
}

const namesOf = (e: Entity) => new Set([e.name, ...e.aliases].map(normalizeEntityName))

function indexNames(data: BrainData, entity: Entity, add: boolean): void {
  for (const norm of namesOf(entity)) {
    let uuids = data.names.get(norm)
    if (add) {
      if (uuids === undefined) data.names.set(norm, (uuids = new Set()))
      uuids.add(entity.uuid)
    } else if (uuids !== undefined) {
      uuids.delete(entity.uuid)
      if (uuids.size === 0) data.names.delete(norm)
    }
  }
}

function indexEnds(data: BrainData, r: Relationship, add: boolean): void {
  for (const end of [r.subjectUuid, r.objectUuid]) {
    let uuids = data.ends.get(end)
    if (add) {
      if (uuids === undefined) data.ends.set(end, (uuids = new Set()))
      uuids.add(r.uuid)
    } else if (uuids !== undefined) {
      uuids.delete(r.uuid)
      if (uuids.size === 0) data.ends.delete(end)
    }
  }
}

/** Deep copy so callers never hold references into the store (as with a real database). */
export const clone = <T>(value: T): T => structuredClone(value)

export const vectorKey = (space: string, id: string) => `${space}\u0000${id}`

export function statsOf(data: BrainData): BrainStats {
  return {
    passages: data.passages.size,
    entities: data.entities.size,
    relationships: data.relationships.size,
    observations: data.observations.size,
    structured: data.structured.size,
    changelog: data.changelog.size,
    tasks: data.tasks.size,
    vectors: data.vectors.size,
    sources: [...data.sources.values()].filter((s) => s.status === 'active').length,
  }
}

/** Rejects records a database schema would reject (the reference adapter must not be laxer). */
function validate(batch: WriteBatch): void {
  for (const p of batch.passages ?? []) passageSchema.parse(p)
  for (const e of batch.entities ?? []) entitySchema.parse(e)
  for (const r of batch.relationships ?? []) relationshipSchema.parse(r)
  for (const o of batch.observations ?? []) observationSchema.parse(o)
  for (const s of batch.structured ?? []) structuredRecordSchema.parse(s)
  for (const c of batch.changelog ?? []) changelogEntrySchema.omit({ seq: true }).parse(c)
  for (const s of batch.sources ?? []) sourceSchema.parse(s)
  for (const l of batch.evidence ?? []) MemoryEvidence.validate(l)
  for (const r of batch.redactChangelog ?? []) changelogEntrySchema.shape.change.parse(r.change)
  if (batch.task !== undefined) taskSchema.parse(batch.task)
}

/**
 * Applies a batch in place, all or nothing: every record is validated and copied before the first
 * change, and what follows are map writes that cannot throw. (Copying the brain's maps per batch made
 * each write cost the brain's size.)
 */
export function applyBatch(data: BrainData, batch: WriteBatch): void {
  validate(batch)
  const copy = {
    passages: (batch.passages ?? []).map(clone),
    entities: (batch.entities ?? []).map(clone),
    relationships: (batch.relationships ?? []).map(clone),
    observations: (batch.observations ?? []).map(clone),
    structured: (batch.structured ?? []).map(clone),
    changelog: (batch.changelog ?? []).map(clone),
    vectors: (batch.vectors ?? []).map((v) => ({
      space: v.space,
      id: v.id,
      vector: Float32Array.from(v.vector),
    })),
    sources: (batch.sources ?? []).map(clone),
    redactions: (batch.redactChangelog ?? []).map(clone),
    task: batch.task === undefined ? undefined : clone(batch.task),
  }
  for (const p of copy.passages) data.passages.set(p.id, p)
  for (const e of copy.entities) {
    const before = data.entities.get(e.uuid)
    if (before !== undefined) indexNames(data, before, false)
    data.entities.set(e.uuid, e)
    indexNames(data, e, true)
  }
  for (const r of copy.relationships) {
    const before = data.relationships.get(r.uuid)
    if (before !== undefined) indexEnds(data, before, false)
    data.relationships.set(r.uuid, r)
    indexEnds(data, r, true)
  }
  for (const o of copy.observations) data.observations.set(o.id, o)
  for (const s of copy.structured) data.structured.set(s.id, s)
  for (const c of copy.changelog) {
    if (data.changelog.has(c.id)) continue
    data.seq += 1
    data.changelog.set(c.id, { ...c, seq: data.seq })
  }
  for (const v of copy.vectors) data.vectors.set(vectorKey(v.space, v.id), v)
  for (const s of copy.sources) data.sources.set(s.id, s)
  for (const l of batch.evidence ?? []) data.evidence.add(l)
  applyDeletes(data, batch)
  for (const r of copy.redactions) {
    const entry = data.changelog.get(r.id)
    if (entry !== undefined) data.changelog.set(r.id, { ...entry, change: r.change })
  }
  for (const id of batch.erasePayloads ?? []) {
    const task = data.tasks.get(id)
    if (task !== undefined) data.tasks.set(id, { ...task, payload: { forgotten: true } })
  }
  if (copy.task !== undefined) data.tasks.set(copy.task.id, copy.task)
}

/** A batch's deletes, each taking the evidence links that name the deleted id with it. */
function applyDeletes(data: BrainData, batch: WriteBatch): void {
  for (const uuid of batch.deleteEntities ?? []) {
    const before = data.entities.get(uuid)
    if (before !== undefined) indexNames(data, before, false)
    data.entities.delete(uuid)
    data.evidence.deleteRecord('entity', uuid)
  }
  for (const uuid of batch.deleteRelationships ?? []) {
    const before = data.relationships.get(uuid)
    if (before !== undefined) indexEnds(data, before, false)
    data.relationships.delete(uuid)
    data.evidence.deleteRecord('relationship', uuid)
  }
  for (const v of batch.deleteVectors ?? []) data.vectors.delete(vectorKey(v.space, v.id))
  for (const id of batch.deletePassages ?? []) {
    data.passages.delete(id)
    data.evidence.deleteEvidence(id)
  }
  for (const id of batch.deleteObservations ?? []) {
    data.observations.delete(id)
    data.evidence.deleteRecord('observation', id)
  }
  for (const id of batch.deleteStructured ?? []) {
    data.structured.delete(id)
    data.evidence.deleteEvidence(id)
  }
  for (const id of batch.deleteSources ?? []) data.sources.delete(id)
}
