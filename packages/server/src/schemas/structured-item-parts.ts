import { z } from 'zod'
import { freeFormMap } from './free-form-map.js'

/** A node of a structured ingestion item (`subject`, `event`, `object`). */
export const nodeBody = z.object({
  name: z.string().min(1).max(512),
  type: z.string().min(1).max(128),
  uuid: z.string().max(200).optional(),
  labels: z.array(z.string().max(128)).max(50).optional(),
  description: z.string().max(20_000).optional(),
  properties: freeFormMap().optional(),
  happened_at: z.string().max(64).optional(),
})

/** A predicate of a structured ingestion item (`subj_event`, `event_obj`). */
export const predicateBody = z.object({
  name: z.string().min(1).max(256),
  description: z.string().max(20_000).optional(),
  properties: freeFormMap().optional(),
  amount: z.number().finite().optional(),
})
