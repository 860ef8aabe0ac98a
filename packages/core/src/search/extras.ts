/** Metadata keys that are internal ids or bookkeeping, never shown as `extras` or facets. */
const HIDDEN = new Set([
  'resource_id',
  'uuid',
  'id',
  'inserted_at',
  'brain_version',
  'passage_ids',
  'merge_candidates',
])

export type Extras = Record<string, string | number | boolean>

/** The hit's scalar, non-empty metadata minus internal ids (CONTRACT.md section 7). */
export function extrasOf(metadata: Record<string, unknown> | null | undefined): Extras {
  const extras: Extras = {}
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (HIDDEN.has(key)) continue
    if (
      typeof value === 'string'
        ? value.length > 0
        : typeof value === 'number'
          ? Number.isFinite(value)
          : typeof value === 'boolean'
    ) {
      extras[key] = value as string | number | boolean
    }
  }
  return extras
}

/**
 * `extras` filter of POST search: every key must equal (case-insensitively, as strings) the hit's extra.
 * Applied before the cut to `k`, so filtered-out hits are replaced by the next ones.
 */
export function matchesExtras(
  extras: Extras,
  filter: Record<string, unknown> | undefined,
): boolean {
  if (filter === undefined) return true
  for (const [key, wanted] of Object.entries(filter)) {
    if (wanted === null || wanted === undefined) continue
    const have = extras[key.toLowerCase()] ?? extras[key]
    if (have === undefined || String(have).toLowerCase() !== String(wanted).toLowerCase())
      return false
  }
  return true
}

/** Counts values of each extras key over the returned hits. */
export function facetsOf(
  hits: readonly { extras: Extras }[],
): Record<string, Record<string, number>> {
  const facets: Record<string, Record<string, number>> = {}
  for (const hit of hits) {
    for (const [key, value] of Object.entries(hit.extras)) {
      const bucket = (facets[key] ??= {})
      const v = String(value)
      bucket[v] = (bucket[v] ?? 0) + 1
    }
  }
  return facets
}
