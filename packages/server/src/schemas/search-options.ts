import { z } from 'zod'
import { csvList, queryBoolean } from './common.js'

/** The query options of `GET /retrieve/search` (spec section 4.1), spread into its querystring schema. */
export const searchOptions = {
  query: z.string().min(1).max(2000),
  k: z.coerce.number().int().min(1).max(200).default(10),
  channels: csvList,
  node_labels: csvList,
  community_labels: csvList,
  expand: z.enum(['auto', 'none', 'neighbors']).default('auto'),
  fusion: z.string().max(200).optional(),
  fusion_alpha: z.coerce.number().min(0).max(1).optional(),
  rerank: z.string().max(200).default('auto'),
  target: z.string().max(512).optional(),
  profile_stages: queryBoolean(false),
}
