import type {
  BrainStore,
  Entity,
  Observation,
  Paged,
  Passage,
  Relationship,
  StructuredRecord,
  Task,
  Triple,
  VectorRecord,
} from '@engram/core'
import { vectorFromBytes } from '@engram/core'
import { sqliteChangelogRepository } from './sqlite-changelog-repository.js'
import type { SqliteStatementLike } from './sqlite-database-like.js'
import { sqliteSourceRepositories } from './sqlite-source-repositories.js'
import { GUARDED_JSON, inList, JSON_AT, LIKE, parse, type Row } from './sqlite-sql.js'

/** The read repositories of a brain store (everything but `apply`, `stats` and the names). */
export type SqliteRepositories = Omit<
  BrainStore,
  'brainId' | 'snapshotDir' | 'apply' | 'stats' | 'purge'
>

/** Passages written before sources existed have no `sourceId` in their JSON (migration 2). */
const withSourceId = (p: Passage): Passage =>
  p.sourceId === undefined ? { ...p, sourceId: null } : p

/**
 * The repositories of one brain over its SQLite connection. `stmt` prepares (once) on that connection;
 * `putTask` is the task upsert `apply` also uses, so both write a task the same way. `commits` runs each
 * write made outside `apply` (task records, meta), each its own transaction, as the store commits them
 * (`createSqliteBrainStore`: never a WAL checkpoint on the caller's thread).
 */
export function sqliteRepositories(
  stmt: (sql: string) => SqliteStatementLike,
  putTask: (task: Task) => void,
  commits: <T>(write: () => T) => T = (write) => write(),
): SqliteRepositories {
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
    // The page's rows are found first by rowid, so a deep `skip` steps over index entries, not rows.
    const rows = stmt(
      `SELECT data FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} ${clause} ORDER BY ${order} LIMIT ? OFFSET ?) ORDER BY ${order}`,
    ).all(...params, limit, skip)
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

  return {
    passages: {
      async get(ids) {
        return byIds<Passage>('passages', 'id', ids).map(withSourceId)
      },
      async list(q) {
        const where: string[] = []
        const params: unknown[] = []
        if (q.source !== undefined) {
          where.push('source = ?')
          params.push(q.source)
        }
        if (q.sourceId !== undefined) {
          where.push('source_id = ?')
          params.push(q.sourceId)
        }
        const order =
          q.sourceId !== undefined
            ? `${JSON_AT('data', '$.position')}, id`
            : 'inserted_at DESC, id DESC'
        const page = paged<Passage>('passages', where, params, order, q.limit, q.skip)
        return { items: page.items.map(withSourceId), total: page.total }
      },
      async scan(after, limit) {
        return scan<Passage>('passages', 'id', after, limit).map(withSourceId)
      },
    },
    entities: {
      async get(uuids) {
        return byIds<Entity>('entities', 'uuid', uuids)
      },
      async findByName(normalizedName) {
        return stmt(
          'SELECT e.data FROM entity_names n JOIN entities e ON e.uuid = n.uuid WHERE n.norm = ? ORDER BY e.uuid',
        )
          .all(normalizedName)
          .map((r) => parse<Entity>(r))
      },
      async list(q) {
        const where: string[] = []
        const params: unknown[] = []
        if (q.labels !== undefined && q.labels.length > 0) {
          where.push(
            `uuid IN (SELECT uuid FROM entity_labels WHERE label IN (${inList(q.labels)}))`,
          )
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
      async scan(after, limit) {
        return scan<Entity>('entities', 'uuid', after, limit)
      },
      async labels() {
        return column('SELECT DISTINCT label AS v FROM entity_labels ORDER BY v')
      },
      async propertyKeys() {
        return column(
          `SELECT DISTINCT j.key AS v FROM entities, json_each(${JSON_AT('entities.data', '$.properties')}) j ORDER BY v`,
        )
      },
    },
    relationships: {
      async get(uuids) {
        return byIds<Relationship>('relationships', 'uuid', uuids)
      },
      async of(uuid) {
        return stmt(
          'SELECT data FROM relationships WHERE subject_uuid = ? UNION ALL SELECT data FROM relationships WHERE object_uuid = ? AND subject_uuid <> ?',
        )
          .all(uuid, uuid, uuid)
          .map((r) => parse<Relationship>(r))
      },
      async list(q) {
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
        const joined =
          'relationships r JOIN entities s ON s.uuid = r.subject_uuid JOIN entities o ON o.uuid = r.object_uuid'
        // Only a text filter reads the endpoints' names; otherwise the count and the page are chosen
        // over the relationships alone (an entity lookup per relationship was most of a deep page's
        // cost, and grew with the brain: benchmarks/results/op-growth.md). The engine deletes an
        // entity's relationships with it, so no relationship lacks an endpoint; one that did would
        // be counted but not listed.
        const from = q.queryText ? joined : 'relationships r'
        const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''
        const total = (
          stmt(`SELECT count(*) AS n FROM ${from} ${clause}`).get(...params) as { n: number }
        ).n
        // The page's relationships are chosen over the indexes (order, endpoints), then read.
        const rows = stmt(
          `SELECT r.data AS r, s.data AS s, o.data AS o FROM ${joined} WHERE r.rowid IN (SELECT r.rowid FROM ${from} ${clause} ORDER BY r.last_updated DESC, r.uuid DESC LIMIT ? OFFSET ?) ORDER BY r.last_updated DESC, r.uuid DESC`,
        ).all(...params, q.limit, q.skip) as { r: string; s: string; o: string }[]
        const items: Triple[] = rows.map((row) => ({
          subject: JSON.parse(row.s),
          predicate: JSON.parse(row.r),
          object: JSON.parse(row.o),
        }))
        return { items, total }
      },
      async scan(after, limit) {
        return scan<Relationship>('relationships', 'uuid', after, limit)
      },
      async names() {
        return column('SELECT DISTINCT name AS v FROM relationships ORDER BY v')
      },
    },
    observations: {
      async get(id) {
        const row = stmt('SELECT data FROM observations WHERE id = ?').get(id)
        return row === undefined ? null : parse<Observation>(row)
      },
      async list(q) {
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
      async ofResources(resourceIds, limitEach) {
        const newest = stmt(
          'SELECT data FROM observations WHERE resource_id = ? ORDER BY inserted_at DESC, id DESC LIMIT ?',
        )
        return resourceIds.map((id) => newest.all(id, limitEach).map((r) => parse<Observation>(r)))
      },
      async labels() {
        return column(
          `SELECT DISTINCT j.value AS v FROM observations, json_each(${JSON_AT('observations.data', '$.metadata.labels')}) j WHERE ${GUARDED_JSON('json_type', 'observations.data', '$.metadata.labels')} = 'array' ORDER BY v`,
        )
      },
    },
    structured: {
      async get(id) {
        const row = stmt('SELECT data FROM structured WHERE id = ?').get(id)
        return row === undefined ? null : parse<StructuredRecord>(row)
      },
      async list(q) {
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
      async types() {
        return column(
          `SELECT DISTINCT j.value AS v FROM structured, json_each(${JSON_AT('structured.data', '$.types')}) j ORDER BY v`,
        )
      },
    },
    changelog: sqliteChangelogRepository(stmt),
    ...sqliteSourceRepositories(stmt),
    tasks: {
      async create(task) {
        const created =
          commits(() =>
            stmt(
              'INSERT OR IGNORE INTO tasks (id, status, created_at, ended_at, data) VALUES (?, ?, ?, ?, ?)',
            ).run(task.id, task.status, task.createdAt, task.endedAt, JSON.stringify(task)),
          ).changes === 1
        if (created) return { task, created }
        return {
          task: parse<Task>(stmt('SELECT data FROM tasks WHERE id = ?').get(task.id)),
          created,
        }
      },
      async get(id) {
        const row = stmt('SELECT data FROM tasks WHERE id = ?').get(id)
        return row === undefined ? null : parse<Task>(row)
      },
      async put(task) {
        commits(() => putTask(task))
      },
      async list(q, statuses) {
        if (statuses === undefined)
          return stmt('SELECT data FROM tasks ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?')
            .all(q.limit, q.skip)
            .map((r) => parse<Task>(r))
        if (statuses.length === 0) return []
        return stmt(
          `SELECT data FROM tasks WHERE status IN (${inList(statuses)}) ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        )
          .all(...statuses, q.limit, q.skip)
          .map((r) => parse<Task>(r))
      },
      async inStatus(statuses) {
        if (statuses.length === 0) return []
        return stmt(
          `SELECT data FROM tasks WHERE status IN (${inList(statuses)}) ORDER BY created_at, id`,
        )
          .all(...statuses)
          .map((r) => parse<Task>(r))
      },
      async deleteEndedBefore(endedBefore) {
        const ended =
          "FROM tasks WHERE status IN ('completed', 'partial_failed', 'failed') AND ended_at IS NOT NULL AND ended_at < ?"
        // The retention sweep asks every brain at start and hourly, and most have nothing to delete: a
        // read then, not a commit (which would hand a checkpoint to another thread, one per brain).
        if (stmt(`SELECT 1 ${ended} LIMIT 1`).get(endedBefore) === undefined) return 0
        return commits(() => stmt(`DELETE ${ended}`).run(endedBefore)).changes
      },
    },
    vectors: {
      async get(space, ids) {
        if (ids.length === 0) return []
        const found = new Map<string, Float32Array>()
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500)
          for (const row of stmt(
            `SELECT id, vector FROM vectors WHERE space = ? AND id IN (${inList(chunk)})`,
          ).all(space, ...chunk) as { id: string; vector: Buffer }[]) {
            found.set(row.id, vectorFromBytes(row.vector))
          }
        }
        return ids.flatMap((id): VectorRecord[] =>
          found.has(id) ? [{ space, id, vector: found.get(id)! }] : [],
        )
      },
      async scan(space, after, limit) {
        const rows = stmt(
          'SELECT id, vector FROM vectors WHERE space = ? AND id > ? ORDER BY id LIMIT ?',
        ).all(space, after ?? '', limit) as { id: string; vector: Buffer }[]
        return rows.map((row) => ({ space, id: row.id, vector: vectorFromBytes(row.vector) }))
      },
    },
    meta: {
      async get(key) {
        const row = stmt('SELECT value FROM meta WHERE key = ?').get(key) as
          { value: string } | undefined
        return row?.value ?? null
      },
      async set(key, value) {
        commits(() =>
          stmt(
            'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
          ).run(key, value),
        )
      },
    },
  }
}
