import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  createRetrieveDeps,
  entityContext,
  entityInfo,
  entityStatus,
  hops,
  neighborsAiMode,
  neighborsByIdentification,
  neighborsByUuid,
  retrieveRoot,
  type Engram,
  type Hop,
  type MatchPath,
  type NeighborsResult,
} from '@engram/core'
import { brainIdQuery, csvList, queryBoolean, requestTime, timeQuery } from '../schemas/common.js'
import { entityContextWire, toEntityContextWire } from '../schemas/entity-context-wire.js'
import { freeFormMap } from '../schemas/free-form-map.js'
import {
  entityWire,
  observationWire,
  passageWire,
  relationshipWire,
  toEntity,
  toObservation,
  toPassage,
  toRelationship,
} from '../schemas/wire-records.js'
import { defineRoute } from './define-route.js'
import { withObservations } from './retrieve-list-routes.js'

const neighborsResponse = z.object({
  main_node: entityWire,
  count: z.number().int(),
  neighbors: z.array(
    z.object({
      neighbor: entityWire,
      most_common: entityWire.describe(
        'The shared neighbour that best explains the link (the most specific node adjacent to both); for a direct neighbour that shares none, the main node itself.',
      ),
      relationship: relationshipWire,
      similarity_score: z.number().min(0).max(1),
    }),
  ),
})
const target = z.string().min(1).max(512)

type EntityWire = z.infer<typeof entityWire>
type RelationshipWire = z.infer<typeof relationshipWire>

function toNeighbors(result: NeighborsResult, main: EntityWire): z.infer<typeof neighborsResponse> {
  return {
    main_node: main,
    count: result.count,
    neighbors: result.neighbors.map((n) => ({
      neighbor: toEntity(n.neighbor),
      most_common: toEntity(n.mostCommon),
      relationship: toRelationship(n.relationship),
      similarity_score: n.similarityScore,
    })),
  }
}

/** One element of an entity/info path: a Relationship or an Entity (they alternate). */
const pathElementWire = z.xor([relationshipWire, entityWire])
const runnerUpPathWire = z.object({
  target_node: entityWire.describe('The node the path ends at.'),
  similarity: z.number().min(0).max(1),
  path: z
    .array(pathElementWire)
    .describe('Relationship, Entity, Relationship, Entity, ... from the target to `target_node`.'),
  children: z.array(z.never()).describe('Always empty for a runner-up.'),
})
const matchPathWire = runnerUpPathWire.extend({
  target_node: entityWire.describe(
    'The node the best path ends at; the target itself when no path matches the query.',
  ),
  path: z
    .array(pathElementWire)
    .describe(
      'Relationship, Entity, Relationship, Entity, ... from the target to `target_node`; empty (with `similarity` 0) when no path matches the query.',
    ),
  children: z
    .array(runnerUpPathWire)
    .describe('Runner-up paths ending at other nodes (at most 3).'),
})

function toRunnerUp(p: MatchPath): z.infer<typeof runnerUpPathWire> {
  return {
    target_node: toEntity(p.targetNode),
    similarity: p.similarity,
    // Nothing matched: an empty path (the original put a placeholder predicate with no uuid here).
    path: p.steps.flatMap((s) => [toRelationship(s.relationship), toEntity(s.node)]),
    children: [],
  }
}

const toMatchPath = (p: MatchPath): z.infer<typeof matchPathWire> => ({
  ...toRunnerUp(p),
  children: p.children.map(toRunnerUp),
})

/**
 * `/retrieve/hops`: one `[seed, hops]` per seed, where a hop is `[Relationship, Entity]` at the last
 * degree and `[Relationship, Entity, hops]` before it. Written out for the three degrees allowed (a
 * recursive schema would do, but code generators handle explicit tuples better).
 */
const lastHopWire = z.tuple([relationshipWire, entityWire])
const middleHopWire = z.tuple([relationshipWire, entityWire, z.array(lastHopWire).optional()])
const firstHopWire = z.tuple([relationshipWire, entityWire, z.array(middleHopWire).optional()])
const hopsResponse = z
  .array(z.tuple([entityWire, z.array(firstHopWire)]))
  .describe(
    'One [seed, hops] per seed; a hop is [Relationship, Entity] at the last degree, else [Relationship, Entity, hops].',
  )

/**
 * The graph operations of `/retrieve` (CONTRACT.md section 6; issue 5 points 1-5): the plain retrieve
 * bundle, neighbours (GET, POST, ai-mode), entity context, info and status, and hops. Each request
 * builds its dependencies from the selected brain (store, indexes and, when configured, vectors).
 */
export function retrieveGraphRoutes(app: FastifyInstance, engram: Engram) {
  const deps = (request: FastifyRequest) =>
    createRetrieveDeps(engram, request.brainId, {
      time: requestTime(request.method === 'GET' ? request.query : request.body),
    })

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/',
      operationId: 'retrieve_passages',
      tag: 'retrieve',
      summary: 'Passages, observations and relationships for a text',
      description:
        'Hybrid passage retrieval for `text`, their observations, and relationships around the entities they mention, with `preferred_entities` labels ranked first.',
      auth: 'brain',
      unavailableWhen: ['embedder'],
      querystring: z.object({
        text: z.string().min(1).max(2000),
        preferred_entities: z.string().max(2000),
        limit: z.coerce.number().int().min(1).max(100).default(10),
        ...brainIdQuery,
        ...timeQuery,
      }),
      success: {
        200: z.object({
          data: z.array(passageWire),
          observations: z.array(observationWire),
          relationships: z.array(
            z.object({ subject: entityWire, predicate: relationshipWire, object: entityWire }),
          ),
        }),
      },
    },
    async (request) => {
      const q = request.query
      const result = await retrieveRoot(
        await deps(request),
        q.text,
        q.preferred_entities.split(','),
        q.limit,
      )
      return {
        data: result.data.map(toPassage),
        observations: result.observations.map(toObservation),
        relationships: result.relationships.map((t) => ({
          subject: toEntity(t.subject),
          predicate: toRelationship(t.predicate),
          object: toEntity(t.object),
        })),
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/entities/neighbors',
      operationId: 'retrieve_neighbors_get',
      tag: 'retrieve',
      summary: 'Neighbours of an entity',
      description:
        'Neighbours of the entity `uuid` with a real `similarity_score` in [0, 1]; `look_for` filters and re-ranks.',
      auth: 'brain',
      unavailableWhen: ['embedder'],
      querystring: z.object({
        uuid: z.string().min(1).max(200),
        limit: z.coerce.number().int().min(1).max(100).default(10),
        look_for: z.string().max(2000).optional(),
        ...brainIdQuery,
        ...timeQuery,
      }),
      success: { 200: neighborsResponse },
    },
    async (request) => {
      const d = await deps(request)
      const q = request.query
      const result = await neighborsByUuid(d, q.uuid, { limit: q.limit, lookFor: q.look_for })
      return toNeighbors(result, (await withObservations(d.store, [result.mainNode]))[0]!)
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/retrieve/entities/neighbors',
      operationId: 'retrieve_neighbors_post',
      tag: 'retrieve',
      summary: 'Neighbours of an identified entity',
      description:
        'Identifies the entity by `identification_params` (`name`, optional `entity_types` as an array or a comma-separated string, and properties).',
      auth: 'brain',
      unavailableWhen: ['embedder'],
      body: z.object({
        identification_params: freeFormMap(),
        limit: z.number().int().min(1).max(100).default(10),
        look_for: z.string().max(2000).optional(),
        brain_id: z.string().max(200).optional(),
        ...timeQuery,
      }),
      success: { 200: neighborsResponse },
    },
    async (request) => {
      const d = await deps(request)
      const b = request.body
      const result = await neighborsByIdentification(d, b.identification_params, {
        limit: b.limit,
        lookFor: b.look_for,
      })
      return toNeighbors(result, (await withObservations(d.store, [result.mainNode]))[0]!)
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/retrieve/entities/neighbors/ai-mode',
      operationId: 'retrieve_neighbors_ai_mode',
      tag: 'retrieve',
      summary: 'Neighbours ranked by what you look for',
      description:
        'Neighbours ranked by similarity to each `looking_for` phrase; no LLM required. `looking_for` is a JSON array only: a phrase may contain commas, so a string is not split. `identification_params.entity_types` takes an array or a comma-separated string.',
      auth: 'brain',
      unavailableWhen: ['embedder'],
      body: z.object({
        identification_params: freeFormMap(),
        looking_for: z.array(z.string().max(500)).min(1).max(20),
        limit: z.number().int().min(1).max(100).default(10),
        brain_id: z.string().max(200).optional(),
        ...timeQuery,
      }),
      success: { 200: neighborsResponse },
    },
    async (request) => {
      const d = await deps(request)
      const b = request.body
      const result = await neighborsAiMode(d, b.identification_params, {
        lookingFor: b.looking_for,
        limit: b.limit,
      })
      return toNeighbors(result, (await withObservations(d.store, [result.mainNode]))[0]!)
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/entity/context',
      operationId: 'retrieve_entity_context',
      tag: 'retrieve',
      summary: 'Neighbourhood of an entity',
      description: 'Depth-limited, fan-out-capped, cycle-free neighbourhood of `target`.',
      auth: 'brain',
      querystring: z.object({
        target,
        context_depth: z.coerce.number().int().min(1).max(5).default(3),
        ...brainIdQuery,
        ...timeQuery,
      }),
      success: {
        200: z.object({ target_node: entityWire, ...entityContextWire }),
      },
    },
    async (request) => {
      const d = await deps(request)
      const result = await entityContext(d, request.query.target, request.query.context_depth)
      return {
        target_node: (await withObservations(d.store, [result.targetNode]))[0]!,
        ...toEntityContextWire(result),
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/entity/info',
      operationId: 'retrieve_entity_info',
      tag: 'retrieve',
      summary: 'Best path answering a query about an entity',
      description: 'The path from `target` whose relationships best match `query`, with recency.',
      auth: 'brain',
      unavailableWhen: ['embedder'],
      querystring: z.object({
        target,
        query: z.string().min(1).max(2000),
        max_depth: z.coerce.number().int().min(1).max(5).default(3),
        ...brainIdQuery,
        ...timeQuery,
      }),
      success: { 200: z.object({ target_node: entityWire, path: matchPathWire }) },
    },
    async (request) => {
      const d = await deps(request)
      const q = request.query
      const result = await entityInfo(d, q.target, q.query, q.max_depth)
      return {
        target_node: (await withObservations(d.store, [result.targetNode]))[0]!,
        path: toMatchPath(result.path),
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/entity/status',
      operationId: 'retrieve_entity_status',
      tag: 'retrieve',
      summary: 'Whether an entity exists',
      description:
        'Existence, relationships and observations of `target`; an unknown target answers 200 with `exists: false`. `types` may name entity labels and relationship types (case-insensitive): a value that is a label of some entity of the brain is an entity label, and the entity must carry one of them, else `exists: false`; any other value is a relationship type (`FOUNDED`, `works at`), which keeps only the relationships of those types (`has_relationships` says whether there are any) and never decides existence.',
      auth: 'brain',
      querystring: z.object({
        target,
        types: csvList.describe(
          'Relationship types and/or entity labels, comma-separated; repeating the key is also accepted.',
        ),
        ...brainIdQuery,
        ...timeQuery,
      }),
      success: {
        200: z.object({
          exists: z.boolean(),
          has_relationships: z.boolean(),
          node: entityWire.optional().describe('Left out when `exists` is false.'),
          observations: z.array(observationWire),
          relationships: z.array(z.tuple([relationshipWire, entityWire])),
        }),
      },
    },
    async (request) => {
      const status = await entityStatus(
        await deps(request),
        request.query.target,
        request.query.types ?? [],
      )
      return {
        exists: status.exists,
        has_relationships: status.hasRelationships,
        ...(status.node !== null ? { node: toEntity(status.node) } : {}),
        observations: status.observations.map(toObservation),
        relationships: status.relationships.map(([r, e]): [RelationshipWire, EntityWire] => [
          toRelationship(r),
          toEntity(e),
        ]),
      }
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/retrieve/hops',
      operationId: 'retrieve_hops',
      tag: 'retrieve',
      summary: 'Graph hops from seeds found by a query',
      description:
        "Seeds from the entities channel, then 1..3 degrees of neighbours, as full Entity and Relationship records in both forms. `flattened` (default true) gives the walk: each Relationship's `direction` is the hop's, `out` when the node above is its subject and `in` when it is its object; `flattened=false` gives every Relationship as stored.",
      auth: 'brain',
      unavailableWhen: ['embedder'],
      querystring: z.object({
        query: z.string().min(1).max(2000),
        degrees: z.coerce.number().int().min(1).max(3).default(2),
        flattened: queryBoolean(true),
        ...brainIdQuery,
        ...timeQuery,
      }),
      success: { 200: hopsResponse },
    },
    async (request) => {
      const q = request.query
      const trees = await hops(await deps(request), q.query, q.degrees)
      return trees.map((tree): z.infer<typeof hopsResponse>[number] => [
        toEntity(tree.seed),
        tree.hops.map((h) => toHopAt(h, 1, q.degrees, q.flattened) as z.infer<typeof firstHopWire>),
      ])
    },
  )
}

type HopWire = [RelationshipWire, EntityWire] | [RelationshipWire, EntityWire, HopWire[]]

/**
 * A hop at `level` (1-based): `[pred, node]` at the last degree, else `[pred, node, [...next]]`.
 * Flattened, the predicate's `direction` is the hop's (as the original's cut-down form had it).
 */
function toHopAt(h: Hop, level: number, degrees: number, flattened: boolean): HopWire {
  const stored = toRelationship(h.relationship)
  const pair: [RelationshipWire, EntityWire] = [
    flattened ? { ...stored, direction: h.direction } : stored,
    toEntity(h.node),
  ]
  if (level >= degrees) return pair
  return [...pair, h.next.map((n) => toHopAt(n, level + 1, degrees, flattened))]
}
