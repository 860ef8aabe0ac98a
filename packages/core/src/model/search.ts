import { z } from 'zod'

/** Per-signal scores of a hit (spec section 2.8). `plugin` maps plugin names to their score. */
export const hitScoresSchema = z.object({
  bm25: z.number().optional(),
  cc: z.number().optional(),
  dense: z.number().optional(),
  graph: z.number().optional(),
  personalize: z.number().optional(),
  rerank: z.number().optional(),
  rrf: z.number().optional(),
  plugin: z.record(z.string(), z.number()).optional(),
})
export type HitScores = z.infer<typeof hitScoresSchema>

export const searchHitSchema = z.object({
  id: z.string(),
  nodeId: z.string(),
  channel: z.string(),
  labels: z.array(z.string()),
  score: z.number(),
  scores: hitScoresSchema,
  snippet: z.string(),
  extras: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
})
export type SearchHit = z.infer<typeof searchHitSchema>

export const searchResponseSchema = z.object({
  hits: z.array(searchHitSchema),
  nodeIds: z.array(z.string()),
  channelLists: z.record(z.string(), z.array(z.string())),
  facets: z.record(z.string(), z.record(z.string(), z.number().int())),
  stageTimings: z.record(z.string(), z.unknown()).nullable(),
})
export type SearchResponse = z.infer<typeof searchResponseSchema>
