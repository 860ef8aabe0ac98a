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
  type ContextBranch,
  type Engram,
  type Entity,
  type Hop,
  type MatchPath,
  type NeighborsResult,
  type Relationship,
  type SearchService,
} from '@engram/core'
import { brainIdQuery, csvList, jsonObjectWire, queryBoolean } from '../schemas/common.js'
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
      most_common: entityWire.nullable(),
      relationship: relationshipWire,
      similarity_score: z.number().min(0).max(1),
    }),
  ),
})
const target = z.string().min(1).max(512)

type EntityWire = z.infer<typeof entityWire>

function toNeighbors(result: NeighborsResult, main: EntityWire): z.infer<typeof neighborsResponse> {
  return {
    main_node: main,
    count: result.count,
    neighbors: result.neighbors.map((n) => ({
      neighbor: toEntity(n.neighbor),
      most_common: n.mostCommon === null ? null : toEntity(n.mostCommon),
      relationship: toRelationship(n.relationship),
      similarity_score: n.similarityScore,
    })),
  }
}

function toBranch(b: ContextBranch): Record<string, unknown> {
  return {
    predicate: toRelationship(b.predicate),
    node: toEntity(b.node),
    direction: b.direction,
    neighbors: b.neighbors.map(toBranch),
  }
}

function toMatchPath(p: MatchPath): {
  target_node: EntityWire
  similarity: number
  path: unknown[]
  children: unknown[]
} {
  return {
    target_node: toEntity(p.targetNode),
    similarity: p.similarity,
    // The original's sentinel for "nothing matched": an empty predicate, then the target itself.
    path:
      p.steps.length === 0
        ? [{ name: '', description: '' }, toEntity(p.targetNode)]
        : p.steps.flatMap((s) => [toRelationship(s.relationship), toEntity(s.node)]),
    children: p.children.map(toMatchPath),
  }
}

const flatNode = (e: Entity) => ({ uuid: e.uuid, labels: e.labels, name: e.name })
const flatPredicate = (r: Relationship, direction: 'out' | 'in') => ({
  uuid: r.uuid,
  name: r.name,
  direction,
})

/**
 * The graph operations of `/retrieve` (CONTRACT.md section 6; issue 5 points 1-5): the plain retrieve
 * bundle, neighbours (GET, POST, ai-mode), entity context, info and status, and hops. Each request
 * builds its dependencies from the selected brain (store, indexes and, when configured, vectors).
 */
export function retrieveGraphRoutes(app: FastifyInstance, engram: Engram, search: SearchService) {
  const deps = (request: FastifyRequest) => createRetrieveDeps(engram, search, request.brainId)

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
      querystring: z.object({
        text: z.string().min(1).max(2000),
        preferred_entities: z.string().max(2000),
        limit: z.coerce.number().int().min(1).max(100).default(10),
        ...brainIdQuery,
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
      querystring: z.object({
        uuid: z.string().min(1).max(200),
        limit: z.coerce.number().int().min(1).max(100).default(10),
        look_for: z.string().max(2000).optional(),
        ...brainIdQuery,
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
        'Identifies the entity by `identification_params` (`name`, optional `entity_types` and properties).',
      auth: 'brain',
      body: z.object({
        identification_params: freeFormMap(),
        limit: z.number().int().min(1).max(100).default(10),
        look_for: z.string().max(2000).optional(),
        brain_id: z.string().max(200).optional(),
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
      description: 'Neighbours ranked by similarity to each `looking_for` phrase; no LLM required.',
      auth: 'brain',
      body: z.object({
        identification_params: freeFormMap(),
        looking_for: z.array(z.string().max(500)).min(1).max(20),
        limit: z.number().int().min(1).max(100).default(10),
        brain_id: z.string().max(200).optional(),
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
      }),
      success: {
        200: z.object({
          target_node: entityWire,
          neighborhood: z.array(jsonObjectWire),
          natural_language_web: z.array(z.unknown()),
          text_contexts: z.array(z.unknown()),
        }),
      },
    },
    async (request) => {
      const d = await deps(request)
      const result = await entityContext(d, request.query.target, request.query.context_depth)
      return {
        target_node: (await withObservations(d.store, [result.targetNode]))[0]!,
        neighborhood: result.neighborhood.map(toBranch),
        natural_language_web: result.naturalLanguageWeb,
        text_contexts: result.textContexts,
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
      querystring: z.object({
        target,
        query: z.string().min(1).max(2000),
        max_depth: z.coerce.number().int().min(1).max(5).default(3),
        ...brainIdQuery,
      }),
      success: {
        200: z.object({
          target_node: entityWire,
          path: z.object({
            target_node: entityWire.nullable(),
            similarity: z.number(),
            path: z.array(z.unknown()),
            children: z.array(z.unknown()),
          }),
        }),
      },
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
        'Existence, relationships and observations of `target`; an unknown target answers 200 with `exists: false`.',
      auth: 'brain',
      querystring: z.object({ target, types: csvList, ...brainIdQuery }),
      success: {
        200: z.object({
          exists: z.boolean(),
          has_relationships: z.boolean(),
          node: entityWire.nullable(),
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
        node: status.node === null ? null : toEntity(status.node),
        observations: status.observations.map(toObservation),
        relationships: status.relationships.map(
          ([r, e]): [ReturnType<typeof toRelationship>, EntityWire] => [
            toRelationship(r),
            toEntity(e),
          ],
        ),
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
        'Seeds from the entities channel, then 1..3 degrees of neighbours, flattened or full.',
      auth: 'brain',
      querystring: z.object({
        query: z.string().min(1).max(2000),
        degrees: z.coerce.number().int().min(1).max(3).default(2),
        flattened: queryBoolean(true),
        ...brainIdQuery,
      }),
      success: { 200: z.array(z.unknown()) },
    },
    async (request) => {
      const q = request.query
      const trees = await hops(await deps(request), q.query, q.degrees)
      return trees.map((tree) => [
        q.flattened ? flatNode(tree.seed) : toEntity(tree.seed),
        tree.hops.map((h) => toHopAt(h, 1, q.degrees, q.flattened)),
      ])
    },
  )
}

/** A hop at `level` (1-based): `[pred, node]` at the last degree, else `[pred, node, [...next]]`. */
function toHopAt(h: Hop, level: number, degrees: number, flattened: boolean): unknown[] {
  const pair = flattened
    ? [flatPredicate(h.relationship, h.direction), flatNode(h.node)]
    : [toRelationship(h.relationship), toEntity(h.node)]
  if (level >= degrees) return pair
  return [...pair, h.next.map((n) => toHopAt(n, level + 1, degrees, flattened))]
}
