import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const TOKEN_PREFIX = 'spat_'

/** A new token: `spat_` + base64url of 32 CSPRNG bytes (CONTRACT.md section 1). */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url')
}

/** SHA-256 hex of a token: the only form in which tokens are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

export function tokenLast4(token: string): string {
  return token.slice(-4)
}

/** The form lists show: `spat_…` + the last four characters. */
export function maskToken(last4: string): string {
  return `${TOKEN_PREFIX}…${last4}`
}

/** Compares two hex digests in constant time (lengths are fixed for SHA-256). */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right)
}
