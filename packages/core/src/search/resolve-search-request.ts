import { z } from 'zod'
import { parseInput } from '../invalid-input.js'
import type { SearchInput, SearchRequest } from './search-request.js'

const list = z.array(z.string())

/**
 * Types and defaults only: the REST bounds (k at most 200, query at most 2,000 characters...) belong
 * to the callers that promise them (the routes, the library), so benchmarks may ask for deeper lists.
 */
const searchInput = z.object({
  query: z.string(),
  k: z.number().int().min(1).default(10),
  channels: list.optional(),
  nodeLabels: list.optional(),
  communityLabels: list.optional(),
  expand: z.enum(['auto', 'none', 'neighbors']).default('auto'),
  fusion: z.string().optional(),
  fusionAlpha: z.number().min(0).max(1).optional(),
  rerank: z.string().default('auto'),
  target: z.string().optional(),
  profileStages: z.boolean().default(false),
  extras: z.record(z.string(), z.unknown()).optional(),
  lexicalOnly: z.boolean().optional(),
  // ISO 8601 instants (docs/time.md); an unparsable one is a VALIDATION_ERROR naming it.
  asOf: z
    .string()
    .refine((v) => Number.isFinite(Date.parse(v)), 'not a date')
    .optional(),
  knownAt: z
    .string()
    .refine((v) => Number.isFinite(Date.parse(v)), 'not a date')
    .optional(),
})

/**
 * The full request for a search as a caller wrote it: omitted fields take the REST defaults (k 10,
 * channels `['passages']`, expand and rerank `auto`, profileStages false), and a field of the wrong
 * type is a VALIDATION_ERROR (422) naming it, never a TypeError deep in the pipeline (a missing
 * `rerank` used to fail in `planStages` on `undefined.startsWith`).
 */
export function resolveSearchRequest(input: SearchInput): SearchRequest {
  const r = parseInput('search', searchInput, input)
  return {
    query: r.query,
    k: r.k,
    channels: r.channels ?? ['passages'],
    expand: r.expand,
    rerank: r.rerank,
    profileStages: r.profileStages,
    ...(r.nodeLabels !== undefined ? { nodeLabels: r.nodeLabels } : {}),
    ...(r.communityLabels !== undefined ? { communityLabels: r.communityLabels } : {}),
    ...(r.fusion !== undefined ? { fusion: r.fusion } : {}),
    ...(r.fusionAlpha !== undefined ? { fusionAlpha: r.fusionAlpha } : {}),
    ...(r.target !== undefined ? { target: r.target } : {}),
    ...(r.extras !== undefined ? { extras: r.extras } : {}),
    ...(r.lexicalOnly !== undefined ? { lexicalOnly: r.lexicalOnly } : {}),
    ...(r.asOf !== undefined ? { asOf: r.asOf } : {}),
    ...(r.knownAt !== undefined ? { knownAt: r.knownAt } : {}),
  }
}
