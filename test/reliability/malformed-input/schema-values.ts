import type { Prng } from './prng.js'

/** The JSON Schema subset the server's OpenAPI document uses (zod's draft 2020-12 output). */
export interface Schema {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  $ref?: string
  properties?: Record<string, Schema>
  required?: string[]
  additionalProperties?: Schema | boolean
  items?: Schema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  format?: string
  default?: unknown
}

/**
 * JSON text spliced into a body as is: values too deep for `JSON.stringify` (it recurses and
 * overflows near 5,000 levels), and text that is not JSON at all.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify that splices RawJson values in as their text. */
export function serialize(value: unknown): string {
  const raws: string[] = []
  const marker = 'RAW-JSON-8f3a1c'
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text)
      return `${marker}${raws.length - 1}`
    }
    return v
  })
  if (raws.length === 0) return text ?? 'null'
  return (text ?? 'null').replace(
    new RegExp(`"${marker}(\\d+)"`, 'g'),
    (_m, i: string) => raws[Number(i)]!,
  )
}

const MB = 1024 * 1024
const words = (chars: number) =>
  'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars)

/** Nesting to `depth` as JSON text: arrays, objects or both, with a value at the bottom. */
export function deepJson(rng: Prng, depth: number): RawJson {
  switch (rng.int(0, 2)) {
    case 0:
      return new RawJson('['.repeat(depth) + ']'.repeat(depth))
    case 1:
      return new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth))
    default:
      return new RawJson('[{"k":'.repeat(depth / 2) + 'null' + '}]'.repeat(depth / 2))
  }
}

export const DEPTHS = [33, 65, 1_000, 5_000, 10_000] as const

/** Strings a client may send by mistake or on purpose. */
export function oddString(rng: Prng): string {
  return rng.pick<() => string>([
    () => '',
    () => ' ',
    () => 'x',
    () => '0',
    () => '-1',
    () => '1e309',
    () => 'NaN',
    () => 'null',
    () => 'true',
    () => 'system',
    () => 'default',
    () => '1bad',
    () => '__proto__',
    () => 'constructor',
    () => '../../etc/passwd',
    () => "' OR 1=1 --",
    () => '<script>alert(1)</script>',
    () => '\u0000\u0001\u001f',
    () => '\ud800',
    () => '💥'.repeat(rng.int(1, 300)),
    () => 'ع'.repeat(100) + '\u202e',
    () => '%00%ff%',
    () => '2024-02-30T25:61:00Z',
    () => 'a,b,,c,',
    () => 'x'.repeat(rng.pick([64, 65, 129, 513, 2001, 10_001, 100_000])),
    () => 'a'.repeat(MB),
    () => words(MB),
  ])()
}

/** A value of the wrong kind, or an extreme of the right one. */
export function oddValue(rng: Prng): unknown {
  return rng.pick<() => unknown>([
    () => oddString(rng),
    () => oddString(rng),
    () => rng.pick([0, -1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 64, 1e-300]),
    () => rng.pick([true, false, null]),
    () => [],
    () => ({}),
    () => [1, 'a', null, {}],
    () => ({ a: 1, __proto__x: 2, constructor: 'c' }),
    () => Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])),
    () => ({ s: 'x'.repeat(64 * 1024 + 1) }),
    () => Array.from({ length: rng.pick([201, 1001, 20_000]) }, (_, i) => `v${i}`),
    () => deepJson(rng, rng.pick(DEPTHS)),
  ])()
}

function resolve(schema: Schema, root: unknown): Schema {
  if (schema.$ref === undefined) return schema
  const path = schema.$ref.replace(/^#\//, '').split('/')
  let target: unknown = root
  for (const key of path) target = (target as Record<string, unknown>)?.[key]
  return (target as Schema | undefined) ?? {}
}

/** A value the schema accepts (mostly: patterns and cross-field rules are not modelled). */
export function validValue(schema: Schema, rng: Prng, root: unknown, depth = 0): unknown {
  const s = resolve(schema, root)
  if (s.const !== undefined) return s.const
  if (s.enum !== undefined) return rng.pick(s.enum)
  const choices = s.anyOf ?? s.oneOf
  if (choices !== undefined) {
    const nonNull = choices.filter((c) => c.type !== 'null')
    return validValue(rng.pick(nonNull.length > 0 ? nonNull : choices), rng, root, depth + 1)
  }
  if (s.allOf !== undefined && s.allOf.length > 0) return validValue(s.allOf[0]!, rng, root, depth)
  const type = Array.isArray(s.type) ? rng.pick(s.type.filter((t) => t !== 'null')) : s.type
  switch (type) {
    case 'string': {
      if (s.format === 'date-time') return new Date(Date.UTC(2024, 2, 8)).toISOString()
      const min = s.minLength ?? 0
      const max = Math.min(s.maxLength ?? 24, 24)
      return 'abcdefghijklmnopqrstuvwx'.slice(0, Math.max(min, rng.int(Math.min(1, max), max)))
    }
    case 'integer':
      return rng.int(Math.max(s.minimum ?? 0, -5), Math.min(s.maximum ?? 5, 5))
    case 'number':
      return Math.max(s.minimum ?? 0, Math.min(s.maximum ?? 1, 0.5))
    case 'boolean':
      return rng.chance(0.5)
    case 'null':
      return null
    case 'array': {
      if (depth > 6 || s.items === undefined) return []
      const n = rng.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3))
      return Array.from({ length: n }, () => validValue(s.items!, rng, root, depth + 1))
    }
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, child] of Object.entries(s.properties ?? {})) {
        if ((s.required ?? []).includes(key) || (depth < 6 && rng.chance(0.5)))
          out[key] = validValue(child, rng, root, depth + 1)
      }
      if (s.properties === undefined && s.additionalProperties !== false && rng.chance(0.5))
        out.title = 'notes'
      return out
    }
    default:
      return rng.chance(0.5) ? 'value' : 1
  }
}

/**
 * A copy of `value` with one to three spots made wrong: a value replaced by an odd one, a key removed
 * or added, or the whole value replaced.
 */
export function mutate(value: unknown, rng: Prng): unknown {
  if (rng.chance(0.1)) return oddValue(rng)
  const copy = structuredClone(value)
  const times = rng.int(1, 3)
  for (let i = 0; i < times; i++) {
    const containers: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = []
    const walk = (node: unknown) => {
      if (Array.isArray(node)) {
        node.forEach((child, index) => {
          containers.push({ parent: node, key: index })
          walk(child)
        })
      } else if (node !== null && typeof node === 'object' && !(node instanceof RawJson)) {
        for (const [key, child] of Object.entries(node)) {
          containers.push({ parent: node as Record<string, unknown>, key })
          walk(child)
        }
      }
    }
    walk(copy)
    if (containers.length === 0 || copy === null || typeof copy !== 'object') return oddValue(rng)
    const spot = rng.pick(containers)
    const roll = rng.next()
    if (roll < 0.7) (spot.parent as Record<string | number, unknown>)[spot.key] = oddValue(rng)
    else if (roll < 0.85 && !Array.isArray(spot.parent)) delete spot.parent[spot.key as string]
    else if (!Array.isArray(copy))
      // defineProperty: a plain assignment to `__proto__` would set the prototype, not a key.
      Object.defineProperty(copy, rng.pick(['brain_id', 'extra', '__proto__', 'constructor']), {
        value: oddValue(rng),
        enumerable: true,
        configurable: true,
        writable: true,
      })
  }
  return copy
}
