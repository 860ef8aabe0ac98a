import { z } from 'zod'
import { hitScoresSchema } from '@engram/core'

export const searchHitWire = z
  .object({
    id: z.string(),
    node_id: z.string(),
    channel: z.string(),
    labels: z.array(z.string()),
    score: z.number(),
    scores: hitScoresSchema,
    snippet: z.string().max(240),
    extras: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  })
  .meta({ id: 'SearchHit' })

/** `stage_timings` of search and context: `{}` unless `profile_stages` was asked for (never null). */
export const stageTimingsWire = z
  .object({
    profile: z.literal(true).optional(),
    total_ms: z.number().optional(),
    stages: z
      .array(
        z.object({
          stage: z.string(),
          calls: z.number().int(),
          wall_ms: z.number(),
          started_ms: z.number(),
          ended_ms: z.number(),
        }),
      )
      .optional(),
  })
  .describe('{} unless `profile_stages` was asked for; then the wall time of each stage.')

export const searchResponseWire = z
  .object({
    hits: z.array(searchHitWire),
    node_ids: z.array(z.string()),
    channel_lists: z.record(z.string(), z.array(z.string())),
    facets: z.record(z.string(), z.record(z.string(), z.number().int())),
    stage_timings: stageTimingsWire,
  })
  .meta({ id: 'SearchResponse' })
