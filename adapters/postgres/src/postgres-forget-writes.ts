import type { ChangelogEntry, Task, WriteBatch } from '@engram/core'
import { parse, type Queryable } from './postgres-sql.js'

const ANY_ID = 'brain_id = $1 AND id = ANY($2::text[])'

async function deleteIds(db: Queryable, table: string, brainId: string, ids: string[]) {
  if (ids.length > 0) await db.query(`DELETE FROM ${table} WHERE ${ANY_ID}`, [brainId, ids])
}

/** The links of deleted records (entities, relationships, observations). */
async function deleteLinksOf(db: Queryable, brainId: string, kind: string, ids: string[]) {
  if (ids.length > 0)
    await db.query(
      'DELETE FROM evidence WHERE brain_id = $1 AND kind = $2 AND record_id = ANY($3::text[])',
      [brainId, kind, ids],
    )
}

/** The links whose evidence was deleted (passages, structured records). */
async function deleteLinksFrom(db: Queryable, brainId: string, ids: string[]) {
  if (ids.length > 0)
    await db.query('DELETE FROM evidence WHERE brain_id = $1 AND evidence_id = ANY($2::text[])', [
      brainId,
      ids,
    ])
}

async function deleteEntityKeys(db: Queryable, brainId: string, ids: string[]) {
  await deleteIds(db, 'entity_names', brainId, ids)
  await deleteIds(db, 'entity_labels', brainId, ids)
}

/** A batch's deletes, each taking the evidence links that name the deleted id with it. */
export async function deletes(db: Queryable, brainId: string, batch: WriteBatch): Promise<void> {
  const entities = batch.deleteEntities ?? []
  if (entities.length > 0) {
    await deleteIds(db, 'entities', brainId, entities)
    await deleteEntityKeys(db, brainId, entities)
    await deleteLinksOf(db, brainId, 'entity', entities)
  }
  const relationships = batch.deleteRelationships ?? []
  await deleteIds(db, 'relationships', brainId, relationships)
  await deleteLinksOf(db, brainId, 'relationship', relationships)
  const vectors = batch.deleteVectors ?? []
  if (vectors.length > 0)
    await db.query(
      `DELETE FROM vectors v USING unnest($2::text[], $3::text[]) AS d(space, id)
       WHERE v.brain_id = $1 AND v.space = d.space AND v.id = d.id`,
      [brainId, vectors.map((v) => v.space), vectors.map((v) => v.id)],
    )
  const passages = batch.deletePassages ?? []
  await deleteIds(db, 'passages', brainId, passages)
  await deleteLinksFrom(db, brainId, passages)
  const observations = batch.deleteObservations ?? []
  await deleteIds(db, 'observations', brainId, observations)
  await deleteLinksOf(db, brainId, 'observation', observations)
  const structured = batch.deleteStructured ?? []
  await deleteIds(db, 'structured', brainId, structured)
  await deleteLinksFrom(db, brainId, structured)
  await deleteIds(db, 'sources', brainId, batch.deleteSources ?? [])
}

/**
 * Rows read (locked), changed in JS and written back: `data` is the exact JSON text a record was
 * written as (`json`, not `jsonb`), which SQL's JSON operators would reorder or refuse (`\u0000`).
 */
async function rewrite<T>(
  db: Queryable,
  table: 'changelog' | 'tasks',
  brainId: string,
  ids: string[],
  change: (record: T, id: string) => T,
) {
  if (ids.length === 0) return
  const { rows } = await db.query<{ id: string; data: string }>(
    `SELECT id, data::text AS data FROM ${table} WHERE ${ANY_ID} FOR UPDATE`,
    [brainId, ids],
  )
  if (rows.length === 0) return
  await db.query(
    `UPDATE ${table} t SET data = u.data::json FROM unnest($2::text[], $3::text[]) AS u(id, data)
     WHERE t.brain_id = $1 AND t.id = u.id`,
    [brainId, rows.map((r) => r.id), rows.map((r) => JSON.stringify(change(parse<T>(r), r.id)))],
  )
}

/**
 * Changelog redactions (the entry keeps its id, seq, timestamp and type) and payload erasures. A
 * finished task is rewritten too: unlike `putTask`, which never writes over one.
 */
export async function rewrites(db: Queryable, brainId: string, batch: WriteBatch): Promise<void> {
  const redactions = new Map((batch.redactChangelog ?? []).map((r) => [r.id, r.change]))
  await rewrite<Omit<ChangelogEntry, 'seq'>>(
    db,
    'changelog',
    brainId,
    [...redactions.keys()],
    (entry, id) => ({
      ...entry,
      change: redactions.get(id)!,
    }),
  )
  await rewrite<Task>(db, 'tasks', brainId, [...new Set(batch.erasePayloads ?? [])], (task) => ({
    ...task,
    payload: { forgotten: true },
  }))
}
