import type { BrainStore, Paged, Triple } from '../contracts/storage-adapter.js'
import type { Observation } from '../model/observation.js'
import type { Relationship } from '../model/relationship.js'
import { isTerminal } from '../model/task.js'
import { applyBatch, clone, statsOf, vectorKey, type BrainData } from './memory-brain-data.js'
import { memorySourceRepository } from './memory-source-repository.js'

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

/**
 * A brain's store over its in-memory records: the repositories of the port, with the semantics the
 * durable adapters have (copies in and out, newest-first lists, id-ordered scans). `get` returns the
 * brain's records and throws once the brain is deleted.
 */
export function createMemoryBrainStore(brainId: string, get: () => BrainData): BrainStore {
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
    passages: {
      async get(ids) {
        const data = get()
        return ids.flatMap((id) => (data.passages.has(id) ? [clone(data.passages.get(id)!)] : []))
      },
      async list(q) {
        const items = [...get().passages.values()].filter(
          (p) =>
            (q.source === undefined || p.source === q.source) &&
            (q.sourceId === undefined || p.sourceId === q.sourceId),
        )
        if (q.sourceId !== undefined)
          return page(
            items.sort(
              (a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
            ),
            q.limit,
            q.skip,
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
      async scan(after, limit) {
        return scan(get().passages, after, limit)
      },
    },
    entities: {
      async get(uuids) {
        const data = get()
        return uuids.flatMap((id) => (data.entities.has(id) ? [clone(data.entities.get(id)!)] : []))
      },
      async findByName(normalizedName) {
        const data = get()
        return [...(data.names.get(normalizedName) ?? [])]
          .sort()
          .map((uuid) => clone(data.entities.get(uuid)!))
      },
      async list(q) {
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
      async scan(after, limit) {
        return scan(get().entities, after, limit)
      },
      async labels() {
        return [...new Set([...get().entities.values()].flatMap((e) => e.labels))].sort()
      },
      async propertyKeys() {
        return [
          ...new Set([...get().entities.values()].flatMap((e) => Object.keys(e.properties))),
        ].sort()
      },
    },
    relationships: {
      async get(uuids) {
        const data = get()
        return uuids.flatMap((id) =>
          data.relationships.has(id) ? [clone(data.relationships.get(id)!)] : [],
        )
      },
      async of(uuid) {
        const data = get()
        return [...(data.ends.get(uuid) ?? [])].flatMap((id) => {
          const r = data.relationships.get(id)
          return r === undefined ? [] : [clone(r)]
        })
      },
      async list(q) {
        const data = get()
        const target = q.target ?? 'all'
        const any = (values: readonly string[] | undefined) =>
          values !== undefined && values.length > 0
        const text = q.queryText !== undefined && q.queryText !== ''
        // Endpoints are read for a filter that needs them, else only for the page (as the SQL
        // adapters join them only then): a deep page of 30,000 relationships sorted ids, not triples.
        const byEnds = any(q.fromLabels) || any(q.toLabels) || text
        const kept = [...data.relationships.values()].filter(
          (r) =>
            (!any(q.types) || q.types!.includes(r.name)) &&
            data.entities.has(r.subjectUuid) &&
            data.entities.has(r.objectUuid),
        )
        const matching = !byEnds
          ? kept
          : kept.filter((r) => {
              const t = triple(data, r)!
              return (
                (!any(q.fromLabels) || t.subject.labels.some((l) => q.fromLabels!.includes(l))) &&
                (!any(q.toLabels) || t.object.labels.some((l) => q.toLabels!.includes(l))) &&
                (!text ||
                  (target === 'source'
                    ? contains(t.subject.name, q.queryText!)
                    : target === 'target'
                      ? contains(t.object.name, q.queryText!)
                      : contains(t.subject.name, q.queryText!) ||
                        contains(t.object.name, q.queryText!) ||
                        contains(t.predicate.description, q.queryText!)))
              )
            })
        const sorted = newestFirst(
          matching,
          (r) => r.lastUpdated,
          (r) => r.uuid,
        )
        return {
          items: sorted.slice(q.skip, q.skip + q.limit).map((r) => clone(triple(data, r)!)),
          total: sorted.length,
        }
      },
      async scan(after, limit) {
        return scan(get().relationships, after, limit)
      },
      async names() {
        return [...new Set([...get().relationships.values()].map((r) => r.name))].sort()
      },
    },
    observations: {
      async get(id) {
        const o = get().observations.get(id)
        return o ? clone(o) : null
      },
      async list(q) {
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
      async ofResources(resourceIds, limitEach) {
        const of = new Map(resourceIds.map((id) => [id, [] as Observation[]]))
        for (const o of get().observations.values()) of.get(o.resourceId)?.push(o)
        const newest = (items: Observation[]) =>
          newestFirst(
            items,
            (o) => o.insertedAt,
            (o) => o.id,
          )
        return resourceIds.map((id) => page(newest(of.get(id)!), limitEach, 0).items)
      },
      async labels() {
        const labels = new Set<string>()
        for (const o of get().observations.values()) {
          if (Array.isArray(o.metadata.labels))
            for (const l of o.metadata.labels) labels.add(String(l))
        }
        return [...labels].sort()
      },
    },
    structured: {
      async get(id) {
        const s = get().structured.get(id)
        return s ? clone(s) : null
      },
      async list(q) {
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
      async types() {
        return [...new Set([...get().structured.values()].flatMap((s) => s.types))].sort()
      },
    },
    changelog: {
      async get(id) {
        const c = get().changelog.get(id)
        return c ? clone(c) : null
      },
      async list(q) {
        const items = [...get().changelog.values()]
          .filter(
            (c) =>
              (q.types === undefined || q.types.length === 0 || q.types.includes(c.type)) &&
              contains(jsonText(c.change), q.queryText),
          )
          .sort((a, b) => b.seq - a.seq)
        return page(items, q.limit, q.skip)
      },
      async types() {
        return [...new Set([...get().changelog.values()].map((c) => c.type))].sort()
      },
      async since(afterSeq, limit) {
        return [...get().changelog.values()]
          .filter((c) => c.seq > afterSeq)
          .sort((a, b) => a.seq - b.seq)
          .slice(0, limit)
          .map(clone)
      },
      async lastSeq() {
        return get().seq
      },
      async containing(needles) {
        const wanted = needles.filter((n) => n !== '')
        if (wanted.length === 0) return []
        // The stored form is the entry without its seq, as the SQL adapters store it.
        return [...get().changelog.values()]
          .filter((c) => {
            const { seq: _seq, ...stored } = c
            const json = jsonText(stored)
            return wanted.some((n) => json.includes(n))
          })
          .map(clone)
      },
    },
    tasks: {
      async create(task) {
        const data = get()
        const existing = data.tasks.get(task.id)
        if (existing) return { task: clone(existing), created: false }
        data.tasks.set(task.id, clone(task))
        return { task: clone(task), created: true }
      },
      async get(id) {
        const t = get().tasks.get(id)
        return t ? clone(t) : null
      },
      async put(task) {
        get().tasks.set(task.id, clone(task))
      },
      async list(q, statuses) {
        return newestFirst(
          [...get().tasks.values()].filter((t) => statuses?.includes(t.status) ?? true),
          (t) => t.createdAt,
          (t) => t.id,
        )
          .slice(q.skip, q.skip + q.limit)
          .map(clone)
      },
      async inStatus(statuses) {
        return [...get().tasks.values()]
          .filter((t) => statuses.includes(t.status))
          .sort((a, b) =>
            a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
          )
          .map(clone)
      },
      async deleteEndedBefore(endedBefore) {
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
    },
    vectors: {
      async get(space, ids) {
        const data = get()
        return ids.flatMap((id) => {
          const v = data.vectors.get(vectorKey(space, id))
          return v ? [{ space, id, vector: Float32Array.from(v.vector) }] : []
        })
      },
      async scan(space, after, limit) {
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
    },
    meta: {
      async get(key) {
        return get().meta.get(key) ?? null
      },
      async set(key, value) {
        get().meta.set(key, value)
      },
    },
    sources: memorySourceRepository(get),
    evidence: {
      async supportedBy(evidenceIds) {
        return get().evidence.supportedBy(evidenceIds)
      },
      async evidenceOf(kind, recordIds) {
        return get().evidence.evidenceOf(kind, recordIds)
      },
    },
    async stats() {
      return statsOf(get())
    },
    /** Nothing outlives a delete in memory: a deleted record is garbage for the collector. */
    async purge() {
      get()
      return null
    },
  }
}
