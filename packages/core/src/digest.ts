import * as crypto from 'node:crypto'

type OneShot = (algorithm: string, data: string | Buffer, encoding: string) => string | Buffer

/**
 * `crypto.hash` (Node 20.12+; the engines field allows 20.11): one native call instead of a Hash object
 * and three, about 5 times faster on the short inputs ingestion hashes by the thousand (ids, cache
 * keys: 8.3 -> 1.7 us per id, measured on Node 20.20).
 */
const oneShot = (crypto as unknown as { hash?: OneShot }).hash

/** The digest of `data` (a string is hashed as UTF-8) as a Buffer. */
export function digestBytes(algorithm: 'sha1' | 'sha256', data: string | Buffer): Buffer {
  return oneShot !== undefined
    ? (oneShot(algorithm, data, 'buffer') as Buffer)
    : crypto.createHash(algorithm).update(data).digest()
}

/** The digest of `data` (a string is hashed as UTF-8) in `encoding`. */
export function digestText(
  algorithm: 'sha1' | 'sha256',
  data: string | Buffer,
  encoding: 'hex' | 'base64',
): string {
  return oneShot !== undefined
    ? (oneShot(algorithm, data, encoding) as string)
    : crypto.createHash(algorithm).update(data).digest(encoding)
}
