import { z } from 'zod'
import { direction, isoDate, jsonObject, validityFields } from './common.js'

/**
 * A directed edge subject -> object (spec section 2.2). `name` is the predicate type in UPPER_SNAKE.
 * The legs of one event share a `flowKey`. Every fact carries a validity window (docs/time.md):
 * `validAt`/`invalidAt` in event time (when it was true) and `createdAt`/`expiredAt` in system time
 * (when the brain learned it and when it learned that it stopped being true). Records written before
 * time existed lack them: `validityOf` reads those as "always valid, known since ever".
 */
export const relationshipSchema = z.object({
  uuid: z.string(),
  subjectUuid: z.string(),
  objectUuid: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  amount: z.number().nullable(),
  deprecated: z.boolean(),
  direction,
  flowKey: z.string().nullable(),
  level: z.string().nullable(),
  properties: jsonObject,
  happenedAt: isoDate.nullable(),
  lastUpdated: isoDate,
  sourcePassageIds: z.array(z.string()),
  ...validityFields,
})
export type Relationship = z.infer<typeof relationshipSchema>

/** Normalises a predicate name to UPPER_SNAKE (`works at` -> `WORKS_AT`). */
export function predicateName(raw: string): string {
  const name = raw
    .trim()
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase()
  return name.length > 0 ? name : 'RELATED_TO'
}
