import { z } from 'zod'
import { isoDate, jsonObject } from './common.js'

/** Change types written by graph writes (CONTRACT.md section 2). */
export const CHANGE_TYPES = [
  'node_created',
  'node_properties_updated',
  'node_merged',
  'node_deleted',
  'relationship_created',
  'relationship_properties_updated',
  'relationship_deprecated',
  'relationship_invalidated',
  'relationship_deleted',
  'observation_deleted',
  'source_ingested',
  'source_forgotten',
  'redacted',
] as const
export type ChangeType = (typeof CHANGE_TYPES)[number]

/**
 * One graph write (spec section 2.6). `change.type` repeats `type`; relationship changes hold
 * `subject`, `predicate` and `object`. `seq` is a per-brain monotonic sequence assigned by the adapter.
 */
export const changelogEntrySchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  timestamp: isoDate,
  type: z.string(),
  change: jsonObject,
})
export type ChangelogEntry = z.infer<typeof changelogEntrySchema>
