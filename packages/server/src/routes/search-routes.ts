import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import {
  BUILTIN_NAMES,
  type SearchRequest,
  type SearchResponse,
  type SearchService,
} from '@engram/core'
import { bodyBoolean, bodyList, brainIdQuery, timeQuery } from '../schemas/common.js'
import { searchOptions } from '../schemas/search-options.js'
import { searchResponseWire } from '../schemas/search-wire.js'
import { flatMap } from '../schemas/free-form-map.js'
import type { DemoRateLimiter } from '../plugins/demo-rate-limit.js'
import { defineRoute } from './define-route.js'

export function toSearchWire(response: SearchResponse): z.infer<typeof searchResponseWire> {
  return {
    hits: response.hits.map((h) => ({
      id: h.id,
      node_id: h.nodeId,
      channel: h.channel,
      labels: h.labels,
      score: h.score,
      scores: h.scores,
      snippet: h.snippet,
      extras: h.extras,
    })),
    node_ids: response.nodeIds,
    channel_lists: response.channelLists,
    facets: response.facets,
    stage_timings: response.stageTimings ?? {},
  }
}

interface WireSearch {
  query: string
  k: number
  channels?: string[] | undefined
  node_labels?: string[] | undefined
  community_labels?: string[] | undefined
  expand: 'auto' | 'none' | 'neighbors'
  fusion?: string | undefined
  fusion_alpha?: number | undefined
  rerank: string
  target?: string | undefined
  profile_stages: boolean
  extras?: Record<string, string | number | boolean | null> | undefined
  as_of?: string | undefined
  known_at?: string | undefined
}

function toRequest(wire: WireSearch): SearchRequest {
  return {
    query: wire.query,
    k: wire.k,
    channels: wire.channels ?? ['passages'],
    expand: wire.expand,
    ...(wire.fusion !== undefined ? { fusion: wire.fusion } : {}),
    rerank: wire.rerank,
    profileStages: wire.profile_stages,
    ...(wire.node_labels ? { nodeLabels: wire.node_labels } : {}),
    ...(wire.community_labels ? { communityLabels: wire.community_labels } : {}),
    ...(wire.fusion_alpha !== undefined ? { fusionAlpha: wire.fusion_alpha } : {}),
    ...(wire.target ? { target: wire.target } : {}),
    ...(wire.extras ? { extras: wire.extras } : {}),
    ...(wire.as_of !== undefined ? { asOf: wire.as_of } : {}),
    ...(wire.known_at !== undefined ? { knownAt: wire.known_at } : {}),
  }
}

const DESCRIPTION = `Channels (${BUILTIN_NAMES.channel.join(', ')}, plugin:<name>) fused by the server's default fusion (cc: weighted sum of normalised list scores, weights calibrated per embedder and chosen by the brain's; ENGRAM_SEARCH_FUSION), or by name: cc (fusion_alpha: dense share), rrf (k=60), none or plugin:<name>; then, by default (expand=auto, rerank=auto) over passage channels, the graph stage and, for a question composed of look-ups ("the country where X was born"), rerank=plugin:hops (docs/default-search.md); graph expansion by name (expand=neighbors: passages re-ranked by a personalised PageRank over the passage-entity graph from the query's entities and best hits, passages one entity away added, and a passage lifted by the turns beside it in its session; entity hits add their one-hop neighbours; none turns it off), rerank (none, or plugin:<name>; built in: plugin:dense, cosine to the query embedding, plugin:coverage, the head re-ordered so each place covers query words the ones before it did not, and plugin:hops, coverage plus a hop through the graph from the first passage, for multi-hop questions) and personalization for \`target\`. Unknown channel, fusion or rerank: 400 naming the loaded ones.`

/** `/retrieve/search` GET and POST (CONTRACT.md section 7). */
export function searchRoutes(app: FastifyInstance, search: SearchService) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/search',
      operationId: 'retrieve_search_get',
      tag: 'retrieve',
      summary: 'Multi-channel search',
      description: DESCRIPTION,
      auth: 'brain',
      unavailableWhen: ['embedder'],
      querystring: z.object({ ...searchOptions, ...brainIdQuery, ...timeQuery }),
      success: { 200: searchResponseWire },
      errors: [400, 501],
    },
    async (request) => toSearchWire(await search.search(request.brainId, toRequest(request.query))),
  )
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/retrieve/search',
      operationId: 'retrieve_search_post',
      tag: 'retrieve',
      summary: 'Multi-channel search (with extras filters)',
      description: `${DESCRIPTION} POST takes the same options in the body (lists as a JSON array or a comma-separated string, booleans as JSON or \`"true"\`/\`"false"\`) and adds \`extras\`: metadata equality filters (case-insensitive) applied before the cut to k.`,
      auth: 'brain',
      unavailableWhen: ['embedder'],
      body: z.object({
        query: z.string().min(1).max(2000),
        k: z.number().int().min(1).max(200).default(10),
        channels: bodyList({ maxItems: 20, maxLength: 200 }),
        node_labels: bodyList({ maxItems: 50, maxLength: 128 }),
        community_labels: bodyList({ maxItems: 50, maxLength: 128 }),
        expand: z.enum(['auto', 'none', 'neighbors']).default('auto'),
        fusion: z.string().max(200).optional(),
        fusion_alpha: z.number().min(0).max(1).optional(),
        rerank: z.string().max(200).default('auto'),
        target: z.string().max(512).optional(),
        profile_stages: bodyBoolean(false),
        extras: flatMap(
          z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]),
        ).optional(),
        brain_id: z.string().max(200).optional(),
        ...timeQuery,
      }),
      success: { 200: searchResponseWire },
      errors: [400, 501],
    },
    async (request) => toSearchWire(await search.search(request.brainId, toRequest(request.body))),
  )
}

/** `/demo/search`: BM25 passages over the read-only documentation brain; no brain, no credentials. */
export function demoSearchRoute(
  app: FastifyInstance,
  docs: () => Promise<{ search: SearchService; brainId: string }>,
  limiter: DemoRateLimiter,
) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/demo/search',
      operationId: 'public_demo_search',
      tag: 'public',
      summary: 'Demo search over the documentation',
      description:
        'BM25 passage search over the read-only public documentation brain built from docs/ by the first search of it. Never accepts a brain; 30 requests per minute per client, then 429 for 60 s. Credentials sent to it are ignored and never logged.',
      auth: 'public',
      querystring: z.object({
        query: z.string().min(1).max(500),
        k: z.coerce.number().int().min(1).max(10).default(10),
      }),
      success: { 200: searchResponseWire },
      errors: [429],
    },
    async (request) => {
      await limiter.check(request.ip)
      const { search, brainId } = await docs()
      const response = await search.search(brainId, {
        query: request.query.query,
        k: request.query.k,
        channels: ['passages'],
        expand: 'none',
        fusion: 'none',
        rerank: 'none',
        profileStages: false,
        lexicalOnly: true,
      })
      return toSearchWire(response)
    },
  )
}
