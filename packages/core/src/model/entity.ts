import { z } from 'zod'
import { isoDate, jsonObject, polarity, validityFields } from './common.js'

/** Label carried by event nodes: the graph is event-centric ("who did what to whom, when"). */
export const EVENT_LABEL = 'EVENT'

/**
 * Labels of nodes that are values, not things a text is about. The local extractor makes a `DATE` node
 * of each date a sentence writes with a year, for its events to occur on: a year then joins every event
 * of that year in a brain, across unrelated texts. So what associates nodes leaves values out: graph
 * walks unless told otherwise (`GraphWalkOptions.skipLabels`; a walk through a year spreads a question's
 * mass over its events, MuSiQue-100: benchmarks/LOG.md, 2026-12-06), synergies, and recommendations
 * unless their `labels` ask for values (`GraphIndex.isValue`).
 */
export const VALUE_LABELS: readonly string[] = ['DATE']

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
