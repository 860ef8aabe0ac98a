import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  contextPack,
  createRetrieveDeps,
  recommend,
  synergies,
  type BrainStore,
  type Engram,
  type RecommendOptions,
  type RecommendResult,
} from '@engram/core'
import {
  bodyBoolean,
  bodyList,
  brainIdQuery,
  csvList,
  queryBoolean,
  requestTime,
  timeQuery,
} from '../schemas/common.js'
import { contextPackWire, toContextWire } from '../schemas/context-pack-wire.js'
import { flatMap } from '../schemas/free-form-map.js'
import { entityWire, toEntity } from '../schemas/wire-records.js'
import { defineRoute } from './define-route.js'
import { withObservations } from './retrieve-list-routes.js'

const target = z.string().min(1).max(512)

const recommendResponse = z.object({
  target_node: entityWire,
  recommendations: z.array(
    z.object({
      node: entityWire,
      channel: z.string(),
      connected_by: z.array(entityWire),
      score: z.number(),
    }),
  ),
})
const recommendOptions = {
  target,
  polarity: z.enum(['same', 'opposite']).default('same'),
  top_k: z.coerce.number().int().min(1).max(200).default(20),
  include_asymmetric: queryBoolean(true),
  include_multi_interest: queryBoolean(true),
  include_attribute_pref: queryBoolean(false),
  diversify: queryBoolean(true),
  asymmetric_direction: z.enum(['outbound', 'inbound', 'both']).default('outbound'),
  exclude_seen: queryBoolean(false),
  dampen_degree: queryBoolean(false),
  recency_half_life_days: z.coerce.number().min(0).max(36_500).optional(),
  labels: csvList,
}
const RECOMMEND_DESCRIPTION =
  'Event-graph recommendations computed at query time, no training: synergies, asymmetric walks, collaborative, multi-interest medoids, attribute preferences.'

interface WireRecommend {
  target: string
  polarity: 'same' | 'opposite'
  top_k: number
  include_asymmetric: boolean
  include_multi_interest: boolean
  include_attribute_pref: boolean
  diversify: boolean
  asymmetric_direction: 'outbound' | 'inbound' | 'both'
  exclude_seen: boolean
  dampen_degree: boolean
  recency_half_life_days?: number | undefined
  labels?: string[] | undefined
  behavior_weights?: Record<string, number> | undefined
}

function toRecommendOptions(wire: WireRecommend): RecommendOptions {
  return {
    polarity: wire.polarity,
    topK: wire.top_k,
    includeAsymmetric: wire.include_asymmetric,
    includeMultiInterest: wire.include_multi_interest,
    includeAttributePref: wire.include_attribute_pref,
    diversify: wire.diversify,
    asymmetricDirection: wire.asymmetric_direction,
    excludeSeen: wire.exclude_seen,
    dampenDegree: wire.dampen_degree,
    ...(wire.recency_half_life_days !== undefined
      ? { recencyHalfLifeDays: wire.recency_half_life_days }
      : {}),
    ...(wire.labels !== undefined && wire.labels.length > 0 ? { labels: wire.labels } : {}),
    ...(wire.behavior_weights !== undefined ? { behaviorWeights: wire.behavior_weights } : {}),
  }
}

/**
 * The ranked graph operations of `/retrieve` (CONTRACT.md section 6; issue 5 points 6-8): the context
 * pack, synergies and recommendations. Each request builds its dependencies from the selected brain.
 */
export function retrieveContextRoutes(app: FastifyInstance, engram: Engram) {
  const deps = (request: FastifyRequest) =>
    createRetrieveDeps(engram, request.brainId, {
      time: requestTime(request.method === 'GET' ? request.query : request.body),
    })
  const recommendWire = async (store: BrainStore, result: RecommendResult) => ({
    target_node: (await withObservations(store, [result.targetNode]))[0]!,
    recommendations: result.recommendations.map((r) => ({
      node: toEntity(r.node),
      channel: r.channel,
      connected_by: r.connectedBy.map((e) => toEntity(e)),
      score: r.score,
    })),
  })

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/entity/synergies',
      operationId: 'retrieve_entity_synergies',
      tag: 'retrieve',
      summary: 'Synergies of an entity',
      description: 'Association scores for nodes that share events or neighbours with `target`.',
      auth: 'brain',
      querystring: z.object({
        target,
        polarity: z.enum(['same', 'opposite']).default('same'),
        do: queryBoolean(false),
        pa: queryBoolean(false),
        ppa: queryBoolean(false),
        top_k: z.coerce.number().int().min(1).max(500).default(50),
        labels: csvList,
        ...brainIdQuery,
      }),
      success: {
        200: z.object({
          target_node: entityWire,
          anchors: z.array(entityWire),
          potential_anchors: z.array(entityWire),
          synergies: z.array(
            z.object({
              node: entityWire,
              association_score: z.number(),
              connected_by: z.array(entityWire),
            }),
          ),
        }),
      },
    },
    async (request) => {
      const d = await deps(request)
      const q = request.query
      const result = await synergies(d, q.target, {
        polarity: q.polarity,
        directOnly: q.do,
        potentialAnchors: q.pa,
        anchors: q.ppa,
        topK: q.top_k,
        ...(q.labels !== undefined && q.labels.length > 0 ? { labels: q.labels } : {}),
      })
      return {
        target_node: (await withObservations(d.store, [result.targetNode]))[0]!,
        anchors: result.anchors.map((e) => toEntity(e)),
        potential_anchors: result.potentialAnchors.map((e) => toEntity(e)),
        synergies: result.synergies.map((s) => ({
          node: toEntity(s.node),
          association_score: s.associationScore,
          connected_by: s.connectedBy.map((e) => toEntity(e)),
        })),
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/retrieve/context',
      operationId: 'retrieve_context',
      tag: 'retrieve',
      summary: 'Evidence pack for an LLM',
      description:
        'Event-centred facts ranked with personalized PageRank and diversified with MMR, plus source passages. The booleans `use_ppr` and `profile_stages` take JSON booleans or `"true"`/`"false"`/`"1"`/`"0"`.',
      auth: 'brain',
      body: z.object({
        text: z.string().min(1).max(10_000),
        max_facts: z.number().int().min(0).max(500).default(40),
        max_passages: z.number().int().min(0).max(100).default(8),
        historical_limit: z.number().int().min(0).max(100).default(10),
        use_ppr: bodyBoolean(true),
        profile_stages: bodyBoolean(false),
        brain_id: z.string().max(200).optional(),
        ...timeQuery,
      }),
      success: { 200: contextPackWire },
      unavailableWhen: ['embedder'],
    },
    async (request) => {
      const b = request.body
      const pack = await contextPack(await deps(request), b.text, {
        maxFacts: b.max_facts,
        maxPassages: b.max_passages,
        historicalLimit: b.historical_limit,
        usePpr: b.use_ppr,
        profileStages: b.profile_stages,
      })
      return toContextWire(pack)
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/recommend',
      operationId: 'retrieve_recommend_get',
      tag: 'retrieve',
      summary: 'Recommendations for a target',
      description: RECOMMEND_DESCRIPTION,
      auth: 'brain',
      querystring: z.object({ ...recommendOptions, ...brainIdQuery }),
      success: { 200: recommendResponse },
    },
    async (request) => {
      const q = request.query
      const d = await deps(request)
      return recommendWire(d.store, await recommend(d, q.target, toRecommendOptions(q)))
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/retrieve/recommend',
      operationId: 'retrieve_recommend_post',
      tag: 'retrieve',
      summary: 'Recommendations for a target (with behaviour weights)',
      description:
        'As GET, with the options in the body (lists as a JSON array or a comma-separated string, booleans as JSON or `"true"`/`"false"`), plus `behavior_weights` {behaviour: weight}.',
      auth: 'brain',
      body: z.object({
        target,
        polarity: z.enum(['same', 'opposite']).default('same'),
        top_k: z.number().int().min(1).max(200).default(20),
        include_asymmetric: bodyBoolean(true),
        include_multi_interest: bodyBoolean(true),
        include_attribute_pref: bodyBoolean(false),
        diversify: bodyBoolean(true),
        asymmetric_direction: z.enum(['outbound', 'inbound', 'both']).default('outbound'),
        exclude_seen: bodyBoolean(false),
        dampen_degree: bodyBoolean(false),
        recency_half_life_days: z.number().min(0).max(36_500).optional(),
        labels: bodyList({ maxItems: 50, maxLength: 128 }),
        behavior_weights: flatMap(z.number().finite()).optional(),
        brain_id: z.string().max(200).optional(),
      }),
      success: { 200: recommendResponse },
    },
    async (request) => {
      const b = request.body
      const d = await deps(request)
      return recommendWire(d.store, await recommend(d, b.target, toRecommendOptions(b)))
    },
  )
}
