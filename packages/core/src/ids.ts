import { randomUUID } from 'node:crypto'
import { digestBytes } from './digest.js'

/** Namespace for Engram's deterministic ids (a fixed random UUID). */
export const ENGRAM_NAMESPACE = '6f1c5a52-7b0e-4d8b-9a55-1f0d2c9e8b31'

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex')
}

/** The default namespace's bytes, parsed once: ingestion derives thousands of ids a second. */
const ENGRAM_NAMESPACE_BYTES = uuidBytes(ENGRAM_NAMESPACE)

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/**
 * Name-based UUID, version 5 (RFC 9562 section 5.5: SHA-1 of namespace + name). Deterministic ids make
 * a re-run of a task after a crash write the same records instead of duplicates.
 */
export function uuidV5(name: string, namespace: string = ENGRAM_NAMESPACE): string {
  const ns = namespace === ENGRAM_NAMESPACE ? ENGRAM_NAMESPACE_BYTES : uuidBytes(namespace)
  const bytes = sha1Of(ns, name).subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  return formatUuid(bytes)
}

/** Namespace + name, written here rather than concatenated per id (grown for a longer name). */
let input = Buffer.alloc(1024)

/** SHA-1 of the namespace's bytes followed by the name's UTF-8. */
function sha1Of(ns: Buffer, name: string): Buffer {
  const needed = ns.length + Buffer.byteLength(name, 'utf8')
  if (needed > input.length) input = Buffer.alloc(Math.max(needed, input.length * 2))
  ns.copy(input, 0)
  input.write(name, ns.length, 'utf8')
  return digestBytes('sha1', input.subarray(0, needed))
}

/** Deterministic id from several parts (joined unambiguously). */
export function stableId(...parts: string[]): string {
  return uuidV5(JSON.stringify(parts))
}

export function uuidV4(): string {
  return randomUUID()
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value)
}
