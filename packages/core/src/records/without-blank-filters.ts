/**
 * A list query with its blank filters removed: an empty or absent `queryText` and empty filter lists
 * mean "no filter" (the wire sends `query_text=` and `types=` for that). Adapters then only ever see
 * filters that restrict.
 */
export function withoutBlankFilters<Q extends object>(query: Q): Q {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue
    if (Array.isArray(value) && value.length === 0) continue
    out[key] = value
  }
  return out as Q
}
