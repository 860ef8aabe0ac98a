import {
  normalizeEntityName,
  summarizeBatch,
  vectorToBytes,
  type BrainStats,
  type BrainStore,
  type WriteBatch,
} from '@engram/core'
import { appendWrite } from './postgres-coordination.js'
import { deletes, rewrites } from './postgres-forget-writes.js'
import type { GuardedPool } from './postgres-guarded-pool.js'
import { putTask } from './postgres-put-task.js'
import { postgresRepositories } from './postgres-repositories.js'
import { firstByKey, lastByKey, type Queryable } from './postgres-sql.js'

/**
 * `INSERT ... SELECT FROM unnest(...)`: one statement per record kind whatever the batch size, each
 * column one array parameter. `columns` are `name::type` pairs; `$1` is the brain id.
 */
function upsert(table: string, columns: [string, string][], conflict: string, update: boolean) {
  const names = columns.map(([name]) => name)
  const arrays = columns.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')
  const casts = columns.map(([name, type]) =>
    type === 'text' && name === 'data' ? 'data::json' : name,
  )
  const set = names.map((n) => `${n} = excluded.${n}`).join(', ')
  return `INSERT INTO ${table} (brain_id, ${names.join(', ')})
    SELECT $1, ${casts.join(', ')} FROM unnest(${arrays}) AS u(${names.join(', ')})
    ON CONFLICT (${conflict}) DO ${update ? `UPDATE SET ${set}` : 'NOTHING'}`
}

const PASSAGES = upsert(
  'passages',
  [
    ['id', 'text'],
    ['source', 'text'],
    ['source_id', 'text'],
    ['inserted_at', 'text'],
    ['data', 'text'],
  ],
  'brain_id, id',
  true,
)
const ENTITIES = upsert(
  'entities',
  [
    ['id', 'text'],
    ['name', 'text'],
    ['last_updated', 'text'],
    ['data', 'text'],
  ],
  'brain_id, id',
  true,
)
const ENTITY_NAMES = upsert(
  'entity_names',
  [
    ['norm', 'text'],
    ['id', 'text'],
  ],
  'brain_id, norm, id',
  false,
)
const ENTITY_LABELS = upsert(
  'entity_labels',
  [
    ['id', 'text'],
    ['label', 'text'],
  ],
  'brain_id, id, label',
  false,
)
/** The name rows of entities `$2` that are not among the pairs (`$3` norm, `$4` id) they now carry. */
const STALE_NAMES = `DELETE FROM entity_names n WHERE n.brain_id = $1 AND n.id = ANY($2::text[])
  AND NOT EXISTS (SELECT 1 FROM unnest($3::text[], $4::text[]) AS w(norm, id) WHERE w.norm = n.norm AND w.id = n.id)`
/** The label rows of entities `$2` that are not among the pairs (`$3` id, `$4` label) they now carry. */
const STALE_LABELS = `DELETE FROM entity_labels l WHERE l.brain_id = $1 AND l.id = ANY($2::text[])
  AND NOT EXISTS (SELECT 1 FROM unnest($3::text[], $4::text[]) AS w(id, label) WHERE w.id = l.id AND w.label = l.label)`
const RELATIONSHIPS = upsert(
  'relationships',
  [
    ['id', 'text'],
    ['subject_id', 'text'],
    ['object_id', 'text'],
    ['name', 'text'],
    ['last_updated', 'text'],
    ['data', 'text'],
  ],
  'brain_id, id',
  true,
)
const OBSERVATIONS = upsert(
  'observations',
  [
    ['id', 'text'],
    ['resource_id', 'text'],
    ['inserted_at', 'text'],
    ['data', 'text'],
  ],
  'brain_id, id',
  true,
)
const STRUCTURED = upsert(
  'structured',
  [
    ['id', 'text'],
    ['inserted_at', 'text'],
    ['data', 'text'],
  ],
  'brain_id, id',
  true,
)
const VECTORS = upsert(
  'vectors',
  [
    ['space', 'text'],
    ['id', 'text'],
    ['vector', 'bytea'],
  ],
  'brain_id, space, id',
  true,
)
const SOURCES = upsert(
  'sources',
  [
    ['id', 'text'],
    ['status', 'text'],
    ['updated_at', 'text'],
    ['data', 'text'],
  ],
  'brain_id, id',
  true,
)
/** DO NOTHING only skips a link that exists: a bad `kind` still fails the CHECK, and the batch. */
const EVIDENCE = upsert(
  'evidence',
  [
    ['evidence_id', 'text'],
    ['kind', 'text'],
    ['record_id', 'text'],
  ],
  'brain_id, evidence_id, kind, record_id',
  false,
)
/**
 * Entries whose id exists are skipped; the others get the brain's next `seq` values in batch order.
 * The brain row is locked first, so appends to one brain are serialised and `seq` is committed in
 * increasing order (a reader tailing the changelog by `seq` never sees a gap filled later).
 */
const CHANGELOG = `INSERT INTO changelog (brain_id, id, seq, type, data)
  SELECT $1, u.id, (SELECT coalesce(max(seq), 0) FROM changelog WHERE brain_id = $1) + row_number() OVER (ORDER BY u.ord),
    u.type, u.data::json
  FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(id, type, data, ord)
  WHERE NOT EXISTS (SELECT 1 FROM changelog c WHERE c.brain_id = $1 AND c.id = u.id)`

/**
 * Every write of a batch, on one client inside BEGIN ... COMMIT; first its write-feed entry (which
 * locks the brain row, so one brain's batches commit one after another), when it changes indexed
 * records.
 */
async function writeBatch(
  db: Queryable,
  brainId: string,
  origin: string,
  batch: WriteBatch,
): Promise<void> {
  const summary = summarizeBatch(batch)
  if (summary !== null) await appendWrite(db, brainId, origin, summary)
  const passages = lastByKey(batch.passages ?? [], (p) => p.id)
  if (passages.length > 0)
    await db.query(PASSAGES, [
      brainId,
      passages.map((p) => p.id),
      passages.map((p) => p.source),
      passages.map((p) => p.sourceId ?? null),
      passages.map((p) => p.insertedAt),
      passages.map((p) => JSON.stringify(p)),
    ])
  const entities = lastByKey(batch.entities ?? [], (e) => e.uuid)
  if (entities.length > 0) {
    const ids = entities.map((e) => e.uuid)
    await db.query(ENTITIES, [
      brainId,
      ids,
      entities.map((e) => e.name),
      entities.map((e) => e.lastUpdated),
      entities.map((e) => JSON.stringify(e)),
    ])
    const names = entities.flatMap((e) =>
      [...new Set([e.name, ...e.aliases].map(normalizeEntityName))].map((n) => [n, e.uuid]),
    )
    const labels = entities.flatMap((e) => [...new Set(e.labels)].map((l) => [e.uuid, l]))
    // Only the rows that changed are written: the stale ones deleted, the new ones inserted (the
    // others conflict and stay). Deleting all and inserting them again left a dead tuple and new
    // index entries per row of every updated entity, though its names and labels mostly stay.
    await db.query(STALE_NAMES, [brainId, ids, names.map((x) => x[0]), names.map((x) => x[1])])
    await db.query(STALE_LABELS, [brainId, ids, labels.map((x) => x[0]), labels.map((x) => x[1])])
    await db.query(ENTITY_NAMES, [brainId, names.map((x) => x[0]), names.map((x) => x[1])])
    await db.query(ENTITY_LABELS, [brainId, labels.map((x) => x[0]), labels.map((x) => x[1])])
  }
  const relationships = lastByKey(batch.relationships ?? [], (r) => r.uuid)
  if (relationships.length > 0)
    await db.query(RELATIONSHIPS, [
      brainId,
      relationships.map((r) => r.uuid),
      relationships.map((r) => r.subjectUuid),
      relationships.map((r) => r.objectUuid),
      relationships.map((r) => r.name),
      relationships.map((r) => r.lastUpdated),
      relationships.map((r) => JSON.stringify(r)),
    ])
  const observations = lastByKey(batch.observations ?? [], (o) => o.id)
  if (observations.length > 0)
    await db.query(OBSERVATIONS, [
      brainId,
      observations.map((o) => o.id),
      observations.map((o) => o.resourceId),
      observations.map((o) => o.insertedAt),
      observations.map((o) => JSON.stringify(o)),
    ])
  const structured = lastByKey(batch.structured ?? [], (s) => s.id)
  if (structured.length > 0)
    await db.query(STRUCTURED, [
      brainId,
      structured.map((s) => s.id),
      structured.map((s) => s.insertedAt),
      structured.map((s) => JSON.stringify(s)),
    ])
  const changelog = firstByKey(batch.changelog ?? [], (c) => c.id)
  if (changelog.length > 0) {
    await db.query('SELECT 1 FROM brains WHERE id = $1 FOR NO KEY UPDATE', [brainId])
    await db.query(CHANGELOG, [
      brainId,
      changelog.map((c) => c.id),
      changelog.map((c) => c.type),
      changelog.map((c) => JSON.stringify(c)),
    ])
  }
  const vectors = lastByKey(batch.vectors ?? [], (v) => `${v.space}\u0000${v.id}`)
  if (vectors.length > 0)
    await db.query(VECTORS, [
      brainId,
      vectors.map((v) => v.space),
      vectors.map((v) => v.id),
      vectors.map((v) => vectorToBytes(v.vector)),
    ])
  const sources = lastByKey(batch.sources ?? [], (x) => x.id)
  if (sources.length > 0)
    await db.query(SOURCES, [
      brainId,
      sources.map((x) => x.id),
      sources.map((x) => x.status),
      sources.map((x) => x.updatedAt),
      sources.map((x) => JSON.stringify(x)),
    ])
  const evidence = batch.evidence ?? []
  if (evidence.length > 0)
    await db.query(EVIDENCE, [
      brainId,
      evidence.map((l) => l.evidenceId),
      evidence.map((l) => l.kind),
      evidence.map((l) => l.recordId),
    ])
  await deletes(db, brainId, batch)
  await rewrites(db, brainId, batch)
  if (batch.task !== undefined) await putTask(db, brainId, batch.task)
}

/**
 * Runs `work` in one transaction on one pooled client. A client whose connection dropped is closed,
 * not pooled; the error (`StorageUnavailableError`) says nothing about whether a COMMIT in flight
 * landed, which is why everything written here is an idempotent upsert and a task's finished record
 * is written in the same transaction as its records.
 */
export async function inTransaction<T>(
  pool: GuardedPool,
  work: (client: Queryable) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  let broken = false
  try {
    await client.query('BEGIN')
    try {
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true))
      throw error
    }
  } finally {
    client.release(broken)
  }
}

const STATS = `SELECT
  (SELECT count(*) FROM passages WHERE brain_id = $1)::int AS passages,
  (SELECT count(*) FROM entities WHERE brain_id = $1)::int AS entities,
  (SELECT count(*) FROM relationships WHERE brain_id = $1)::int AS relationships,
  (SELECT count(*) FROM observations WHERE brain_id = $1)::int AS observations,
  (SELECT count(*) FROM structured WHERE brain_id = $1)::int AS structured,
  (SELECT count(*) FROM changelog WHERE brain_id = $1)::int AS changelog,
  (SELECT count(*) FROM tasks WHERE brain_id = $1)::int AS tasks,
  (SELECT count(*) FROM vectors WHERE brain_id = $1)::int AS vectors,
  (SELECT count(*) FROM sources WHERE brain_id = $1 AND status = 'active')::int AS sources`

/** Record counts of one brain. */
export async function brainStats(db: Queryable, brainId: string): Promise<BrainStats> {
  const { rows } = await db.query<BrainStats>(STATS, [brainId])
  return rows[0]!
}

/** Every table holding a brain's records (the write feed holds ids only). */
const BRAIN_TABLES = [
  'passages',
  'entities',
  'entity_names',
  'entity_labels',
  'relationships',
  'observations',
  'structured',
  'changelog',
  'tasks',
  'vectors',
  'sources',
  'evidence',
]

/** What `purge` cannot promise on PostgreSQL (docs/forgetting.md). */
export const POSTGRES_PURGE_NOTE =
  'PostgreSQL: deleted rows are gone for every reader and from pg_dump. VACUUM ran on the brain tables, ' +
  "which makes the dead rows' space reusable but does not overwrite it: their bytes may remain in free " +
  'space of the data files until reused, in WAL segments until recycled, and in WAL archives and backups.'

/**
 * VACUUM of the tables that hold brain records, after a forget: dead rows' space becomes reusable and
 * their index entries go (https://www.postgresql.org/docs/current/sql-vacuum.html). Brains share the
 * tables, so this vacuums every brain's rows; VACUUM cannot run in a transaction, and through the pool
 * it runs on a connection of its own. Not VACUUM FULL: it would rewrite every brain's tables under an
 * exclusive lock, stopping all reads and writes meanwhile.
 */
async function vacuumBrainTables(pool: GuardedPool): Promise<string> {
  await pool.query(`VACUUM ${BRAIN_TABLES.join(', ')}`)
  return POSTGRES_PURGE_NOTE
}

/**
 * One brain's store: every query carries its `brain_id`. `origin` names this process in the write
 * feed. `snapshotDir`: this process's local directory for the brain's index snapshots (the adapter's
 * `snapshotDir` option), or null: the engine then rebuilds the brain's indexes from its records when
 * it loads the brain.
 */
export function createPostgresBrainStore(
  brainId: string,
  pool: GuardedPool,
  origin: string,
  snapshotDir: string | null = null,
): BrainStore {
  return {
    brainId,
    snapshotDir,
    async apply(batch) {
      await inTransaction(pool, (client) => writeBatch(client, brainId, origin, batch))
    },
    stats: () => brainStats(pool, brainId),
    ...postgresRepositories(pool, brainId),
    purge: () => vacuumBrainTables(pool),
  }
}
