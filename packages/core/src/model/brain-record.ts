import { z } from 'zod'
import { isoDate } from './common.js'

/** Brain ids: a letter, then letters, digits, `_` or `-`, at most 64 characters (CONTRACT.md section 1). */
export const BRAIN_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/
export const RESERVED_BRAIN_IDS: ReadonlySet<string> = new Set(['system'])

/** A brain as stored: the token is kept only as a SHA-256 hash plus its last four characters. */
export const brainRecordSchema = z.object({
  id: z.string(),
  nameKey: z.string(),
  tokenHash: z.string(),
  tokenLast4: z.string(),
  createdAt: isoDate,
})
export type BrainRecord = z.infer<typeof brainRecordSchema>

export function isValidBrainId(id: string): boolean {
  return BRAIN_ID_PATTERN.test(id) && !RESERVED_BRAIN_IDS.has(id)
}
