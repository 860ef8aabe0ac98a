/** SQL helpers for records stored as a JSON `data` column beside their indexed columns. */

export type Row = Record<string, unknown>

export const parse = <T>(row: unknown): T => JSON.parse((row as { data: string }).data) as T

export function inList(values: readonly string[]): string {
  return values.map(() => '?').join(',')
}

/**
 * `json_extract(column, path)`, or NULL when the stored JSON is one SQLite cannot read: its JSON
 * functions stop at 1,000 levels of nesting and fail the whole statement ("malformed JSON") on such a
 * record. Records nested that deep predate the server's map limits or were written through the
 * library; guarded, they are skipped by the filters and facets that look inside the JSON, and still
 * listed (JSON.parse in JS reads them).
 */
export const GUARDED_JSON = (fn: 'json_extract' | 'json_type', column: string, path: string) =>
  `CASE WHEN json_valid(${column}) THEN ${fn}(${column}, '${path}') END`
export const JSON_AT = (column: string, path: string) => GUARDED_JSON('json_extract', column, path)

/** Case-insensitive substring test usable in SQL (`instr(lower(col), lower(?)) > 0`). */
export const LIKE = (column: string) => `instr(lower(${column}), lower(?)) > 0`
