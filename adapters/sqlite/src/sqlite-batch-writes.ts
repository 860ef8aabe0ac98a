import {
  normalizeEntityName,
  vectorToBytes,
  type ChangelogEntry,
  type Entity,
  type Task,
  type WriteBatch,
} from '@engram/core'
import type { SqliteStatementLike } from './sqlite-database-like.js'
import { parse } from './sqlite-sql.js'

/** How many records a batch writes or deletes: what decides whether `apply` runs it in slices. */
export function recordCount(batch: WriteBatch): number {
  let n = 0
  for (const list of [
    batch.passages,
    batch.entities,
    batch.relationships,
    batch.observations,
    batch.structured,
    batch.changelog,
    batch.vectors,
    batch.sources,
    batch.evidence,
    batch.deleteEntities,
    batch.deleteRelationships,
    batch.deleteVectors,
    batch.deletePassages,
    batch.deleteObservations,
    batch.deleteStructured,
    batch.deleteSources,
    batch.redactChangelog,
    batch.erasePayloads,
  ])
    n += list?.length ?? 0
  return n
}

/**
 * The statements of `BrainStore.apply` over one connection: `writes(batch)` performs a batch one
 * record per step (so that a large batch can be applied in slices), inside the caller's transaction.
 * Order: puts, then deletes (each taking the evidence links naming the deleted id), then changelog
 * redactions and payload erasures, then the task.
 */
export function sqliteBatchWrites(stmt: (sql: string) => SqliteStatementLike) {
  function putEntity(e: Entity) {
    stmt(
      'INSERT INTO entities (uuid, name, last_updated, data) VALUES (?, ?, ?, ?) ON CONFLICT(uuid) DO UPDATE SET name = excluded.name, last_updated = excluded.last_updated, data = excluded.data',
    ).run(e.uuid, e.name, e.lastUpdated, JSON.stringify(e))
    stmt('DELETE FROM entity_names WHERE uuid = ?').run(e.uuid)
    stmt('DELETE FROM entity_labels WHERE uuid = ?').run(e.uuid)
    for (const n of new Set([e.name, ...e.aliases].map(normalizeEntityName))) {
      stmt('INSERT OR IGNORE INTO entity_names (norm, uuid) VALUES (?, ?)').run(n, e.uuid)
    }
    for (const label of new Set(e.labels))
      stmt('INSERT OR IGNORE INTO entity_labels (uuid, label) VALUES (?, ?)').run(e.uuid, label)
  }

  function putTask(t: Task) {
    stmt(
      'INSERT INTO tasks (id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, created_at = excluded.created_at, ended_at = excluded.ended_at, data = excluded.data',
    ).run(t.id, t.status, t.createdAt, t.endedAt, JSON.stringify(t))
  }

  const deleteLinksOf = (kind: 'entity' | 'relationship' | 'observation', id: string) =>
    stmt('DELETE FROM evidence WHERE kind = ? AND record_id = ?').run(kind, id)
  const deleteLinksFrom = (evidenceId: string) =>
    stmt('DELETE FROM evidence WHERE evidence_id = ?').run(evidenceId)

  function* puts(batch: WriteBatch): Generator<void, void, undefined> {
    for (const p of batch.passages ?? []) {
      stmt(
        'INSERT INTO passages (id, source, source_id, inserted_at, data) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET source = excluded.source, source_id = excluded.source_id, inserted_at = excluded.inserted_at, data = excluded.data',
      ).run(p.id, p.source, p.sourceId ?? null, p.insertedAt, JSON.stringify(p))
      yield
    }
    for (const e of batch.entities ?? []) {
      putEntity(e)
      yield
    }
    for (const r of batch.relationships ?? []) {
      stmt(
        'INSERT INTO relationships (uuid, subject_uuid, object_uuid, name, last_updated, data) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(uuid) DO UPDATE SET subject_uuid = excluded.subject_uuid, object_uuid = excluded.object_uuid, name = excluded.name, last_updated = excluded.last_updated, data = excluded.data',
      ).run(r.uuid, r.subjectUuid, r.objectUuid, r.name, r.lastUpdated, JSON.stringify(r))
      yield
    }
    for (const o of batch.observations ?? []) {
      stmt(
        'INSERT INTO observations (id, resource_id, inserted_at, data) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET resource_id = excluded.resource_id, inserted_at = excluded.inserted_at, data = excluded.data',
      ).run(o.id, o.resourceId, o.insertedAt, JSON.stringify(o))
      yield
    }
    for (const s of batch.structured ?? []) {
      stmt(
        'INSERT INTO structured (id, inserted_at, data) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET inserted_at = excluded.inserted_at, data = excluded.data',
      ).run(s.id, s.insertedAt, JSON.stringify(s))
      yield
    }
    for (const c of batch.changelog ?? []) {
      stmt('INSERT OR IGNORE INTO changelog (id, type, data) VALUES (?, ?, ?)').run(
        c.id,
        c.type,
        JSON.stringify(c),
      )
      yield
    }
    for (const v of batch.vectors ?? []) {
      stmt(
        'INSERT INTO vectors (space, id, vector) VALUES (?, ?, ?) ON CONFLICT(space, id) DO UPDATE SET vector = excluded.vector',
      ).run(v.space, v.id, vectorToBytes(v.vector))
      yield
    }
    for (const s of batch.sources ?? []) {
      stmt(
        'INSERT INTO sources (id, status, updated_at, data) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at, data = excluded.data',
      ).run(s.id, s.status, s.updatedAt, JSON.stringify(s))
      yield
    }
    for (const l of batch.evidence ?? []) {
      // Not INSERT OR IGNORE: that would also ignore the CHECK on `kind`, and drop a bad link silently.
      stmt(
        'INSERT INTO evidence (evidence_id, kind, record_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      ).run(l.evidenceId, l.kind, l.recordId)
      yield
    }
  }

  function* deletes(batch: WriteBatch): Generator<void, void, undefined> {
    for (const uuid of batch.deleteEntities ?? []) {
      stmt('DELETE FROM entities WHERE uuid = ?').run(uuid)
      stmt('DELETE FROM entity_names WHERE uuid = ?').run(uuid)
      stmt('DELETE FROM entity_labels WHERE uuid = ?').run(uuid)
      deleteLinksOf('entity', uuid)
      yield
    }
    for (const uuid of batch.deleteRelationships ?? []) {
      stmt('DELETE FROM relationships WHERE uuid = ?').run(uuid)
      deleteLinksOf('relationship', uuid)
      yield
    }
    for (const v of batch.deleteVectors ?? []) {
      stmt('DELETE FROM vectors WHERE space = ? AND id = ?').run(v.space, v.id)
      yield
    }
    for (const id of batch.deletePassages ?? []) {
      stmt('DELETE FROM passages WHERE id = ?').run(id)
      deleteLinksFrom(id)
      yield
    }
    for (const id of batch.deleteObservations ?? []) {
      stmt('DELETE FROM observations WHERE id = ?').run(id)
      deleteLinksOf('observation', id)
      yield
    }
    for (const id of batch.deleteStructured ?? []) {
      stmt('DELETE FROM structured WHERE id = ?').run(id)
      deleteLinksFrom(id)
      yield
    }
    for (const id of batch.deleteSources ?? []) {
      stmt('DELETE FROM sources WHERE id = ?').run(id)
      yield
    }
  }

  /** Read, changed and written back in JS: SQLite's JSON functions refuse records nested too deep. */
  function* rewrites(batch: WriteBatch): Generator<void, void, undefined> {
    for (const r of batch.redactChangelog ?? []) {
      const row = stmt('SELECT data FROM changelog WHERE id = ?').get(r.id)
      if (row !== undefined) {
        const entry = parse<Omit<ChangelogEntry, 'seq'>>(row)
        stmt('UPDATE changelog SET data = ? WHERE id = ?').run(
          JSON.stringify({ ...entry, change: r.change }),
          r.id,
        )
      }
      yield
    }
    for (const id of batch.erasePayloads ?? []) {
      const row = stmt('SELECT data FROM tasks WHERE id = ?').get(id)
      if (row !== undefined) {
        const task = parse<Task>(row)
        stmt('UPDATE tasks SET data = ? WHERE id = ?').run(
          JSON.stringify({ ...task, payload: { forgotten: true } }),
          id,
        )
      }
      yield
    }
  }

  function* writes(batch: WriteBatch): Generator<void, void, undefined> {
    yield* puts(batch)
    yield* deletes(batch)
    yield* rewrites(batch)
    if (batch.task !== undefined) putTask(batch.task)
  }

  return { writes, putTask }
}
