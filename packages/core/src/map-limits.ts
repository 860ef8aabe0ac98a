/**
 * Limits of a free-form map a caller sends (CONTRACT.md section 1): `properties`, `metadata`,
 * `meta_keys`, `new_properties`, `identification_params`, `data.json_data` and the `properties` of
 * structured items, over REST, MCP and the library alike. The map itself is level 1; every object or
 * array inside it adds a level.
 */
export const MAP_LIMITS = { depth: 32, keys: 1000, bytes: 64 * 1024 } as const

export interface MapLimits {
  depth: number
  keys: number
  /** Largest UTF-8 JSON serialisation; `Infinity` leaves the size to the body limit. */
  bytes: number
}

export interface MapProblem {
  type: 'map_too_deep' | 'map_too_many_keys' | 'map_too_large' | 'map_not_json'
  message: string
}

/**
 * A value JSON cannot carry as it is: a function, a symbol, a bigint, `undefined` in an array, a
 * number that is not finite, or an object that is not plain (a Date, a Map, a class instance). A
 * parsed request body never has one; a library caller's object may, and storing it would either throw
 * a TypeError (bigint) or silently change it (a Date becomes a string, a Map `{}`).
 */
function notJson(value: unknown, inArray: boolean): string | null {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return null
    case 'number':
      return Number.isFinite(value) ? null : `${value} is not a JSON number`
    case 'undefined':
      return inArray ? 'an array holds undefined' : null
    case 'object': {
      if (value === null || Array.isArray(value)) return null
      const proto = Object.getPrototypeOf(value) as unknown
      if (proto === Object.prototype || proto === null) return null
      const name = (value as object).constructor?.name ?? 'object'
      return `a ${name} is not a plain object (convert it, e.g. a Date with toISOString())`
    }
    default:
      return `a ${typeof value} is not JSON`
  }
}

/**
 * What is wrong with `value` against `limits`, or null. Iterative (an explicit stack, no recursion),
 * so a value nested far deeper than the limit (or a cycle) is refused without growing the call stack,
 * and it stops at the first problem. Serialises the value only when a lower bound of its size (the
 * characters of its keys and strings) fits the limit, so an oversized map costs one walk, not a copy.
 */
export function mapProblem(value: unknown, limits: MapLimits = MAP_LIMITS): MapProblem | null {
  const stack: [unknown, number, boolean][] = [[value, 1, false]]
  let chars = 0
  while (stack.length > 0) {
    const [current, depth, inArray] = stack.pop()!
    const wrong = notJson(current, inArray)
    if (wrong !== null) return { type: 'map_not_json', message: `not JSON: ${wrong}` }
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
      for (const item of current) stack.push([item, depth + 1, true])
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
      stack.push([(current as Record<string, unknown>)[key], depth + 1, false])
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
