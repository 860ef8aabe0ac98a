import { z } from 'zod'

/**
 * Limits of a free-form map in a request (CONTRACT.md section 1): `properties`, `metadata`,
 * `meta_keys`, `new_properties`, `identification_params`, `data.json_data` and the `properties` of
 * structured items. The map itself is level 1; every object or array inside it adds a level.
 */
export const MAP_LIMITS = { depth: 32, keys: 1000, bytes: 64 * 1024 } as const

export interface MapLimits {
  depth: number
  keys: number
  /** Largest UTF-8 JSON serialisation; `Infinity` leaves the size to the body limit. */
  bytes: number
}

export interface MapProblem {
  type: 'map_too_deep' | 'map_too_many_keys' | 'map_too_large'
  message: string
}

/**
 * What is wrong with `value` against `limits`, or null. Iterative (an explicit stack, no recursion),
 * so a value nested far deeper than the limit is refused without growing the call stack, and it stops
 * at the first problem. Serialises the value only when a lower bound of its size (the characters of
 * its keys and strings) fits the limit, so an oversized map costs one walk, not a copy.
 */
export function mapProblem(value: unknown, limits: MapLimits = MAP_LIMITS): MapProblem | null {
  const stack: [unknown, number][] = [[value, 1]]
  let chars = 0
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (typeof current === 'string') {
      chars += current.length
      continue
    }
    if (current === null || typeof current !== 'object') continue
    if (depth > limits.depth)
      return {
        type: 'map_too_deep',
        message: `nested deeper than ${limits.depth} levels (objects and arrays)`,
      }
    if (Array.isArray(current)) {
      for (const item of current) stack.push([item, depth + 1])
      continue
    }
    const keys = Object.keys(current)
    if (keys.length > limits.keys)
      return {
        type: 'map_too_many_keys',
        message: `an object has more than ${limits.keys} keys`,
      }
    for (const key of keys) {
      chars += key.length
      stack.push([(current as Record<string, unknown>)[key], depth + 1])
    }
  }
  if (limits.bytes !== Infinity) {
    const tooLarge: MapProblem = {
      type: 'map_too_large',
      message: `serialised as JSON it is over ${limits.bytes} bytes`,
    }
    if (chars > limits.bytes) return tooLarge
    if (Buffer.byteLength(JSON.stringify(value), 'utf8') > limits.bytes) return tooLarge
  }
  return null
}

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
