import { z } from 'zod'
import { isoDate, jsonObject } from './common.js'

/** A salient statement about an entity or a passage (spec section 2.3). Labels live in `metadata.labels`. */
export const observationSchema = z.object({
  id: z.string(),
  resourceId: z.string(),
  text: z.string(),
  metadata: jsonObject,
  insertedAt: isoDate,
})
export type Observation = z.infer<typeof observationSchema>
