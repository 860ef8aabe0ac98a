/**
 * Free-form maps: stored data (a passage's metadata, a source's meta, an entity's properties, a hit's
 * extras, a task's counts) or a shape whose keys are data (`natural_language_web` has entity names as
 * keys and their descriptions, often "", as values). They pass through as they are: a rule that dropped their empty
 * values, ids or rounded their numbers would change what was stored. Only an empty map is left out.
 */
const FREE_FORM = new Set([
  'extras',
  'metadata',
  'meta',
  'properties',
  'natural_language_web',
  'facets',
  'counts',
  'result',
])

/** Fields holding a ranking score (or a tree of them, `scores`); rounded to 3 significant digits. */
const SCORES = new Set(['score', 'scores', 'weight', 'association_score'])

export interface CompactOptions {
  /**
   * Keys to leave out: `key` wherever it appears, `parent.key` only inside `parent` (arrays between
   * them do not count), e.g. `edges.uuid`. Never applied inside free-form maps.
   */
  omit?: ReadonlySet<string>
  /** Top-level keys kept even when empty (`hits: []` says a search found nothing). */
  keep?: ReadonlySet<string>
}

const NONE: ReadonlySet<string> = new Set()

/**
 * The shared compaction of MCP tool results, so an agent's context holds what the result says and
 * not its padding: no null and no empty string, array or object (an object emptied by the other rules
 * goes too), scores to 3 significant digits, and the `omit` keys (ids, unless the call asked for
 * them) left out. Array elements are never dropped: their position can carry meaning (a triple's
 * parts). Integers, booleans and numbers that are not scores are left as they are.
 */
export function compactResult(
  result: Record<string, unknown>,
  { omit = NONE, keep = NONE }: CompactOptions = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(result)) {
    if (omit.has(key) || value === null || value === undefined) continue
    const compacted = compactField(key, value, omit)
    if (keep.has(key) || !isEmpty(compacted)) out[key] = compacted
  }
  return out
}

/** The field `key` compacted by its kind: a free-form map as it is, scores rounded, else the rules. */
function compactField(key: string, value: unknown, omit: ReadonlySet<string>): unknown {
  if (FREE_FORM.has(key)) return value
  if (SCORES.has(key)) return roundScores(value)
  return compactValue(value, key, omit)
}

/** `value` compacted; `owner` is the key it sits under (the parent of its own keys). */
function compactValue(value: unknown, owner: string, omit: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => compactValue(item, owner, omit))
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (omit.has(key) || omit.has(`${owner}.${key}`)) continue
    const compacted = compactField(key, field, omit)
    if (!isEmpty(compacted)) out[key] = compacted
  }
  return out
}

function roundScores(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : round3(value)
  if (Array.isArray(value)) return value.map(roundScores)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundScores(v)]))
}

/** 3 significant digits: 0.0012269 -> 0.00123, 2.2732 -> 2.27, 1234.5 -> 1230. */
function round3(n: number): number {
  return Number.isFinite(n) ? Number(n.toPrecision(3)) : n
}

/** null, "", [] or {}: nothing to say. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  return typeof value === 'object' && Object.keys(value).length === 0
}
