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
import { postgresChangelogRepository } from './postgres-changelog-repository.js'
import { TASKS_CHANNEL } from './postgres-notifications.js'
import { putTask } from './postgres-put-task.js'
import { postgresSourceRepositories } from './postgres-source-repositories.js'
import { JSON_ARRAY, JSON_OBJECT, LIKE, parse, type Queryable } from './postgres-sql.js'

/** The read repositories of a brain store (everything but `apply`, `stats` and the names). */
export type PostgresRepositories = Omit<
  BrainStore,
  'brainId' | 'snapshotDir' | 'apply' | 'stats' | 'purge'
>

/** Passages written before sources existed have no `sourceId` in their JSON (migration 3). */
const withSourceId = (p: Passage): Passage =>
  p.sourceId === undefined ? { ...p, sourceId: null } : p

type DataRow = { data: string }

/** A WHERE clause under construction; `$1` is always the brain id. */
class Filter {
  readonly where = ['brain_id = $1']
  readonly params: unknown[]
  constructor(
    brainId: string,
    private readonly alias = '',
  ) {
    this.params = [brainId]
    if (alias !== '') this.where[0] = `${alias}.brain_id = $1`
  }
  /** Adds a condition built from the next parameter's number. */
  add(condition: (n: number) => string, value: unknown) {
    this.params.push(value)
    this.where.push(condition(this.params.length))
  }
  get clause() {
    return `WHERE ${this.where.join(' AND ')}`
  }
  /** The next two parameter numbers, for LIMIT and OFFSET. */
  get page() {
    return `LIMIT $${this.params.length + 1} OFFSET $${this.params.length + 2}`
  }
}

/**
 * The repositories of one brain. Ordering and paging mirror the SQLite adapter: ids and timestamps
 * compare byte-wise ("C" collation columns), records come back from the JSON text they were written as.
 */
export function postgresRepositories(db: Queryable, brainId: string): PostgresRepositories {
  async function paged<T>(table: string, f: Filter, order: string, limit: number, skip: number) {
    const total = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} ${f.clause}`,
      f.params,
    )
    // The page's ids are chosen first, from the index on the order's columns where there is one
    // (migration 6), so a deep `skip` steps over index entries; only the page's rows are read.
    const { rows } = await db.query<DataRow>(
      `SELECT data::text AS data FROM ${table} WHERE brain_id = $1 AND id IN (
         SELECT id FROM ${table} ${f.clause} ORDER BY ${order} ${f.page}) ORDER BY ${order}`,
      [...f.params, limit, skip],
    )
    return { items: rows.map((r) => parse<T>(r)), total: total.rows[0]!.n } satisfies Paged<T>
  }

  async function byIds<T>(table: string, ids: string[]): Promise<T[]> {
    if (ids.length === 0) return []
    const { rows } = await db.query<DataRow & { id: string }>(
      `SELECT id, data::text AS data FROM ${table} WHERE brain_id = $1 AND id = ANY($2::text[])`,
      [brainId, ids],
    )
    const found = new Map(rows.map((r) => [r.id, parse<T>(r)]))
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []))
  }

  async function one<T>(table: string, id: string): Promise<T | null> {
    const { rows } = await db.query<DataRow>(
      `SELECT data::text AS data FROM ${table} WHERE brain_id = $1 AND id = $2`,
      [brainId, id],
    )
    return rows.length === 0 ? null : parse<T>(rows[0]!)
  }

  async function scan<T>(table: string, after: string | null, limit: number): Promise<T[]> {
    const { rows } = await db.query<DataRow>(
      `SELECT data::text AS data FROM ${table} WHERE brain_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [brainId, after ?? '', limit],
    )
    return rows.map((r) => parse<T>(r))
  }

  /** A sorted single-column facet (`v`), byte-wise like SQLite. */
  async function column(sql: string): Promise<string[]> {
    const { rows } = await db.query<{ v: unknown }>(sql, [brainId])
    return rows.map((r) => String(r.v))
  }

  const hasLabel = (column: string) => (n: number) =>
    `${column} IN (SELECT id FROM entity_labels WHERE brain_id = $1 AND label = ANY($${n}::text[]))`

  return {
    passages: {
      get: async (ids) => (await byIds<Passage>('passages', ids)).map(withSourceId),
      async list(q) {
        const f = new Filter(brainId)
        if (q.source !== undefined) f.add((n) => `source = $${n}`, q.source)
        if (q.sourceId !== undefined) f.add((n) => `source_id = $${n}`, q.sourceId)
        // A source's passages in reading order: `position` lives in the JSON (integers, so the
        // numeric cast cannot fail on a record the schema accepted).
        const order =
          q.sourceId !== undefined
            ? `(data ->> 'position')::numeric, id`
            : 'inserted_at DESC, id DESC'
        const page = await paged<Passage>('passages', f, order, q.limit, q.skip)
        return { items: page.items.map(withSourceId), total: page.total }
      },
      scan: async (after, limit) =>
        (await scan<Passage>('passages', after, limit)).map(withSourceId),
    },
    entities: {
      get: (uuids) => byIds<Entity>('entities', uuids),
      async findByName(normalizedName) {
        const { rows } = await db.query<DataRow>(
          `SELECT e.data::text AS data FROM entity_names n JOIN entities e ON e.brain_id = n.brain_id AND e.id = n.id
           WHERE n.brain_id = $1 AND n.norm = $2 ORDER BY e.id`,
          [brainId, normalizedName],
        )
        return rows.map((r) => parse<Entity>(r))
      },
      async list(q) {
        const f = new Filter(brainId)
        if (q.labels !== undefined && q.labels.length > 0) f.add(hasLabel('id'), q.labels)
        if (q.queryText) f.add((n) => LIKE('name', n), q.queryText)
        return paged<Entity>('entities', f, 'last_updated DESC, id DESC', q.limit, q.skip)
      },
      scan: (after, limit) => scan<Entity>('entities', after, limit),
      labels: () =>
        column('SELECT DISTINCT label AS v FROM entity_labels WHERE brain_id = $1 ORDER BY v'),
      propertyKeys: () =>
        column(
          `SELECT DISTINCT k COLLATE "C" AS v FROM entities, json_object_keys(${JSON_OBJECT("data -> 'properties'")}) k
           WHERE brain_id = $1 ORDER BY v`,
        ),
    },
    relationships: {
      get: (uuids) => byIds<Relationship>('relationships', uuids),
      async of(uuid) {
        const { rows } = await db.query<DataRow>(
          `SELECT data::text AS data FROM relationships WHERE brain_id = $1 AND subject_id = $2
           UNION ALL
           SELECT data::text AS data FROM relationships WHERE brain_id = $1 AND object_id = $2 AND subject_id <> $2`,
          [brainId, uuid],
        )
        return rows.map((r) => parse<Relationship>(r))
      },
      async list(q) {
        const f = new Filter(brainId, 'r')
        if (q.types !== undefined && q.types.length > 0)
          f.add((n) => `r.name = ANY($${n}::text[])`, q.types)
        if (q.fromLabels !== undefined && q.fromLabels.length > 0)
          f.add(hasLabel('r.subject_id'), q.fromLabels)
        if (q.toLabels !== undefined && q.toLabels.length > 0)
          f.add(hasLabel('r.object_id'), q.toLabels)
        if (q.queryText) {
          const target = q.target ?? 'all'
          if (target === 'source') f.add((n) => LIKE('s.name', n), q.queryText)
          else if (target === 'target') f.add((n) => LIKE('o.name', n), q.queryText)
          else
            f.add(
              (n) =>
                `(${LIKE('s.name', n)} OR ${LIKE('o.name', n)} OR ${LIKE(`coalesce(r.data ->> 'description', '')`, n)})`,
              q.queryText,
            )
        }
        const joined = `relationships r
          JOIN entities s ON s.brain_id = r.brain_id AND s.id = r.subject_id
          JOIN entities o ON o.brain_id = r.brain_id AND o.id = r.object_id`
        // Only a text filter reads the endpoints' names; otherwise the count and the page are chosen
        // over the relationships alone (see the SQLite adapter: the engine deletes an entity's
        // relationships with it, so none lacks an endpoint; one that did would be counted, not listed).
        const from = q.queryText ? joined : 'relationships r'
        const total = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${from} ${f.clause}`,
          f.params,
        )
        // The page's relationships are chosen over the indexes (order, endpoints), then read.
        const { rows } = await db.query<{ r: string; s: string; o: string }>(
          `SELECT r.data::text AS r, s.data::text AS s, o.data::text AS o FROM ${joined}
           WHERE r.brain_id = $1 AND r.id IN (
             SELECT r.id FROM ${from} ${f.clause} ORDER BY r.last_updated DESC, r.id DESC ${f.page})
           ORDER BY r.last_updated DESC, r.id DESC`,
          [...f.params, q.limit, q.skip],
        )
        const items: Triple[] = rows.map((row) => ({
          subject: JSON.parse(row.s) as Entity,
          predicate: JSON.parse(row.r) as Relationship,
          object: JSON.parse(row.o) as Entity,
        }))
        return { items, total: total.rows[0]!.n }
      },
      scan: (after, limit) => scan<Relationship>('relationships', after, limit),
      names: () =>
        column('SELECT DISTINCT name AS v FROM relationships WHERE brain_id = $1 ORDER BY v'),
    },
    observations: {
      get: (id) => one<Observation>('observations', id),
      async list(q) {
        const f = new Filter(brainId)
        if (q.resourceId !== undefined) f.add((n) => `resource_id = $${n}`, q.resourceId)
        if (q.labels !== undefined && q.labels.length > 0)
          f.add(
            (n) =>
              `EXISTS (SELECT 1 FROM json_array_elements_text(${JSON_ARRAY("data -> 'metadata' -> 'labels'")}) l WHERE l = ANY($${n}::text[]))`,
            q.labels,
          )
        if (q.queryText) f.add((n) => LIKE(`coalesce(data ->> 'text', '')`, n), q.queryText)
        return paged<Observation>('observations', f, 'inserted_at DESC, id DESC', q.limit, q.skip)
      },
      async ofResources(resourceIds, limitEach) {
        // One statement: per id, its newest from the (brain_id, resource_id) index.
        const { rows } = await db.query<DataRow & { r: string }>(
          `SELECT r.id AS r, o.data::text AS data FROM unnest($2::text[]) AS r(id)
           CROSS JOIN LATERAL (SELECT data, inserted_at, id FROM observations
             WHERE brain_id = $1 AND resource_id = r.id
             ORDER BY inserted_at DESC, id DESC LIMIT $3) o
           ORDER BY r.id, o.inserted_at DESC, o.id DESC`,
          [brainId, [...new Set(resourceIds)], limitEach],
        )
        const of = new Map<string, Observation[]>()
        for (const row of rows) {
          const list = of.get(row.r) ?? []
          list.push(parse<Observation>(row))
          of.set(row.r, list)
        }
        return resourceIds.map((id) => of.get(id) ?? [])
      },
      labels: () =>
        column(
          `SELECT DISTINCT l COLLATE "C" AS v FROM observations,
             json_array_elements_text(${JSON_ARRAY("data -> 'metadata' -> 'labels'")}) l
           WHERE brain_id = $1 ORDER BY v`,
        ),
    },
    structured: {
      get: (id) => one<StructuredRecord>('structured', id),
      async list(q) {
        const f = new Filter(brainId)
        if (q.types !== undefined && q.types.length > 0)
          f.add(
            (n) =>
              `EXISTS (SELECT 1 FROM json_array_elements_text(${JSON_ARRAY("data -> 'types'")}) t WHERE t = ANY($${n}::text[]))`,
            q.types,
          )
        if (q.queryText) f.add((n) => LIKE('data::text', n), q.queryText)
        return paged<StructuredRecord>(
          'structured',
          f,
          'inserted_at DESC, id DESC',
          q.limit,
          q.skip,
        )
      },
      types: () =>
        column(
          `SELECT DISTINCT t COLLATE "C" AS v FROM structured, json_array_elements_text(${JSON_ARRAY("data -> 'types'")}) t
           WHERE brain_id = $1 ORDER BY v`,
        ),
    },
    changelog: postgresChangelogRepository(db, brainId),
    ...postgresSourceRepositories(db, brainId),
    tasks: {
      async create(task) {
        const inserted = await db.query(
          `INSERT INTO tasks (brain_id, id, status, created_at, ended_at, data) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (brain_id, id) DO NOTHING`,
          [brainId, task.id, task.status, task.createdAt, task.endedAt, JSON.stringify(task)],
        )
        if (inserted.rowCount === 1) {
          // Processes that run tasks claim it now rather than at their next poll.
          await db.query(`SELECT pg_notify('${TASKS_CHANNEL}', '')`)
          return { task, created: true }
        }
        return { task: (await one<Task>('tasks', task.id))!, created: false }
      },
      get: (id) => one<Task>('tasks', id),
      put: (task) => putTask(db, brainId, task),
      async list(page, statuses) {
        if (statuses?.length === 0) return []
        const { rows } = await db.query<DataRow>(
          statuses === undefined
            ? `SELECT data::text AS data FROM tasks WHERE brain_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`
            : `SELECT data::text AS data FROM tasks WHERE brain_id = $1 AND status = ANY($4::text[]) ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
          statuses === undefined
            ? [brainId, page.limit, page.skip]
            : [brainId, page.limit, page.skip, statuses],
        )
        return rows.map((r) => parse<Task>(r))
      },
      async inStatus(statuses) {
        if (statuses.length === 0) return []
        const { rows } = await db.query<DataRow>(
          `SELECT data::text AS data FROM tasks WHERE brain_id = $1 AND status = ANY($2::text[]) ORDER BY created_at, id`,
          [brainId, statuses],
        )
        return rows.map((r) => parse<Task>(r))
      },
      async deleteEndedBefore(endedBefore) {
        const { rowCount } = await db.query(
          `DELETE FROM tasks WHERE brain_id = $1 AND status IN ('completed', 'partial_failed', 'failed')
             AND ended_at IS NOT NULL AND ended_at < $2`,
          [brainId, endedBefore],
        )
        return rowCount ?? 0
      },
    },
    vectors: {
      async get(space, ids) {
        if (ids.length === 0) return []
        const { rows } = await db.query<{ id: string; vector: Buffer }>(
          'SELECT id, vector FROM vectors WHERE brain_id = $1 AND space = $2 AND id = ANY($3::text[])',
          [brainId, space, ids],
        )
        const found = new Map(rows.map((r) => [r.id, vectorFromBytes(r.vector)]))
        return ids.flatMap((id): VectorRecord[] =>
          found.has(id) ? [{ space, id, vector: found.get(id)! }] : [],
        )
      },
      async scan(space, after, limit) {
        const { rows } = await db.query<{ id: string; vector: Buffer }>(
          'SELECT id, vector FROM vectors WHERE brain_id = $1 AND space = $2 AND id > $3 ORDER BY id LIMIT $4',
          [brainId, space, after ?? '', limit],
        )
        return rows.map((row) => ({ space, id: row.id, vector: vectorFromBytes(row.vector) }))
      },
    },
    meta: {
      async get(key) {
        const { rows } = await db.query<{ value: string }>(
          'SELECT value FROM meta WHERE brain_id = $1 AND key = $2',
          [brainId, key],
        )
        return rows[0]?.value ?? null
      },
      async set(key, value) {
        await db.query(
          `INSERT INTO meta (brain_id, key, value) VALUES ($1, $2, $3)
           ON CONFLICT (brain_id, key) DO UPDATE SET value = excluded.value`,
          [brainId, key, value],
        )
      },
    },
  }
}
