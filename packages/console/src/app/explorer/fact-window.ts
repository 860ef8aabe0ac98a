/**
 * A fact's validity window as the wire gives it (docs/time.md): relationships and events carry
 * `valid_at` / `invalid_at` (event time) and `expired_at` (when the brain learned the end), each an ISO
 * 8601 string, or left out / `null` / `""` when unset. This mirrors core's `windowOf` and `visible`
 * (packages/core/src/time/validity.ts, after Graphiti's `valid_at`/`invalid_at` on every edge), so the
 * console greys exactly the facts the server would leave out at that time.
 */
export interface WireTimed {
  valid_at?: string | null
  invalid_at?: string | null
  expired_at?: string | null
  deprecated?: boolean
  properties?: Record<string, unknown>
}

/** Where a fact stands at a time: not yet true, true, or ended. */
export type FactState = 'future' | 'valid' | 'ended'

/** A fact's state at a time and the words that show its window. */
export interface FactTime {
  state: FactState
  /** "valid 2020-03-01 → 2023-01-01, superseded"; "" for a record that carries no time at all. */
  text: string
}

const present = (iso: string | null | undefined): iso is string =>
  typeof iso === 'string' && iso !== ''

const ms = (iso: string | null | undefined, fallback: number): number => {
  if (!present(iso)) return fallback
  const t = Date.parse(iso)
  return Number.isFinite(t) ? t : fallback
}

/**
 * When the fact ends, in ms: its `invalid_at`; else a hand-written `properties.invalid_at` (a date, or
 * any other truthy value: ended, time unknown); else, when `deprecated`, its `expired_at` or before any
 * time; else never (Infinity).
 */
export function endOf(r: WireTimed): number {
  let end = ms(r.invalid_at, Number.POSITIVE_INFINITY)
  if (end === Number.POSITIVE_INFINITY) {
    const legacy = r.properties?.invalid_at
    if (typeof legacy === 'string') end = ms(legacy, Number.NEGATIVE_INFINITY)
    else if (legacy !== undefined && legacy !== null && legacy !== false)
      end = Number.NEGATIVE_INFINITY
  }
  if (r.deprecated === true && end === Number.POSITIVE_INFINITY)
    end = ms(r.expired_at, Number.NEGATIVE_INFINITY)
  return end
}

/** The state of `r` at `at` (ms): `ended` once its end has passed, `future` before its `valid_at`. */
export function factState(r: WireTimed, at: number): FactState {
  if (at >= endOf(r)) return 'ended'
  if (ms(r.valid_at, Number.NEGATIVE_INFINITY) > at) return 'future'
  return 'valid'
}

const day = (iso: string) => iso.slice(0, 10)

/**
 * The state of `r` at `at` and its window in words: "valid 2020-03-01 → 2023-01-01, superseded" (ended
 * by a newer fact: `properties.invalidated_by`), "…, ended" (ended otherwise), "valid since
 * 2023-01-01", "…, not yet valid" (a fact that starts after `at`).
 */
export function factTime(r: WireTimed, at: number): FactTime {
  const state = factState(r, at)
  const from = present(r.valid_at) ? day(r.valid_at) : null
  const legacy = r.properties?.invalid_at
  const to = present(r.invalid_at)
    ? day(r.invalid_at)
    : typeof legacy === 'string' && legacy !== ''
      ? day(legacy)
      : null
  let text = ''
  if (to !== null) text = `valid ${from ?? '…'} → ${to}`
  else if (from !== null) text = `valid since ${from}`
  else if (state === 'ended') text = 'valid … → ?'
  if (state === 'ended')
    text += present(r.properties?.invalidated_by as string) ? ', superseded' : ', ended'
  else if (state === 'future') text += ', not yet valid'
  return { state, text }
}

/**
 * The `as_of` of a date field (`YYYY-MM-DD`, the value of an `<input type="date">`), or undefined when
 * it is empty or not a date: then the console asks about now.
 */
export function asOfParam(value: string): string | undefined {
  const v = value.trim()
  return /^\d{4}-\d{2}-\d{2}$/.test(v) && Number.isFinite(Date.parse(v)) ? v : undefined
}

/** The time (ms) an `as_of` asks about: midnight UTC of its date, or `now` without one. */
export function atOf(asOf: string | undefined, now = Date.now()): number {
  return asOf === undefined ? now : Date.parse(asOf)
}
