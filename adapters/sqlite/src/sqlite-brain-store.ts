import {
  loopYielder,
  normalizeEntityName,
  type BrainStats,
  type BrainStore,
  type ChangelogEntry,
  type Entity,
  type Observation,
  type Paged,
  type Passage,
  type Relationship,
  type StructuredRecord,
  type Task,
  type Triple,
  type VectorRecord,
  type WriteBatch,
} from '@engram/core'
import { statementCache, type SqliteDatabaseLike } from './sqlite-database-like.js'

type Row = Record<string, unknown>

const parse = <T>(row: unknown): T => JSON.parse((row as { data: string }).data) as T

function inList(values: readonly string[]): string {
  return values.map(() => '?').join(',')
}

function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)
}

function fromBlob(blob: Buffer): Float32Array {
  // Copy: the driver's buffer may be reused, and Float32Array needs 4-byte alignment.
  const copy = new Uint8Array(blob.byteLength)
  copy.set(blob)
  return new Float32Array(copy.buffer)
}

/**
 * `json_extract(column, path)`, or NULL when the stored JSON is one SQLite cannot read: its JSON
 * functions stop at 1,000 levels of nesting and fail the whole statement ("malformed JSON") on such a
 * record. Records nested that deep predate the server's map limits or were written through the
 * library; guarded, they are skipped by the filters and facets that look inside the JSON, and still
 * listed (JSON.parse in JS reads them).
 */
const GUARDED_JSON = (fn: 'json_extract' | 'json_type', column: string, path: string) =>
  `CASE WHEN json_valid(${column}) THEN ${fn}(${column}, '${path}') END`
const JSON_AT = (column: string, path: string) => GUARDED_JSON('json_extract', column, path)

/** Case-insensitive substring test usable in SQL (`instr(lower(col), lower(?)) > 0`). */
const LIKE = (column: string) => `instr(lower(${column}), lower(?)) > 0`

export interface SqliteBrainStoreOptions {
  /** Records of a batch above which `apply` runs in slices (default 5,000; a text of a few megabytes is 100,000+). */
  slicedAbove?: number
  /** Work between two event-loop turns of a sliced `apply` (default 10 ms). */
  sliceMs?: number
  /**
   * Runs a WAL checkpoint of this database on another thread. When given, the COMMIT of a sliced
   * `apply` leaves the checkpoint to it instead of running it on this thread.
   */
  checkpointElsewhere?: () => Promise<void>
  /** `BrainStore.snapshotDir`: where the engine keeps this brain's index snapshot files (default none). */
  snapshotDir?: string
}

function recordCount(batch: WriteBatch): number {
  let n = 0
  for (const list of [
    batch.passages,
    batch.entities,
    batch.relationships,
    batch.observations,
    batch.structured,
    batch.changelog,
    batch.vectors,
    batch.deleteEntities,
    batch.deleteRelationships,
    batch.deleteVectors,
  ])
    n += list?.length ?? 0
  return n
}

/** One brain's store over its own SQLite file. Statements are prepared once and reused. */
export function createSqliteBrainStore(
  brainId: string,
  db: SqliteDatabaseLike,
  options: SqliteBrainStoreOptions = {},
): BrainStore {
  const slicedAbove = options.slicedAbove ?? 5000
  const sliceMs = options.sliceMs ?? 10
  const stmt = statementCache(db)

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

  /** The batch's writes, one record per step, so that a large batch can be applied in slices. */
  function* writes(batch: WriteBatch): Generator<void, void, undefined> {
    for (const p of batch.passages ?? []) {
      stmt(
        'INSERT INTO passages (id, source, inserted_at, data) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET source = excluded.source, inserted_at = excluded.inserted_at, data = excluded.data',
      ).run(p.id, p.source, p.insertedAt, JSON.stringify(p))
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
      ).run(v.space, v.id, toBlob(v.vector))
      yield
    }
    for (const uuid of batch.deleteEntities ?? []) {
      stmt('DELETE FROM entities WHERE uuid = ?').run(uuid)
      stmt('DELETE FROM entity_names WHERE uuid = ?').run(uuid)
      stmt('DELETE FROM entity_labels WHERE uuid = ?').run(uuid)
      yield
    }
    for (const uuid of batch.deleteRelationships ?? []) {
      stmt('DELETE FROM relationships WHERE uuid = ?').run(uuid)
      yield
    }
    for (const v of batch.deleteVectors ?? []) {
      stmt('DELETE FROM vectors WHERE space = ? AND id = ?').run(v.space, v.id)
      yield
    }
    if (batch.task !== undefined) putTask(batch.task)
  }

  const applyTx = db.transaction((batch: WriteBatch) => {
    const steps = writes(batch)
    while (!steps.next().done);
  })

  /**
   * A large batch in one transaction too (BEGIN IMMEDIATE ... COMMIT), but with an event-loop turn
   * every ~10 ms: the few seconds a multi-megabyte text takes to write would otherwise stop the whole
   * server. Atomicity is SQLite's: a crash before COMMIT leaves none of it.
   */
  async function applySliced(batch: WriteBatch): Promise<void> {
    db.exec('BEGIN IMMEDIATE')
    try {
      const steps = writes(batch)
      const pause = loopYielder(sliceMs)
      while (!steps.next().done) {
        const turn = pause()
        if (turn !== undefined) await turn
      }
      commitLarge()
    } catch (error) {
      try {
        db.exec('ROLLBACK')
      } catch {
        // SQLite already rolled back (some errors end the transaction themselves).
      }
      throw error
    }
  }

  /** Checkpoints handed to another thread and not finished yet; the WAL auto-checkpoint is off meanwhile. */
  let checkpointing = 0
  let autoCheckpoint = 1000

  /**
   * COMMIT of a sliced transaction. The COMMIT that pushes the WAL past the auto-checkpoint size also
   * copies the whole WAL into the database file and syncs it, synchronously: after a multi-megabyte
   * text (and its vectors) that is hundreds of megabytes and one to two seconds of a stopped server.
   * With `checkpointElsewhere`, auto-checkpoints are off from this COMMIT until the other thread has
   * checkpointed (a checkpoint by another connection is ordinary SQLite WAL operation: it copies
   * committed frames only and never blocks this connection's readers or writer).
   */
  function commitLarge() {
    const elsewhere = options.checkpointElsewhere
    if (elsewhere === undefined) {
      db.exec('COMMIT')
      return
    }
    if (checkpointing === 0)
      autoCheckpoint = Number(db.pragma('wal_autocheckpoint', { simple: true }))
    checkpointing++
    db.pragma('wal_autocheckpoint = 0')
    try {
      db.exec('COMMIT')
    } finally {
      void elsewhere()
        .catch(() => {
          // Nothing lost: the next auto-checkpoint on this thread copies what this one did not.
        })
        .finally(() => {
          if (--checkpointing === 0) {
            try {
              db.pragma(`wal_autocheckpoint = ${autoCheckpoint}`)
            } catch {
              // The database was closed meanwhile (brain deleted or adapter closed).
            }
          }
        })
    }
  }

  /**
   * Settles (never rejects) when the sliced transaction in progress ends; null when none is. Every
   * other call on this connection waits for it: a write would join the open transaction (a task
   * record acknowledged with 202 would then depend on its COMMIT), a read would see its uncommitted
   * rows. Calls on other brains, which have their own connections, do not wait.
   */
  let sliced: Promise<void> | null = null

  function putTask(t: Task) {
    stmt(
      'INSERT INTO tasks (id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status, created_at = excluded.created_at, ended_at = excluded.ended_at, data = excluded.data',
    ).run(t.id, t.status, t.createdAt, t.endedAt, JSON.stringify(t))
  }

  function paged<T>(
    table: string,
    where: string[],
    params: unknown[],
    order: string,
    limit: number,
    skip: number,
  ): Paged<T> {
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
    const total = (
      stmt(`SELECT count(*) AS n FROM ${table} ${clause}`).get(...params) as { n: number }
    ).n
    const rows = stmt(`SELECT data FROM ${table} ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
      ...params,
      limit,
      skip,
    )
    return { items: rows.map((r) => parse<T>(r)), total }
  }

  const byIds = <T>(table: string, key: string, ids: string[]): T[] => {
    if (ids.length === 0) return []
    const found = new Map<string, T>()
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500)
      for (const row of stmt(
        `SELECT ${key} AS k, data FROM ${table} WHERE ${key} IN (${inList(chunk)})`,
      ).all(...chunk)) {
        found.set((row as { k: string }).k, parse<T>(row))
      }
    }
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []))
  }

  const scan = <T>(table: string, key: string, after: string | null, limit: number): T[] =>
    stmt(`SELECT data FROM ${table} WHERE ${key} > ? ORDER BY ${key} LIMIT ?`)
      .all(after ?? '', limit)
      .map((r) => parse<T>(r))

  const column = (sql: string): string[] =>
    stmt(sql)
      .all()
      .map((r) => String((r as Row).v))

  const store: BrainStore = {
    brainId,
    snapshotDir: options.snapshotDir ?? null,
    async apply(batch) {
      if (recordCount(batch) <= slicedAbove) return applyTx(batch)
      const done = applySliced(batch)
      const release = () => {
        sliced = null
      }
      sliced = done.then(release, release)
      return done
    },
    async getPassages(ids) {
      return byIds<Passage>('passages', 'id', ids)
    },
    async listPassages(q) {
      return q.source === undefined
        ? paged<Passage>('passages', [], [], 'inserted_at DESC, id DESC', q.limit, q.skip)
        : paged<Passage>(
            'passages',
            ['source = ?'],
            [q.source],
            'inserted_at DESC, id DESC',
            q.limit,
            q.skip,
          )
    },
    async scanPassages(after, limit) {
      return scan<Passage>('passages', 'id', after, limit)
    },
    async getEntities(uuids) {
      return byIds<Entity>('entities', 'uuid', uuids)
    },
    async findEntitiesByName(normalizedName) {
      return stmt(
        'SELECT e.data FROM entity_names n JOIN entities e ON e.uuid = n.uuid WHERE n.norm = ? ORDER BY e.uuid',
      )
        .all(normalizedName)
        .map((r) => parse<Entity>(r))
    },
    async listEntities(q) {
      const where: string[] = []
      const params: unknown[] = []
      if (q.labels !== undefined && q.labels.length > 0) {
        where.push(`uuid IN (SELECT uuid FROM entity_labels WHERE label IN (${inList(q.labels)}))`)
        params.push(...q.labels)
      }
      if (q.queryText) {
        where.push(LIKE('name'))
        params.push(q.queryText)
      }
      return paged<Entity>(
        'entities',
        where,
        params,
        'last_updated DESC, uuid DESC',
        q.limit,
        q.skip,
      )
    },
    async scanEntities(after, limit) {
      return scan<Entity>('entities', 'uuid', after, limit)
    },
    async getRelationships(uuids) {
      return byIds<Relationship>('relationships', 'uuid', uuids)
    },
    async relationshipsOf(uuid) {
      return stmt(
        'SELECT data FROM relationships WHERE subject_uuid = ? UNION ALL SELECT data FROM relationships WHERE object_uuid = ? AND subject_uuid <> ?',
      )
        .all(uuid, uuid, uuid)
        .map((r) => parse<Relationship>(r))
    },
    async listRelationships(q) {
      const where: string[] = []
      const params: unknown[] = []
      if (q.types !== undefined && q.types.length > 0) {
        where.push(`r.name IN (${inList(q.types)})`)
        params.push(...q.types)
      }
      if (q.fromLabels !== undefined && q.fromLabels.length > 0) {
        where.push(
          `r.subject_uuid IN (SELECT uuid FROM entity_labels WHERE label IN (${inList(q.fromLabels)}))`,
        )
        params.push(...q.fromLabels)
      }
      if (q.toLabels !== undefined && q.toLabels.length > 0) {
        where.push(
          `r.object_uuid IN (SELECT uuid FROM entity_labels WHERE label IN (${inList(q.toLabels)}))`,
        )
        params.push(...q.toLabels)
      }
      if (q.queryText) {
        const target = q.target ?? 'all'
        if (target === 'source') {
          where.push(LIKE('s.name'))
          params.push(q.queryText)
        } else if (target === 'target') {
          where.push(LIKE('o.name'))
          params.push(q.queryText)
        } else {
          where.push(
            `(${LIKE('s.name')} OR ${LIKE('o.name')} OR ${LIKE(`coalesce(${JSON_AT('r.data', '$.description')}, '')`)})`,
          )
          params.push(q.queryText, q.queryText, q.queryText)
        }
      }
      const from =
        'relationships r JOIN entities s ON s.uuid = r.subject_uuid JOIN entities o ON o.uuid = r.object_uuid'
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
      const total = (
        stmt(`SELECT count(*) AS n FROM ${from} ${clause}`).get(...params) as { n: number }
      ).n
      const rows = stmt(
        `SELECT r.data AS r, s.data AS s, o.data AS o FROM ${from} ${clause} ORDER BY r.last_updated DESC, r.uuid DESC LIMIT ? OFFSET ?`,
      ).all(...params, q.limit, q.skip) as { r: string; s: string; o: string }[]
      const items: Triple[] = rows.map((row) => ({
        subject: JSON.parse(row.s),
        predicate: JSON.parse(row.r),
        object: JSON.parse(row.o),
      }))
      return { items, total }
    },
    async scanRelationships(after, limit) {
      return scan<Relationship>('relationships', 'uuid', after, limit)
    },
    async getObservation(id) {
      const row = stmt('SELECT data FROM observations WHERE id = ?').get(id)
      return row === undefined ? null : parse<Observation>(row)
    },
    async listObservations(q) {
      const where: string[] = []
      const params: unknown[] = []
      if (q.resourceId !== undefined) {
        where.push('resource_id = ?')
        params.push(q.resourceId)
      }
      if (q.labels !== undefined && q.labels.length > 0) {
        where.push(
          `EXISTS (SELECT 1 FROM json_each(${JSON_AT('data', '$.metadata.labels')}) WHERE value IN (${inList(q.labels)}))`,
        )
        params.push(...q.labels)
      }
      if (q.queryText) {
        where.push(LIKE(JSON_AT('data', '$.text')))
        params.push(q.queryText)
      }
      return paged<Observation>(
        'observations',
        where,
        params,
        'inserted_at DESC, id DESC',
        q.limit,
        q.skip,
      )
    },
    async observationLabels() {
      return column(
        `SELECT DISTINCT j.value AS v FROM observations, json_each(${JSON_AT('observations.data', '$.metadata.labels')}) j WHERE ${GUARDED_JSON('json_type', 'observations.data', '$.metadata.labels')} = 'array' ORDER BY v`,
      )
    },
    async getStructured(id) {
      const row = stmt('SELECT data FROM structured WHERE id = ?').get(id)
      return row === undefined ? null : parse<StructuredRecord>(row)
    },
    async listStructured(q) {
      const where: string[] = []
      const params: unknown[] = []
      if (q.types !== undefined && q.types.length > 0) {
        where.push(
          `EXISTS (SELECT 1 FROM json_each(${JSON_AT('data', '$.types')}) WHERE value IN (${inList(q.types)}))`,
        )
        params.push(...q.types)
      }
      if (q.queryText) {
        where.push(LIKE('data'))
        params.push(q.queryText)
      }
      return paged<StructuredRecord>(
        'structured',
        where,
        params,
        'inserted_at DESC, id DESC',
        q.limit,
        q.skip,
      )
    },
    async structuredTypes() {
      return column(
        `SELECT DISTINCT j.value AS v FROM structured, json_each(${JSON_AT('structured.data', '$.types')}) j ORDER BY v`,
      )
    },
    async getChangelog(id) {
      const row = stmt('SELECT seq, data FROM changelog WHERE id = ?').get(id) as
        { seq: number; data: string } | undefined
      return row === undefined ? null : { ...parse<Omit<ChangelogEntry, 'seq'>>(row), seq: row.seq }
    },
    async listChangelog(q) {
      const where: string[] = []
      const params: unknown[] = []
      if (q.types !== undefined && q.types.length > 0) {
        where.push(`type IN (${inList(q.types)})`)
        params.push(...q.types)
      }
      if (q.queryText) {
        where.push(LIKE(JSON_AT('data', '$.change')))
        params.push(q.queryText)
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
      const total = (
        stmt(`SELECT count(*) AS n FROM changelog ${clause}`).get(...params) as { n: number }
      ).n
      const rows = stmt(
        `SELECT seq, data FROM changelog ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`,
      ).all(...params, q.limit, q.skip) as { seq: number; data: string }[]
      return {
        items: rows.map((r) => ({ ...parse<Omit<ChangelogEntry, 'seq'>>(r), seq: r.seq })),
        total,
      }
    },
    async changelogTypes() {
      return column('SELECT DISTINCT type AS v FROM changelog ORDER BY v')
    },
    async changelogSince(afterSeq, limit) {
      const rows = stmt('SELECT seq, data FROM changelog WHERE seq > ? ORDER BY seq LIMIT ?').all(
        afterSeq,
        limit,
      ) as { seq: number; data: string }[]
      return rows.map((r) => ({ ...parse<Omit<ChangelogEntry, 'seq'>>(r), seq: r.seq }))
    },
    async createTask(task) {
      const created =
        stmt(
          'INSERT OR IGNORE INTO tasks (id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?)',
        ).run(task.id, task.status, task.createdAt, task.endedAt, JSON.stringify(task)).changes ===
        1
      if (created) return { task, created }
      return {
        task: parse<Task>(stmt('SELECT data FROM tasks WHERE id = ?').get(task.id)),
        created,
      }
    },
    async getTask(id) {
      const row = stmt('SELECT data FROM tasks WHERE id = ?').get(id)
      return row === undefined ? null : parse<Task>(row)
    },
    async putTask(task) {
      putTask(task)
    },
    async listTasks(q) {
      return stmt('SELECT data FROM tasks ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?')
        .all(q.limit, q.skip)
        .map((r) => parse<Task>(r))
    },
    async tasksInStatus(statuses) {
      if (statuses.length === 0) return []
      return stmt(
        `SELECT data FROM tasks WHERE status IN (${inList(statuses)}) ORDER BY created_at, id`,
      )
        .all(...statuses)
        .map((r) => parse<Task>(r))
    },
    async deleteTasksEndedBefore(endedBefore) {
      return stmt(
        "DELETE FROM tasks WHERE status IN ('completed', 'partial_failed', 'failed') AND ended_at IS NOT NULL AND ended_at < ?",
      ).run(endedBefore).changes
    },
    async getVectors(space, ids) {
      if (ids.length === 0) return []
      const found = new Map<string, Float32Array>()
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500)
        for (const row of stmt(
          `SELECT id, vector FROM vectors WHERE space = ? AND id IN (${inList(chunk)})`,
        ).all(space, ...chunk) as { id: string; vector: Buffer }[]) {
          found.set(row.id, fromBlob(row.vector))
        }
      }
      return ids.flatMap((id): VectorRecord[] =>
        found.has(id) ? [{ space, id, vector: found.get(id)! }] : [],
      )
    },
    async scanVectors(space, after, limit) {
      const rows = stmt(
        'SELECT id, vector FROM vectors WHERE space = ? AND id > ? ORDER BY id LIMIT ?',
      ).all(space, after ?? '', limit) as { id: string; vector: Buffer }[]
      return rows.map((row) => ({ space, id: row.id, vector: fromBlob(row.vector) }))
    },
    async getMeta(key) {
      const row = stmt('SELECT value FROM meta WHERE key = ?').get(key) as
        { value: string } | undefined
      return row?.value ?? null
    },
    async setMeta(key, value) {
      stmt(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      ).run(key, value)
    },
    async getSnapshot(name) {
      const row = stmt('SELECT data FROM snapshots WHERE name = ?').get(name) as
        { data: Buffer } | undefined
      return row === undefined ? null : new Uint8Array(row.data)
    },
    async putSnapshot(name, data) {
      stmt(
        'INSERT INTO snapshots (name, data) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET data = excluded.data',
      ).run(name, Buffer.from(data))
    },
    async entityLabels() {
      return column('SELECT DISTINCT label AS v FROM entity_labels ORDER BY v')
    },
    async entityPropertyKeys() {
      return column(
        `SELECT DISTINCT j.key AS v FROM entities, json_each(${JSON_AT('entities.data', '$.properties')}) j ORDER BY v`,
      )
    },
    async relationshipNames() {
      return column('SELECT DISTINCT name AS v FROM relationships ORDER BY v')
    },
    async stats(): Promise<BrainStats> {
      const n = (table: string) =>
        (stmt(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
      return {
        passages: n('passages'),
        entities: n('entities'),
        relationships: n('relationships'),
        observations: n('observations'),
        structured: n('structured'),
        changelog: n('changelog'),
        tasks: n('tasks'),
        vectors: n('vectors'),
      }
    },
  }

  // Every method waits while a sliced transaction is open (see `sliced`); otherwise it runs at once.
  for (const [name, method] of Object.entries(store)) {
    if (typeof method !== 'function') continue
    const call = method as (...args: unknown[]) => Promise<unknown>
    ;(store as unknown as Record<string, unknown>)[name] = (...args: unknown[]) =>
      sliced === null ? call(...args) : waitThen(call, args)
  }
  async function waitThen(call: (...args: unknown[]) => Promise<unknown>, args: unknown[]) {
    while (sliced !== null) await sliced
    return call(...args)
  }
  return store
}
