import type { MetaRepository } from '../contracts/meta-repository.js'
import { EngramError } from '../errors.js'

/**
 * Expiry of sources (docs/time.md, Expiry): an ingestion may say when its source expires, as a date
 * (`expires_at`) or a lifetime (`ttl`, seconds); without either, the brain's `default_ttl` applies.
 * The time travels in the task's payload as `expiresAt` and lands on the source record when the
 * task runs; a sweep (`expiry-sweeper.ts`) forgets the sources past it.
 */

type Loc = (string | number)[]

/** Longest `ttl` and `default_ttl`: 100 years of 365.25 days, in seconds. */
export const MAX_TTL_SECONDS = 3_155_760_000

/** Meta key of a brain's expiry settings (JSON `{ "defaultTtl": seconds }`). */
export const EXPIRY_META = 'expiry'

/** What a caller sends: at most one of the two. */
export interface ExpiryInput {
  /** ISO 8601 date-time with a time zone (`Z` or an offset); a past one expires at the next sweep. */
  expiresAt?: string | null
  /** Seconds from now, a positive integer up to {@link MAX_TTL_SECONDS}. */
  ttl?: number | null
}

/** Where the caller's two fields sit, for error `loc`s. */
export interface ExpiryFields {
  expiresAt: Loc
  ttl: Loc
}

export const REST_EXPIRY_FIELDS: ExpiryFields = {
  expiresAt: ['body', 'expires_at'],
  ttl: ['body', 'ttl'],
}

/** RFC 3339's date-time (ISO 8601 with a time zone): without one, the instant would be the server's guess. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/

/** The instant of an RFC 3339 date-time, or NaN; `Date.parse` alone rolls 30 February over to March. */
function parseDateTime(text: string): number {
  const m = DATE_TIME.exec(text)
  if (m === null) return NaN
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as number[]
  const days = new Date(Date.UTC(year!, month!, 0)).getUTCDate()
  if (month! < 1 || month! > 12 || day! < 1 || day! > days || hour! > 23 || minute! > 59) return NaN
  if (m[7] !== undefined && Number(m[7]) > 59) return NaN
  return Date.parse(text)
}

function invalid(loc: Loc, msg: string, status: 400 | 422 = 422): EngramError {
  return new EngramError('VALIDATION_ERROR', `${String(loc.at(-1))} ${msg}`, {
    status,
    detail: [{ loc, msg, type: 'value_error' }],
  })
}

/** Whether `ttl` is a lifetime this engine accepts (a positive whole number of seconds, at most 100 years). */
export function isValidTtl(ttl: unknown): ttl is number {
  return typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 1 && ttl <= MAX_TTL_SECONDS
}

/** `at` plus `ttl` seconds, as stored (`toISOString`). */
export function expiryAfter(at: number, ttl: number): string {
  return new Date(at + ttl * 1000).toISOString()
}

/**
 * The instant an ingestion's source expires, normalised to `toISOString()` (stored times compare as
 * text), or undefined when the caller gave neither field. Both: VALIDATION_ERROR (400) naming them;
 * a malformed date-time, a year past 9999 or a bad `ttl`: VALIDATION_ERROR (422) naming the field.
 */
export function resolveExpiry(
  input: ExpiryInput,
  fields: ExpiryFields = REST_EXPIRY_FIELDS,
  now: number = Date.now(),
): string | undefined {
  const expiresAt = input.expiresAt ?? null
  const ttl = input.ttl ?? null
  if (expiresAt !== null && ttl !== null) {
    const msg = 'send at most one of `expires_at` or `ttl`, not both'
    throw new EngramError('VALIDATION_ERROR', msg, {
      status: 400,
      detail: [
        { loc: fields.expiresAt, msg, type: 'value_error' },
        { loc: fields.ttl, msg, type: 'value_error' },
      ],
    })
  }
  if (ttl !== null) {
    if (!isValidTtl(ttl))
      throw invalid(fields.ttl, `must be a whole number of seconds from 1 to ${MAX_TTL_SECONDS}`)
    return expiryAfter(now, ttl)
  }
  if (expiresAt === null) return undefined
  const time = parseDateTime(expiresAt)
  const iso = Number.isNaN(time) ? '' : new Date(time).toISOString()
  // Years past 9999 print as `+010000-...`, which would sort before every other time.
  if (!/^\d{4}-/.test(iso))
    throw invalid(
      fields.expiresAt,
      'must be an ISO 8601 date-time with a time zone (e.g. 2030-01-01T00:00:00Z), year 0000 to 9999',
    )
  return iso
}

/** An ingestion payload with the expiry `resolveExpiry` returned (left as it is for undefined). */
export function withExpiry<P extends object>(
  payload: P,
  expiresAt: string | undefined,
): P & { expiresAt?: string } {
  return expiresAt === undefined ? payload : { ...payload, expiresAt }
}

/** The `expiresAt` an ingestion task's payload carries, or undefined when its caller gave none. */
export function payloadExpiry(payload: unknown): string | undefined {
  const value = (payload as { expiresAt?: unknown } | null)?.expiresAt
  return typeof value === 'string' ? value : undefined
}

/** A brain's `default_ttl` in seconds, or null when it has none. */
export async function readDefaultTtl(meta: MetaRepository): Promise<number | null> {
  const raw = await meta.get(EXPIRY_META)
  if (raw === null) return null
  const ttl = (JSON.parse(raw) as { defaultTtl?: unknown }).defaultTtl
  return isValidTtl(ttl) ? ttl : null
}

/** Stores a brain's `default_ttl` (null clears it). */
export async function writeDefaultTtl(meta: MetaRepository, ttl: number | null): Promise<void> {
  await meta.set(EXPIRY_META, JSON.stringify(ttl === null ? {} : { defaultTtl: ttl }))
}

/**
 * When an ingestion's source expires: the payload's `expiresAt`, else the brain's default counted
 * from when the task was created (the caller's "now"), else never (null: a re-ingestion without
 * expiry clears the previous one).
 */
export async function ingestionExpiry(
  task: { payload: unknown; createdAt: string },
  meta: MetaRepository,
): Promise<string | null> {
  const given = payloadExpiry(task.payload)
  if (given !== undefined) return given
  const ttl = await readDefaultTtl(meta)
  return ttl === null ? null : expiryAfter(Date.parse(task.createdAt), ttl)
}
