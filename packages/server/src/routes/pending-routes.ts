import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { csvList, queryBoolean } from '../schemas/common.js'
import { freeFormMap } from '../schemas/free-form-map.js'

/**
 * Operations of the contract that later work fills in. They are registered with their full schemas so
 * the OpenAPI document lists every path of the spec, and answer 501 NOT_IMPLEMENTED in the envelope.
 */
export const accepted = z.object({ message: z.string(), task_id: z.string() })
export const node = z.object({
  name: z.string().min(1).max(512),
  type: z.string().min(1).max(128),
  uuid: z.string().max(200).optional(),
  labels: z.array(z.string().max(128)).max(50).optional(),
  description: z.string().max(20_000).optional(),
  properties: freeFormMap().optional(),
  happened_at: z.string().max(64).optional(),
})
export const predicate = z.object({
  name: z.string().min(1).max(256),
  description: z.string().max(20_000).optional(),
  properties: freeFormMap().optional(),
  amount: z.number().finite().optional(),
})
export const searchOptions = {
  query: z.string().min(1).max(2000),
  k: z.coerce.number().int().min(1).max(200).default(10),
  channels: csvList,
  node_labels: csvList,
  community_labels: csvList,
  expand: z.enum(['none', 'neighbors']).default('none'),
  fusion: z.string().max(200).default('rrf'),
  fusion_alpha: z.coerce.number().min(0).max(1).optional(),
  rerank: z.string().max(200).default('none'),
  target: z.string().max(512).optional(),
  profile_stages: queryBoolean(false),
}

export function pendingRoutes(_app: FastifyInstance) {
  // Every operation of the contract is served; new pending operations register here with
  // `defineRoute(app, { ...spec, errors: [...(spec.errors ?? []), 501] }, notImplemented)`.
}
