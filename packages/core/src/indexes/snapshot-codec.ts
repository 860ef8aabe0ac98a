import { endianness } from 'node:os'
import { runWhole, SLICE_ITEMS, type Sliced } from './sliced-work.js'

/** Typed arrays a snapshot stores as raw bytes. */
export type SnapshotArray = Uint8Array | Uint32Array | Int32Array | Float64Array

const ARRAY_TYPES = {
  u8: Uint8Array,
  u32: Uint32Array,
  i32: Int32Array,
  f64: Float64Array,
} as const
type ArrayType = keyof typeof ARRAY_TYPES

function typeOf(array: SnapshotArray): ArrayType {
  if (array instanceof Uint8Array) return 'u8'
  if (array instanceof Uint32Array) return 'u32'
  if (array instanceof Int32Array) return 'i32'
  return 'f64'
}

/**
 * What an in-memory index writes to a snapshot, each under a name: small JSON-able values (counters),
 * typed arrays and string lists. Arrays are stored as their bytes and string lists as one UTF-8 run
 * split at NUL, so loading them costs a copy and a split, not a parse.
 */
export interface SnapshotParts {
  json: Record<string, unknown>
  arrays: Record<string, SnapshotArray>
  strings?: Record<string, string[]>
}

const MAGIC = 'ENGRMIX1'
const ALIGN = 8

interface Header {
  /** `os.endianness()` of the writer: the arrays are in its byte order. */
  endianness: 'LE' | 'BE'
  json: Record<string, unknown>
  arrays: { name: string; type: ArrayType; offset: number; length: number }[]
  /**
   * String lists: `bytes` of UTF-8 at `offset`, the strings joined by NUL, or `json` for a list where
   * a string holds a NUL itself.
   */
  strings: { name: string; offset: number; bytes: number; count: number; json?: string[] }[]
  /** Bytes of the array section; a file of another length is refused (truncated or grown). */
  dataBytes: number
}

const aligned = (n: number) => Math.ceil(n / ALIGN) * ALIGN

/**
 * One buffer holding `parts`: the magic `ENGRMIX1`, the header's byte length (uint32 LE), the header
 * (JSON: the JSON values and where each array is), padding to 8 bytes, then each array's bytes, each
 * starting on an 8-byte boundary.
 */
export function encodeSnapshot(parts: SnapshotParts): Buffer {
  return runWhole(encodeSnapshotSliced(parts))
}

/** Bytes copied between two yields of an encode: a fraction of a millisecond of memcpy. */
const COPY_SLICE = 2 ** 20

/**
 * As `encodeSnapshot`, yielding after each string list is made into bytes and after each MiB copied
 * (`sliced-work.ts`): MovieLens-small's graph is 22.7 MiB, 40-80 ms in one go, and 100,000 passages'
 * lexical indexes 56 MiB, 60-110 ms. The buffer has `room` more bytes at its end, zeroed, for the
 * caller to fill (a checksum) without copying the whole again. The parts must not change until it
 * returns: the arrays are copied, and the string lists joined, slice after slice.
 */
export function* encodeSnapshotSliced(parts: SnapshotParts, room = 0): Sliced<Buffer> {
  const arrays: Header['arrays'] = []
  let offset = 0
  for (const [name, array] of Object.entries(parts.arrays)) {
    arrays.push({ name, type: typeOf(array), offset, length: array.length })
    offset = aligned(offset + array.byteLength)
  }
  const strings: Header['strings'] = []
  const blobs: Buffer[][] = []
  for (const [name, list] of Object.entries(parts.strings ?? {})) {
    const pieces = yield* joinedPieces(list)
    if (pieces === null) {
      strings.push({ name, offset, bytes: 0, count: list.length, json: list })
      continue
    }
    const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0)
    strings.push({ name, offset, bytes, count: list.length })
    blobs.push(pieces)
    offset = aligned(offset + bytes)
  }
  const header: Header = {
    endianness: endianness(),
    json: parts.json,
    arrays,
    strings,
    dataBytes: offset,
  }
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8')
  const start = aligned(MAGIC.length + 4 + headerBytes.length)
  const out = Buffer.alloc(start + offset + room)
  out.write(MAGIC, 0, 'latin1')
  out.writeUInt32LE(headerBytes.length, MAGIC.length)
  headerBytes.copy(out, MAGIC.length + 4)
  yield
  for (const { name, offset: at } of arrays) {
    const array = parts.arrays[name]!
    yield* copyInto(
      out,
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength),
      start + at,
    )
  }
  let blob = 0
  for (const { offset: at, json } of strings) {
    if (json !== undefined) continue
    let to = start + at
    for (const piece of blobs[blob++]!) {
      yield* copyInto(out, piece, to)
      to += piece.length
    }
  }
  return out
}

/**
 * `list` joined by NUL as UTF-8, in pieces of `SLICE_ITEMS` strings (the NUL after a piece's last
 * string ends it), one piece per slice: the same bytes as the whole list joined at once (227,000
 * edge ids took 20-25 ms so). Null when a string holds a NUL itself (the list is stored as JSON).
 */
function* joinedPieces(list: readonly string[]): Sliced<Buffer[] | null> {
  const pieces: Buffer[] = []
  for (let from = 0; from < list.length; from += SLICE_ITEMS) {
    const to = Math.min(list.length, from + SLICE_ITEMS)
    const slice = list.slice(from, to)
    if (slice.some((item) => item.includes('\u0000'))) return null
    pieces.push(
      Buffer.from(
        to < list.length ? `${slice.join('\u0000')}\u0000` : slice.join('\u0000'),
        'utf8',
      ),
    )
    yield
  }
  return pieces
}

/** `out.set(bytes, at)`, a `COPY_SLICE` at a time. */
function* copyInto(out: Uint8Array, bytes: Uint8Array, at: number): Sliced<void> {
  for (let from = 0; from < bytes.length; from += COPY_SLICE) {
    out.set(bytes.subarray(from, from + COPY_SLICE), at + from)
    yield
  }
}

/**
 * The parts `encodeSnapshot` wrote, each array a view on `bytes` (which it then keeps alive) or, where
 * misaligned, a copy. Throws on anything else (a foreign or truncated file, another byte order): the
 * caller rebuilds from storage.
 */
export function decodeSnapshot(bytes: Buffer): SnapshotParts {
  return runWhole(decodeSnapshotSliced(bytes))
}

/** As `decodeSnapshot`, yielding after each copied array and each string list (`sliced-work.ts`). */
export function* decodeSnapshotSliced(bytes: Buffer): Sliced<SnapshotParts> {
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC)
    throw new Error('not an index snapshot')
  const headerLength = bytes.readUInt32LE(MAGIC.length)
  const header = JSON.parse(
    bytes.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + headerLength),
  ) as Header
  if (header.endianness !== endianness())
    throw new Error(`snapshot written on a ${header.endianness} machine`)
  const start = aligned(MAGIC.length + 4 + headerLength)
  if (bytes.length !== start + header.dataBytes)
    throw new Error(`snapshot is ${bytes.length} bytes, expected ${start + header.dataBytes}`)
  const arrays: Record<string, SnapshotArray> = {}
  for (const { name, type, offset, length } of header.arrays) {
    const Type = ARRAY_TYPES[type]
    if (Type === undefined) throw new Error(`snapshot array '${name}' has unknown type '${type}'`)
    const from = start + offset
    const byteLength = length * Type.BYTES_PER_ELEMENT
    if (from + byteLength > bytes.length) throw new Error(`snapshot array '${name}' is cut short`)
    // A view on the file's bytes where they are aligned for the type (a file read whole is), else a copy.
    const at = bytes.byteOffset + from
    if (at % Type.BYTES_PER_ELEMENT === 0) {
      arrays[name] = new Type(bytes.buffer as ArrayBuffer, at, length)
      continue
    }
    const array = new Type(length)
    new Uint8Array(array.buffer).set(bytes.subarray(from, from + byteLength))
    arrays[name] = array
    yield
  }
  const strings: Record<string, string[]> = {}
  for (const { name, offset, bytes: size, count, json } of header.strings ?? []) {
    const from = start + offset
    if (from + size > bytes.length) throw new Error(`snapshot strings '${name}' are cut short`)
    // One list in one go: 100,000+ short ids take a few milliseconds. Cut into pieces, the list cost
    // more than that in collections (the pieces' strings are copied by the scavenger, one string of
    // more than 128 KiB is not).
    const list =
      json ?? (count === 0 ? [] : bytes.toString('utf8', from, from + size).split('\u0000'))
    if (list.length !== count)
      throw new Error(`snapshot strings '${name}' hold ${list.length} items`)
    strings[name] = list
    yield
  }
  return { json: header.json, arrays, strings }
}

/** The parts under `prefix.` (as `withPrefix` wrote them), without it. */
export function partsUnder(parts: SnapshotParts, prefix: string): SnapshotParts {
  const out: Required<SnapshotParts> = { json: {}, arrays: {}, strings: {} }
  const key = `${prefix}.`
  for (const kind of ['json', 'arrays', 'strings'] as const)
    for (const [name, value] of Object.entries(parts[kind] ?? {}))
      if (name.startsWith(key))
        (out[kind] as Record<string, unknown>)[name.slice(key.length)] = value
  return out
}

/**
 * `parts` with every name put under `prefix.` (unchanged for ''), to combine several components'
 * parts in one file.
 */
export function withPrefix(prefix: string, parts: SnapshotParts): SnapshotParts {
  const out: Required<SnapshotParts> = { json: {}, arrays: {}, strings: {} }
  for (const kind of ['json', 'arrays', 'strings'] as const)
    for (const [name, value] of Object.entries(parts[kind] ?? {}))
      (out[kind] as Record<string, unknown>)[prefix === '' ? name : `${prefix}.${name}`] = value
  return out
}

/** Several components' parts in one, each under its prefix (`withPrefix`). */
export function combineParts(named: readonly (readonly [string, SnapshotParts])[]): SnapshotParts {
  const out: Required<SnapshotParts> = { json: {}, arrays: {}, strings: {} }
  for (const [prefix, parts] of named) {
    const prefixed = withPrefix(prefix, parts)
    Object.assign(out.json, prefixed.json)
    Object.assign(out.arrays, prefixed.arrays)
    Object.assign(out.strings, prefixed.strings)
  }
  return out
}

/** Reads a required part, checking its kind: a snapshot from another version fails here, not later. */
export function jsonPart<T>(parts: SnapshotParts, name: string, check: (v: unknown) => boolean): T {
  const value = parts.json[name]
  if (!check(value)) throw new Error(`snapshot part '${name}' is missing or malformed`)
  return value as T
}

export function arrayPart<T extends SnapshotArray>(
  parts: SnapshotParts,
  name: string,
  type: new (n: number) => T,
): T {
  const value = parts.arrays[name]
  if (!(value instanceof type)) throw new Error(`snapshot array '${name}' is missing`)
  return value as T
}

/** A required string list. */
export function stringsPart(parts: SnapshotParts, name: string): string[] {
  const value = parts.strings?.[name]
  if (!Array.isArray(value)) throw new Error(`snapshot strings '${name}' are missing`)
  return value
}
export const isCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0
