import type {
  BrainCatalog,
  BrainStats,
  BrainStore,
  Paged,
  StorageAdapter,
  Triple,
  VectorRecord,
  WriteBatch,
} from '../contracts/storage-adapter.js'
import type { BrainRecord } from '../model/brain-record.js'
import type { ChangelogEntry } from '../model/changelog-entry.js'
import type { Entity } from '../model/entity.js'
import type { Observation } from '../model/observation.js'
import type { Passage } from '../model/passage.js'
import type { Relationship } from '../model/relationship.js'
import type { StructuredRecord } from '../model/structured-record.js'
import { isTerminal, taskSchema, type Task } from '../model/task.js'
import { entitySchema } from '../model/entity.js'
import { passageSchema } from '../model/passage.js'
import { relationshipSchema } from '../model/relationship.js'
import { observationSchema } from '../model/observation.js'
import { structuredRecordSchema } from '../model/structured-record.js'
import { changelogEntrySchema } from '../model/changelog-entry.js'
import { normalizeEntityName } from '../graph-writes/normalize-entity-name.js'

interface BrainData {
  passages: Map<string, Passage>
  entities: Map<string, Entity>
  relationships: Map<string, Relationship>
  observations: Map<string, Observation>
  structured: Map<string, StructuredRecord>
  changelog: Map<string, ChangelogEntry>
  tasks: Map<string, Task>
  vectors: Map<string, VectorRecord>
  meta: Map<string, string>
  snapshots: Map<string, Uint8Array>
  /** Normalised name and aliases -> uuids of the entities carrying them (`findEntitiesByName`). */
  names: Map<string, Set<string>>
  seq: number
}

function emptyBrain(): BrainData {
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
    snapshots: new Map(),
    names: new Map(),
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

/** Deep copy so callers never hold references into the store (as with a real database). */
const clone = <T>(value: T): T => structuredClone(value)

/** A record's JSON for a text query; one too deep to serialise (library-written) matches nothing. */
function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value)
  } catch {
    return ''
  }
}

const contains = (haystack: string | null | undefined, needle: string | undefined) =>
  needle === undefined ||
  needle === '' ||
  (haystack ?? '').toLowerCase().includes(needle.toLowerCase())

function page<T>(items: T[], limit: number, skip: number): Paged<T> {
  return { items: items.slice(skip, skip + limit).map(clone), total: items.length }
}

/** Newest first by a timestamp field, ties by id descending (deterministic). */
function newestFirst<T>(items: T[], at: (x: T) => string, id: (x: T) => string): T[] {
  return [...items].sort((a, b) =>
    at(a) < at(b) ? 1 : at(a) > at(b) ? -1 : id(a) < id(b) ? 1 : -1,
  )
}

function scan<T>(map: Map<string, T>, after: string | null, limit: number): T[] {
  const keys = [...map.keys()].sort()
  const start = after === null ? 0 : keys.findIndex((k) => k > after)
  if (start < 0) return []
  return keys.slice(start, start + limit).map((k) => clone(map.get(k)!))
}

const vectorKey = (space: string, id: string) => `${space}\u0000${id}`

function statsOf(data: BrainData): BrainStats {
  return {
    passages: data.passages.size,
    entities: data.entities.size,
    relationships: data.relationships.size,
    observations: data.observations.size,
    structured: data.structured.size,
    changelog: data.changelog.size,
    tasks: data.tasks.size,
    vectors: data.vectors.size,
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
  if (batch.task !== undefined) taskSchema.parse(batch.task)
}

/**
 * Applies a batch in place, all or nothing: every record is validated and copied before the first
 * change, and what follows are map writes that cannot throw. (Copying the brain's maps per batch made
 * each write cost the brain's size.)
 */
function applyBatch(data: BrainData, batch: WriteBatch): void {
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
    task: batch.task === undefined ? undefined : clone(batch.task),
  }
  for (const p of copy.passages) data.passages.set(p.id, p)
  for (const e of copy.entities) {
    const before = data.entities.get(e.uuid)
    if (before !== undefined) indexNames(data, before, false)
    data.entities.set(e.uuid, e)
    indexNames(data, e, true)
  }
  for (const r of copy.relationships) data.relationships.set(r.uuid, r)
  for (const o of copy.observations) data.observations.set(o.id, o)
  for (const s of copy.structured) data.structured.set(s.id, s)
  for (const c of copy.changelog) {
    if (data.changelog.has(c.id)) continue
    data.seq += 1
    data.changelog.set(c.id, { ...c, seq: data.seq })
  }
  for (const v of copy.vectors) data.vectors.set(vectorKey(v.space, v.id), v)
  for (const uuid of batch.deleteEntities ?? []) {
    const before = data.entities.get(uuid)
    if (before !== undefined) indexNames(data, before, false)
    data.entities.delete(uuid)
  }
  for (const uuid of batch.deleteRelationships ?? []) data.relationships.delete(uuid)
  for (const v of batch.deleteVectors ?? []) data.vectors.delete(vectorKey(v.space, v.id))
  if (copy.task !== undefined) data.tasks.set(copy.task.id, copy.task)
}

function createStore(brainId: string, get: () => BrainData): BrainStore {
  const triple = (data: BrainData, r: Relationship): Triple | null => {
    const subject = data.entities.get(r.subjectUuid)
    const object = data.entities.get(r.objectUuid)
    return subject && object ? { subject, predicate: r, object } : null
  }
  return {
    brainId,
    async apply(batch) {
      applyBatch(get(), batch)
    },
    async getPassages(ids) {
      const data = get()
      return ids.flatMap((id) => (data.passages.has(id) ? [clone(data.passages.get(id)!)] : []))
    },
    async listPassages(q) {
      const items = [...get().passages.values()].filter(
        (p) => q.source === undefined || p.source === q.source,
      )
      return page(
        newestFirst(
          items,
          (p) => p.insertedAt,
          (p) => p.id,
        ),
        q.limit,
        q.skip,
      )
    },
    async scanPassages(after, limit) {
      return scan(get().passages, after, limit)
    },
    async getEntities(uuids) {
      const data = get()
      return uuids.flatMap((id) => (data.entities.has(id) ? [clone(data.entities.get(id)!)] : []))
    },
    async findEntitiesByName(normalizedName) {
      const data = get()
      return [...(data.names.get(normalizedName) ?? [])]
        .sort()
        .map((uuid) => clone(data.entities.get(uuid)!))
    },
    async listEntities(q) {
      const items = [...get().entities.values()].filter(
        (e) =>
          (q.labels === undefined ||
            q.labels.length === 0 ||
            e.labels.some((l) => q.labels!.includes(l))) &&
          contains(e.name, q.queryText),
      )
      return page(
        newestFirst(
          items,
          (e) => e.lastUpdated,
          (e) => e.uuid,
        ),
        q.limit,
        q.skip,
      )
    },
    async scanEntities(after, limit) {
      return scan(get().entities, after, limit)
    },
    async getRelationships(uuids) {
      const data = get()
      return uuids.flatMap((id) =>
        data.relationships.has(id) ? [clone(data.relationships.get(id)!)] : [],
      )
    },
    async relationshipsOf(uuid) {
      return [...get().relationships.values()]
        .filter((r) => r.subjectUuid === uuid || r.objectUuid === uuid)
        .map(clone)
    },
    async listRelationships(q) {
      const data = get()
      const target = q.target ?? 'all'
      const items = [...data.relationships.values()]
        .map((r) => triple(data, r))
        .filter((t): t is Triple => t !== null)
        .filter(
          (t) =>
            q.types === undefined || q.types.length === 0 || q.types.includes(t.predicate.name),
        )
        .filter(
          (t) =>
            q.fromLabels === undefined ||
            q.fromLabels.length === 0 ||
            t.subject.labels.some((l) => q.fromLabels!.includes(l)),
        )
        .filter(
          (t) =>
            q.toLabels === undefined ||
            q.toLabels.length === 0 ||
            t.object.labels.some((l) => q.toLabels!.includes(l)),
        )
        .filter((t) =>
          q.queryText === undefined || q.queryText === ''
            ? true
            : target === 'source'
              ? contains(t.subject.name, q.queryText)
              : target === 'target'
                ? contains(t.object.name, q.queryText)
                : contains(t.subject.name, q.queryText) ||
                  contains(t.object.name, q.queryText) ||
                  contains(t.predicate.description, q.queryText),
        )
      return page(
        newestFirst(
          items,
          (t) => t.predicate.lastUpdated,
          (t) => t.predicate.uuid,
        ),
        q.limit,
        q.skip,
      )
    },
    async scanRelationships(after, limit) {
      return scan(get().relationships, after, limit)
    },
    async getObservation(id) {
      const o = get().observations.get(id)
      return o ? clone(o) : null
    },
    async listObservations(q) {
      const items = [...get().observations.values()].filter((o) => {
        const labels = Array.isArray(o.metadata.labels)
          ? (o.metadata.labels as unknown[]).map(String)
          : []
        return (
          (q.resourceId === undefined || o.resourceId === q.resourceId) &&
          (q.labels === undefined ||
            q.labels.length === 0 ||
            labels.some((l) => q.labels!.includes(l))) &&
          contains(o.text, q.queryText)
        )
      })
      return page(
        newestFirst(
          items,
          (o) => o.insertedAt,
          (o) => o.id,
        ),
        q.limit,
        q.skip,
      )
    },
    async observationLabels() {
      const labels = new Set<string>()
      for (const o of get().observations.values()) {
        if (Array.isArray(o.metadata.labels))
          for (const l of o.metadata.labels) labels.add(String(l))
      }
      return [...labels].sort()
    },
    async getStructured(id) {
      const s = get().structured.get(id)
      return s ? clone(s) : null
    },
    async listStructured(q) {
      const items = [...get().structured.values()].filter(
        (s) =>
          (q.types === undefined ||
            q.types.length === 0 ||
            s.types.some((t) => q.types!.includes(t))) &&
          contains(jsonText([s.data, s.types, s.metadata]), q.queryText),
      )
      return page(
        newestFirst(
          items,
          (s) => s.insertedAt,
          (s) => s.id,
        ),
        q.limit,
        q.skip,
      )
    },
    async structuredTypes() {
      return [...new Set([...get().structured.values()].flatMap((s) => s.types))].sort()
    },
    async getChangelog(id) {
      const c = get().changelog.get(id)
      return c ? clone(c) : null
    },
    async listChangelog(q) {
      const items = [...get().changelog.values()]
        .filter(
          (c) =>
            (q.types === undefined || q.types.length === 0 || q.types.includes(c.type)) &&
            contains(jsonText(c.change), q.queryText),
        )
        .sort((a, b) => b.seq - a.seq)
      return page(items, q.limit, q.skip)
    },
    async changelogTypes() {
      return [...new Set([...get().changelog.values()].map((c) => c.type))].sort()
    },
    async changelogSince(afterSeq, limit) {
      return [...get().changelog.values()]
        .filter((c) => c.seq > afterSeq)
        .sort((a, b) => a.seq - b.seq)
        .slice(0, limit)
        .map(clone)
    },
    async createTask(task) {
      const data = get()
      const existing = data.tasks.get(task.id)
      if (existing) return { task: clone(existing), created: false }
      data.tasks.set(task.id, clone(task))
      return { task: clone(task), created: true }
    },
    async getTask(id) {
      const t = get().tasks.get(id)
      return t ? clone(t) : null
    },
    async putTask(task) {
      get().tasks.set(task.id, clone(task))
    },
    async listTasks(q) {
      return newestFirst(
        [...get().tasks.values()],
        (t) => t.createdAt,
        (t) => t.id,
      )
        .slice(q.skip, q.skip + q.limit)
        .map(clone)
    },
    async tasksInStatus(statuses) {
      return [...get().tasks.values()]
        .filter((t) => statuses.includes(t.status))
        .sort((a, b) =>
          a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
        )
        .map(clone)
    },
    async deleteTasksEndedBefore(endedBefore) {
      const data = get()
      let removed = 0
      for (const [id, t] of data.tasks) {
        if (isTerminal(t.status) && t.endedAt !== null && t.endedAt < endedBefore) {
          data.tasks.delete(id)
          removed++
        }
      }
      return removed
    },
    async getVectors(space, ids) {
      const data = get()
      return ids.flatMap((id) => {
        const v = data.vectors.get(vectorKey(space, id))
        return v ? [{ space, id, vector: Float32Array.from(v.vector) }] : []
      })
    },
    async scanVectors(space, after, limit) {
      const data = get()
      const ids = [...data.vectors.values()]
        .filter((v) => v.space === space)
        .map((v) => v.id)
        .sort()
      const start = after === null ? 0 : ids.findIndex((id) => id > after)
      if (start < 0) return []
      return ids.slice(start, start + limit).map((id) => {
        const v = data.vectors.get(vectorKey(space, id))!
        return { space, id, vector: Float32Array.from(v.vector) }
      })
    },
    async getMeta(key) {
      return get().meta.get(key) ?? null
    },
    async setMeta(key, value) {
      get().meta.set(key, value)
    },
    async getSnapshot(name) {
      const s = get().snapshots.get(name)
      return s ? Uint8Array.from(s) : null
    },
    async putSnapshot(name, data) {
      get().snapshots.set(name, Uint8Array.from(data))
    },
    async entityLabels() {
      return [...new Set([...get().entities.values()].flatMap((e) => e.labels))].sort()
    },
    async entityPropertyKeys() {
      return [
        ...new Set([...get().entities.values()].flatMap((e) => Object.keys(e.properties))),
      ].sort()
    },
    async relationshipNames() {
      return [...new Set([...get().relationships.values()].map((r) => r.name))].sort()
    },
    async stats() {
      return statsOf(get())
    },
  }
}

/** The reference StorageAdapter: everything in memory, same semantics as the durable ones. */
export function memoryAdapter(): StorageAdapter {
  const brains = new Map<string, BrainRecord>()
  const data = new Map<string, BrainData>()
  const stores = new Map<string, BrainStore>()

  const catalog: BrainCatalog = {
    async create(record) {
      if (brains.has(record.id)) return false
      brains.set(record.id, clone(record))
      data.set(record.id, emptyBrain())
      return true
    },
    async get(brainId) {
      const b = brains.get(brainId)
      return b ? clone(b) : null
    },
    async list() {
      return [...brains.values()]
        .sort((a, b) =>
          a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
        )
        .map(clone)
    },
    async findByTokenHash(tokenHash) {
      for (const b of brains.values()) if (b.tokenHash === tokenHash) return clone(b)
      return null
    },
    async updateToken(brainId, tokenHash, tokenLast4) {
      const b = brains.get(brainId)
      if (!b) return false
      brains.set(brainId, { ...b, tokenHash, tokenLast4 })
      return true
    },
    async delete(brainId) {
      const d = data.get(brainId)
      if (!brains.has(brainId) || d === undefined) return null
      const stats = statsOf(d)
      brains.delete(brainId)
      data.delete(brainId)
      stores.delete(brainId)
      return stats
    },
  }

  return {
    name: 'memory',
    catalog,
    async open() {},
    async close() {},
    async brain(brainId) {
      if (!data.has(brainId)) throw new Error(`memory adapter: brain '${brainId}' does not exist`)
      let store = stores.get(brainId)
      if (store === undefined) {
        store = createStore(brainId, () => {
          const d = data.get(brainId)
          if (d === undefined) throw new Error(`memory adapter: brain '${brainId}' was deleted`)
          return d
        })
        stores.set(brainId, store)
      }
      return store
    },
  }
}
