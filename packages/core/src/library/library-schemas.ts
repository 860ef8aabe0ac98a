import { z } from 'zod'
import { MAP_LIMITS, mapProblem, type MapLimits } from '../map-limits.js'

/**
 * Schema pieces the library's methods share. Bounds are the REST API's (packages/server/src/routes and
 * schemas), so a call that works in-process works over HTTP too; objects are strict, so a misspelt
 * option is a VALIDATION_ERROR naming it instead of being ignored.
 */

/** A list of strings: at most `items` of at most `length` characters. */
export const list = (items: number, length: number) => z.array(z.string().max(length)).max(items)

/** A free-form JSON object within `MAP_LIMITS` (REST's `freeFormMap`), plain JSON values only. */
export function jsonMap(bytes: number = MAP_LIMITS.bytes) {
  const limits: MapLimits = { ...MAP_LIMITS, bytes }
  return z.custom<Record<string, unknown>>().superRefine((value, ctx) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a plain JSON object' })
      return
    }
    const problem = mapProblem(value, limits)
    if (problem !== null)
      ctx.addIssue({ code: 'custom', message: problem.message, params: { type: problem.type } })
  })
}

/** A flat map of `value`s (`extras` filters, `behaviorWeights`), at most MAP_LIMITS.keys keys. */
export const flatMap = <V extends z.ZodType>(value: V) =>
  z.record(z.string().max(200), value).refine((map) => Object.keys(map).length <= MAP_LIMITS.keys, {
    message: `at most ${MAP_LIMITS.keys} keys`,
  })

/** Entity targets of graph operations: a uuid or a name (REST's `target`). */
export const target = z.string().min(1).max(512)

/** Paging of record lists (REST's `limit` and `skip`): 100 records from the first by default. */
export const page = {
  limit: z.number().int().min(1).max(1000).default(100),
  skip: z.number().int().min(0).max(1_000_000_000).default(0),
}

/**
 * An options object: absent means `{}` (parsed, so its fields' defaults apply); unknown keys are
 * refused.
 */
export const options = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.strictObject(shape).prefault({} as never)

/** An instant for `asOf` / `knownAt` (docs/time.md): `dateTime` that parses as a real date. */
export const instant = () =>
  dateTime.refine((v) => Number.isFinite(Date.parse(v)), 'must be a real date')

/** A date-time as an ISO 8601 string (checked where it is used) or a valid Date. */
export const dateTime = z
  .custom<string | Date>(
    (v) =>
      typeof v === 'string' ? v.length <= 64 : v instanceof Date && !Number.isNaN(v.getTime()),
    { message: 'must be an ISO 8601 date-time string (at most 64 characters) or a valid Date' },
  )
  .transform((v) => (typeof v === 'string' ? v : v.toISOString()))
