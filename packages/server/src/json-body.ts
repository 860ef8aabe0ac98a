/**
 * How deep objects and arrays are split into separately serialized parts: a list page
 * (`{entities: [...], total}`) and the context pack (`{triples: [...], ...}`) are split down to runs
 * of their items, which keeps each part small.
 */
const SPLIT_DEPTH = 2

/** Array items serialized together at the last level split (a page of 100 entities: 7 parts). */
const ITEMS_PER_PART = 16

/**
 * The body of a JSON response: exactly the bytes of `JSON.stringify(value)` in UTF-8, as a Buffer
 * assembled from parts (fields and array items down to {@link SPLIT_DEPTH} levels, each serialized
 * on its own, the last level's items in runs), or as the plain string for a value with no object or
 * array inside (`/health`); undefined for a value with no JSON (undefined itself), as
 * `JSON.stringify` gives.
 *
 * Why not `JSON.stringify` alone: when the data holds one character beyond Latin-1 ("…" at the end
 * of a snippet or a clipped text, a curly quote, any CJK text), V8's output is a two-byte string,
 * which Fastify's `Buffer.byteLength` (the Content-Length) and the UTF-8 encoding for the socket
 * handle slowly at this size: for LoCoMo context packs (111 KB) that took 1.2-1.3 ms a response
 * against 0.46 ms in parts, and over HTTP a context pack request took about 1.8 ms less. Searches
 * (9 KB) and pages of 100 entities (38 KB, mostly Latin-1) cost the same either way
 * (`npm run bench -- --latency`, suite response-body; benchmarks/LOG.md, 2026-12-02).
 *
 * Same output as `JSON.stringify` (the tests compare bytes): fields in `Object.keys` order, fields
 * whose value serializes to nothing (undefined, functions, symbols) left out and such array items
 * written `null`, `toJSON` honoured. Only arrays and plain objects are split; anything else (a
 * Date, a Map, a class instance, anything with its own `toJSON`) is one part serialized by
 * `JSON.stringify`, which calls a nested `toJSON` with an empty key rather than the field name.
 */
export function jsonBody(value: unknown): string | Buffer | undefined {
  if (!splittable(value) || !holdsContainer(value))
    return JSON.stringify(value) as string | undefined
  const parts: string[] = []
  pushParts(value, SPLIT_DEPTH, parts)
  let chars = 0
  for (const part of parts) chars += part.length
  // UTF-8 takes at most 3 bytes per UTF-16 unit (a surrogate pair's 4 bytes are 2 units). The parts
  // are written into one reused buffer and copied out at their size; a larger body gets its own.
  const room = chars * 3
  if (room > SCRATCH_BYTES) return writeParts(parts, Buffer.allocUnsafe(room))
  scratch ??= Buffer.allocUnsafeSlow(SCRATCH_BYTES)
  return Buffer.from(writeParts(parts, scratch))
}

/** The buffer bodies are written into first (allocated on first use, then kept). */
const SCRATCH_BYTES = 1 << 20
let scratch: Buffer | null = null

/** Writes `parts` as UTF-8 from the start of `target`; the part of it written. */
function writeParts(parts: readonly string[], target: Buffer): Buffer {
  let at = 0
  for (const part of parts) at += target.write(part, at)
  return target.subarray(0, at)
}

type Splittable = unknown[] | Record<string, unknown>

/**
 * An array or a plain object, without a `toJSON` of its own: what `JSON.stringify` walks item by
 * item.
 */
function splittable(value: unknown): value is Splittable {
  if (typeof value !== 'object' || value === null) return false
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false
  if (Array.isArray(value)) return true
  const proto = Object.getPrototypeOf(value) as unknown
  return proto === Object.prototype || proto === null
}

/** Whether any field or item is an object: a flat record gains nothing from parts. */
function holdsContainer(value: Splittable): boolean {
  for (const item of Array.isArray(value) ? value : Object.values(value))
    if (typeof item === 'object' && item !== null) return true
  return false
}

/**
 * `value`'s JSON as parts; an item whose JSON is nothing is left out (fields) or `null` (items).
 */
function pushParts(value: Splittable, depth: number, parts: string[]): void {
  if (Array.isArray(value)) {
    parts.push('[')
    if (depth > 1) {
      for (let i = 0; i < value.length; i++) {
        if (i > 0) parts.push(',')
        if (!pushItem(value[i], depth - 1, parts)) parts.push('null')
      }
    } else {
      // The last level: runs of items in one call each (one part per item cost more in calls than
      // it saved); `JSON.stringify` of a run writes its empty slots as `null` like the whole would.
      for (let i = 0; i < value.length; i += ITEMS_PER_PART) {
        if (i > 0) parts.push(',')
        parts.push(JSON.stringify(value.slice(i, i + ITEMS_PER_PART)).slice(1, -1))
      }
    }
    parts.push(']')
    return
  }
  parts.push('{')
  let first = true
  for (const key of Object.keys(value)) {
    const mark = parts.length
    parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`)
    if (pushItem(value[key], depth - 1, parts)) first = false
    else parts.length = mark
  }
  parts.push('}')
}

/**
 * Pushes the JSON of one field or item; false when it has none (`JSON.stringify` gives undefined).
 */
function pushItem(item: unknown, depth: number, parts: string[]): boolean {
  if (depth > 0 && splittable(item)) {
    pushParts(item, depth, parts)
    return true
  }
  const json = JSON.stringify(item) as string | undefined
  if (json === undefined) return false
  parts.push(json)
  return true
}
