import { z } from 'zod'
import { ERROR_CODES, timeFilter, type TimeFilter } from '@engram/core'

/** The values of a comma-separated string, trimmed, empty ones dropped. */
const splitCsv = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0)

/** The strings a boolean option takes, as a query value or in a JSON body. */
const BOOLEAN_STRINGS = ['true', 'false', '1', '0'] as const
const isTrue = (value: boolean | (typeof BOOLEAN_STRINGS)[number]) =>
  value === true || value === 'true' || value === '1'

/** A list parameter given as csv (`a,b`) and/or as repeated keys (`?x=a&x=b`). */
export const csvList = z
  .union([z.string().max(10_000), z.array(z.string().max(10_000)).max(200)])
  .optional()
  .transform((value) =>
    value === undefined ? undefined : (Array.isArray(value) ? value : [value]).flatMap(splitCsv),
  )
  .describe('Comma-separated values; repeating the key is also accepted.')

/** Query booleans: `true`/`false`/`1`/`0`. */
export const queryBoolean = (fallback: boolean) =>
  z
    .enum(BOOLEAN_STRINGS)
    .default(fallback ? 'true' : 'false')
    .transform(isTrue)

/**
 * A list option in a JSON body (CONTRACT.md section 1, "POST carries GET's options"): a JSON array, or
 * the comma-separated string the GET twin takes. The split string obeys the array's bounds, so both
 * forms accept the same lists. An exclusive union, so the OpenAPI document shows `oneOf`.
 */
export const bodyList = ({ maxItems, maxLength }: { maxItems: number; maxLength: number }) => {
  const list = z.array(z.string().max(maxLength)).max(maxItems)
  return z
    .xor([
      z
        .string()
        .max(maxItems * (maxLength + 1))
        .transform(splitCsv)
        .pipe(list),
      list,
    ])
    .optional()
    .describe('A JSON array of strings, or one comma-separated string as in the GET query.')
}

/**
 * A boolean option in a JSON body: a JSON boolean, or the strings the GET twin takes
 * (`true`/`false`/`1`/`0`; CONTRACT.md section 1).
 */
export const bodyBoolean = (fallback: boolean) =>
  z
    .xor([z.boolean(), z.enum(BOOLEAN_STRINGS)])
    .default(fallback)
    .transform(isTrue)
    .describe('A JSON boolean, or `"true"`/`"false"`/`"1"`/`"0"` as in the GET query.')

export const pagination = {
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Page size, 1..1000.'),
  skip: z.coerce.number().int().min(0).max(1_000_000_000).default(0).describe('Records to skip.'),
}

export const brainIdQuery = {
  brain_id: z.string().max(200).optional().describe('Brain fallback when X-Brain-ID is not sent.'),
}

export const jsonObjectWire = z.record(z.string(), z.unknown())

/** An instant as the wire writes it: an ISO 8601 date (`2021-06-01`) or date-time with an offset. */
export const isoInstant = z
  .string()
  .max(64)
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/,
    'must be an ISO 8601 date or date-time with an offset',
  )
  .refine((v) => Number.isFinite(Date.parse(v)), 'must be a real date')

/** `as_of` and `known_at` (docs/time.md), on every retrieval operation that reads facts. */
export const timeQuery = {
  as_of: isoInstant
    .optional()
    .describe(
      'Event time (ISO 8601): answer as the world was then. Facts whose validity window does not contain it, and passages whose facts all lie outside theirs, are left out. Default: now (ended facts left out, facts stated for the future kept).',
    ),
  known_at: isoInstant
    .optional()
    .describe(
      'System time (ISO 8601): answer with what the brain had learned by then. Records ingested later are left out, and an ending learned later is not yet known. Default: now.',
    ),
}

/** The `TimeFilter` of a request's `as_of` / `known_at` (query or body). */
export function requestTime(params: unknown): TimeFilter {
  const p = (params ?? {}) as { as_of?: string; known_at?: string }
  return timeFilter(p.as_of, p.known_at)
}

/** The error envelope every failure uses (CONTRACT.md section 1). */
export const errorEnvelope = z
  .object({
    detail: z
      .unknown()
      .describe('Legacy detail: a message, or for 422 a list of {loc, msg, type}.'),
    error: z.object({
      code: z.enum(ERROR_CODES as [string, ...string[]]),
      message: z.string(),
      resolution: z.string(),
      request_id: z.string().describe('Equals the X-Request-ID response header.'),
    }),
  })
  .meta({
    id: 'ErrorEnvelope',
    description: 'The error envelope: {detail, error: {code, message, resolution, request_id}}',
  })

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Semantically invalid request, or no brain selected',
  401: 'Missing, unknown or conflicting token',
  403: 'Valid token without access to this brain or route',
  404: 'Brain, resource or route not found',
  405: 'Method not allowed on this path',
  409: 'Conflict (the brain exists)',
  413: 'Body or file over the configured limit',
  415: 'Unsupported content type, content encoding or file type',
  422: 'Schema validation failed',
  429: 'Rate limited',
  500: 'Internal error',
  501: 'Not implemented by this version',
  503: 'The server is shutting down',
}

/** Why a route may answer 503 besides shutting down (`RouteSpec.unavailableWhen`). */
const UNAVAILABLE_REASONS = {
  embedder: 'the embedder is unavailable or did not answer in time',
  queue: "the brain's share of the task queue is full",
} as const

/** The 503 description of a route that can also be unavailable for `reasons`. */
export function unavailableDescription(reasons: (keyof typeof UNAVAILABLE_REASONS)[]): string {
  const all = [ERROR_DESCRIPTIONS[503]!, ...reasons.map((r) => UNAVAILABLE_REASONS[r])]
  return all.length === 1 ? all[0]! : `${all.slice(0, -1).join(', ')} or ${all.at(-1)!}`
}

/** Error responses for a route's schema; `descriptions` override the usual ones by status. */
export function errorResponses(statuses: number[], descriptions: Record<number, string> = {}) {
  const out: Record<
    number,
    { description: string; content: { 'application/json': { schema: z.ZodType } } }
  > = {}
  for (const status of [...new Set([...statuses, 422, 500])].sort((a, b) => a - b)) {
    out[status] = {
      description: descriptions[status] ?? ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/json': { schema: errorEnvelope } },
    }
  }
  return out
}

/** Statuses every authenticated, brain-scoped route can answer. */
export const BRAIN_ROUTE_ERRORS = [400, 401, 403, 404, 405, 422, 500] as const
