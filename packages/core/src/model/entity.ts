import { z } from 'zod'
import { isoDate, jsonObject, polarity, validityFields } from './common.js'

/** Label carried by event nodes: the graph is event-centric ("who did what to whom, when"). */
export const EVENT_LABEL = 'EVENT'

/**
 * A graph node (spec section 2.1). Events are entities with label `EVENT`.
 * `aliases` and `sourcePassageIds` are internal: they drive entity resolution and provenance.
 */
export const entitySchema = z.object({
  uuid: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  labels: z.array(z.string()),
  properties: jsonObject,
  metadata: jsonObject.nullable(),
  happenedAt: isoDate.nullable(),
  lastUpdated: isoDate,
  polarity,
  aliases: z.array(z.string()),
  sourcePassageIds: z.array(z.string()),
  /** Events only: the validity window of the fact the event states (docs/time.md). */
  ...validityFields,
})
export type Entity = z.infer<typeof entitySchema>

export function isEvent(entity: Pick<Entity, 'labels'>): boolean {
  return entity.labels.includes(EVENT_LABEL)
}
