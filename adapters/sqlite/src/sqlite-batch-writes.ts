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
    syncRows(
      'entity_names',
      'norm',
      e.uuid,
      new Set([e.name, ...e.aliases].map(normalizeEntityName)),
    )
    syncRows('entity_labels', 'label', e.uuid, new Set(e.labels))
  }

  /**
   * Makes the `column` values `table` holds for `uuid` exactly `wanted` (consumed), deleting and
   * inserting only the rows that differ. Deleting every row and inserting them again dirtied their
   * pages all the same: an entity update, which mostly changes neither its names nor its labels, wrote
   * about five times the WAL frames of its own row (44 against 9 for 8 entities on a LoCoMo brain), and
   * the COMMIT's page writes were the largest main-thread cost of ingesting one LoCoMo turn.
   */
  function syncRows(
    table: 'entity_names' | 'entity_labels',
    column: 'norm' | 'label',
    uuid: string,
    wanted: Set<string>,
  ) {
    for (const row of stmt(`SELECT ${column} AS v FROM ${table} WHERE uuid = ?`).all(uuid)) {
      const value = (row as { v: string }).v
      if (!wanted.delete(value))
        stmt(`DELETE FROM ${table} WHERE uuid = ? AND ${column} = ?`).run(uuid, value)
    }
    for (const value of wanted)
      stmt(`INSERT OR IGNORE INTO ${table} (uuid, ${column}) VALUES (?, ?)`).run(uuid, value)
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
      const data = JSON.stringify(r)
      // An UPDATE that leaves the endpoints out leaves their indexes' pages clean (half the WAL frames
      // of the upsert when they did not change, as they mostly do not); the upsert does the rest.
      const kept = stmt(
        'UPDATE relationships SET name = ?, last_updated = ?, data = ? WHERE uuid = ? AND subject_uuid = ? AND object_uuid = ?',
      ).run(r.name, r.lastUpdated, data, r.uuid, r.subjectUuid, r.objectUuid)
      if (kept.changes === 0)
        stmt(
          'INSERT INTO relationships (uuid, subject_uuid, object_uuid, name, last_updated, data) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(uuid) DO UPDATE SET subject_uuid = excluded.subject_uuid, object_uuid = excluded.object_uuid, name = excluded.name, last_updated = excluded.last_updated, data = excluded.data',
        ).run(r.uuid, r.subjectUuid, r.objectUuid, r.name, r.lastUpdated, data)
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
      // An entry already there is skipped before the insert: `INSERT OR IGNORE` would take a `seq` for
      // it all the same and leave a gap, and an unbroken sequence lets a deep page be found by its
      // `seq` (`sqlite-changelog-repository.ts`).
      stmt(
        'INSERT INTO changelog (id, type, data) SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM changelog WHERE id = ?)',
      ).run(c.id, c.type, JSON.stringify(c), c.id)
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
