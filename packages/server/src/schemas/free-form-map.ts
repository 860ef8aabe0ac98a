import { z } from 'zod'
import { MAP_LIMITS, mapProblem, type MapLimits } from '@engram/core'

// The limits and their check live in core, which the library validates with too.
export { MAP_LIMITS, mapProblem, type MapLimits, type MapProblem } from '@engram/core'

/**
 * The `type` a custom check (`freeFormMap`'s limits) gave its zod issue, e.g. `map_too_deep`; undefined
 * for any other issue. Reported as the `type` of a 422 `detail` entry.
 */
export function customIssueType(issue: { code?: string; params?: unknown }): string | undefined {
  if (issue.code !== 'custom') return undefined
  const type = (issue.params as { type?: unknown } | undefined)?.type
  return typeof type === 'string' ? type : undefined
}

/**
 * A flat map of scalars in a request (`extras` filters, `behavior_weights`): at most MAP_LIMITS.keys
 * keys, like every map a client sends.
 */
export function flatMap<V extends z.ZodType>(value: V) {
  return z
    .record(z.string().max(200), value)
    .refine((map) => Object.keys(map).length <= MAP_LIMITS.keys, {
      message: `at most ${MAP_LIMITS.keys} keys`,
    })
}

/**
 * The request-side schema of a free-form map: a JSON object within MAP_LIMITS (size: `bytes`,
 * default 64 KB). Beyond them: a 422 VALIDATION_ERROR whose `detail[].loc` names the field and whose
 * `type` says which limit. Responses keep `jsonObjectWire` (what is stored may predate the limits).
 */
export function freeFormMap(options: { bytes?: number } = {}) {
  const limits: MapLimits = { ...MAP_LIMITS, bytes: options.bytes ?? MAP_LIMITS.bytes }
  const size = limits.bytes === Infinity ? 'the body limit' : `${limits.bytes} bytes`
  return z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      const problem = mapProblem(value, limits)
      if (problem !== null)
        ctx.addIssue({ code: 'custom', message: problem.message, params: { type: problem.type } })
    })
    .describe(
      `A JSON object: at most ${limits.depth} levels of nesting, ${limits.keys} keys per object and ${size} serialised.`,
    )
}
