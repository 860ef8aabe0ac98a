import { z } from 'zod'
import { isoDate, jsonObject } from './common.js'

/** A structured-data record (spec section 2.5): one per structured ingestion task. */
export const structuredRecordSchema = z.object({
  id: z.string(),
  data: jsonObject,
  types: z.array(z.string()),
  metadata: jsonObject,
  insertedAt: isoDate,
  brainVersion: z.string(),
})
export type StructuredRecord = z.infer<typeof structuredRecordSchema>
