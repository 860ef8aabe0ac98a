/** SQL helpers for records stored as a JSON `data` column beside their indexed columns. */

/** What the repositories need of a pool or a client: `query`. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>
}

/** Records are returned from the exact JSON text they were written as (`data::text`). */
export const parse = <T>(row: { data: string }): T => JSON.parse(row.data) as T

/** Case-insensitive substring test of `column` against parameter `$n`. */
export const LIKE = (column: string, n: number) => `strpos(lower(${column}), lower($${n})) > 0`

/**
 * `value` if it is a JSON array, else NULL (set-returning JSON functions yield no rows for NULL but
 * fail the statement on a scalar).
 */
export const JSON_ARRAY = (value: string) =>
  `(CASE WHEN json_typeof(${value}) = 'array' THEN ${value} END)`
export const JSON_OBJECT = (value: string) =>
  `(CASE WHEN json_typeof(${value}) = 'object' THEN ${value} END)`

/**
 * The last record of each key, in first-seen order. One INSERT ... ON CONFLICT DO UPDATE may not
 * touch a row twice, while a batch may carry the same id twice; the SQLite adapter applies them in
 * order, so the last one wins.
 */
export function lastByKey<T>(records: readonly T[], key: (record: T) => string): T[] {
  const byKey = new Map<string, T>()
  for (const record of records) byKey.set(key(record), record)
  return [...byKey.values()]
}

/** The first record of each key (for inserts that skip existing ids, like the changelog). */
export function firstByKey<T>(records: readonly T[], key: (record: T) => string): T[] {
  const byKey = new Map<string, T>()
  for (const record of records) if (!byKey.has(key(record))) byKey.set(key(record), record)
  return [...byKey.values()]
}
