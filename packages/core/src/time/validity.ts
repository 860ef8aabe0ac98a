/**
 * Bi-temporal windows (docs/time.md), after the model Graphiti keeps on every edge (getzep/graphiti,
 * `EntityEdge.valid_at/invalid_at/created_at/expired_at`; Snodgrass, "Developing Time-Oriented Database
 * Applications in SQL", 1999, for valid and transaction time). A fact holds in event time from `validAt`
 * to `invalidAt`; the brain learned it at `createdAt` and learned that it ended at `expiredAt`.
 * Asked "as of A, as known at K", a fact is visible when it was learned by K and, with the ending the
 * brain knew at K, A lies in its window.
 */

/** What a question about the past asks: event time `asOf`, system time `knownAt` (ms; absent = now). */
export interface TimeFilter {
  asOf?: number
  knownAt?: number
}

/** The parts of a record that carry time (relationships and events). */
export interface Timed {
  validAt?: string | null
  invalidAt?: string | null
  createdAt?: string | null
  expiredAt?: string | null
  deprecated?: boolean
  properties?: Record<string, unknown>
}

/** A record's window in ms: `validFrom` -Infinity and `validTo` / `expired` Infinity when unbounded. */
export interface Window {
  validFrom: number
  validTo: number
  created: number
  expired: number
}

const ms = (iso: string | null | undefined, fallback: number): number => {
  if (iso === null || iso === undefined) return fallback
  const t = Date.parse(iso)
  return Number.isFinite(t) ? t : fallback
}

/**
 * The window of a record. A record written before windows existed is read as always valid, known
 * since ever; its hand-written `properties.invalid_at` still ends it (a date, or `true`: ended, time
 * unknown), and so does `deprecated` without an end (ended at `expiredAt`, else before any time).
 */
export function windowOf(r: Timed): Window {
  let validTo = ms(r.invalidAt, Number.POSITIVE_INFINITY)
  if (validTo === Number.POSITIVE_INFINITY) {
    const legacy = r.properties?.invalid_at
    if (typeof legacy === 'string') validTo = ms(legacy, Number.NEGATIVE_INFINITY)
    else if (legacy !== undefined && legacy !== null && legacy !== false)
      validTo = Number.NEGATIVE_INFINITY
  }
  const expired = ms(r.expiredAt, Number.POSITIVE_INFINITY)
  if (r.deprecated === true && validTo === Number.POSITIVE_INFINITY)
    validTo = Number.isFinite(expired) ? expired : Number.NEGATIVE_INFINITY
  return {
    validFrom: ms(r.validAt, Number.NEGATIVE_INFINITY),
    validTo,
    created: ms(r.createdAt, Number.NEGATIVE_INFINITY),
    expired,
  }
}

/**
 * Whether a window is visible to `filter` at `now`. Without `asOf` a fact is visible until it ends (a
 * fact stated for the future is shown: users ask about plans); with `asOf` only when `asOf` lies in its
 * window. With `knownAt` a fact learned later is hidden, and an ending learned later is not yet known.
 */
export function visible(w: Window, filter: TimeFilter, now: number): boolean {
  if (filter.knownAt !== undefined && w.created > filter.knownAt) return false
  const end =
    filter.knownAt !== undefined && w.expired > filter.knownAt
      ? Number.POSITIVE_INFINITY
      : w.validTo
  const at = filter.asOf ?? filter.knownAt ?? now
  if (filter.asOf !== undefined && w.validFrom > at) return false
  return at < end
}

/** The filter is the default one: now, as now known. */
export function isNow(filter: TimeFilter | undefined): boolean {
  return filter === undefined || (filter.asOf === undefined && filter.knownAt === undefined)
}

/** An ISO 8601 date or date-time as a UTC date-time, or null when absent or unparsable. */
export function toInstant(value: string | null | undefined): string | null {
  const t = value == null ? Number.NaN : Date.parse(value)
  return Number.isFinite(t) ? new Date(t).toISOString() : null
}

/** Parses the wire's `as_of` / `known_at` (ISO 8601 dates or date-times) into a filter. */
export function timeFilter(asOf: string | undefined, knownAt: string | undefined): TimeFilter {
  const filter: TimeFilter = {}
  if (asOf !== undefined) filter.asOf = Date.parse(asOf)
  if (knownAt !== undefined) filter.knownAt = Date.parse(knownAt)
  return filter
}
