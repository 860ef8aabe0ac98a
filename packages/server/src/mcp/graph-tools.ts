import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  createRetrieveDeps,
  EngramError,
  notFound,
  observationsOf,
  predicateName,
  resolveTarget,
  traverse,
  type Engram,
  type Entity,
  type Relationship,
  type RetrieveDeps,
} from '@engram/core'
import { requestedBrain, selectBrain } from '../plugins/auth.js'
import { toEntity, toRelationship } from '../schemas/wire-records.js'
import { brainIdArg } from './brain-tools.js'
import { defineTool, READ_ONLY, type McpTool, type ToolContext } from './mcp-tool.js'
import { getEntityOutput, RECORD_IDS, traverseOutput } from './tool-outputs.js'

/** Most edges `traverse_graph` returns, whatever the fan-out of the nodes it reaches. */
const MAX_EDGES = 500

/**
 * What the graph operations of a tool's brain read: REST's own brain selection (X-Brain-ID, then the
 * `brain_id` argument in the place of the query fallback) and `selectBrain`, so a brain token reaches
 * only its brain here exactly as on REST, then the dependencies REST's graph routes build.
 */
async function brainDeps(
  engram: Engram,
  ctx: ToolContext,
  brainId: string | undefined,
): Promise<RetrieveDeps> {
  const principal = ctx.request.principal
  if (principal === null) throw new EngramError('AUTH_INVALID')
  // requestedBrain reads only `headers`, `query` and `body`.
  const requested = requestedBrain({
    headers: ctx.request.headers,
    query: { brain_id: brainId },
    body: null,
  } as unknown as FastifyRequest)
  return createRetrieveDeps(engram, await selectBrain(engram, principal, requested))
}

/** Core's target resolution (uuid, then exact name or alias, then the entities channel), as REST's. */
async function resolveEntity(deps: RetrieveDeps, target: string): Promise<Entity> {
  const entity = await resolveTarget(deps, target)
  if (entity === null) throw notFound('Entity', target.slice(0, 200))
  return entity
}

const edgeWire = (r: Relationship) => ({
  ...toRelationship(r),
  subject_uuid: r.subjectUuid,
  object_uuid: r.objectUuid,
  happened_at: r.happenedAt ?? '',
})

const target = z
  .string()
  .min(1)
  .max(512)
  .describe(
    'The entity: its uuid, else its exact name or alias (case-insensitive; the best connected one), else the best entities match for the text.',
  )

/** `get_entity`: one entity with its observations and the relationships around it. */
export function getEntityTool(engram: Engram): McpTool {
  return defineTool({
    name: 'get_entity',
    title: 'Get an entity',
    description:
      'One entity of the brain, resolved as REST resolves targets (uuid, else exact name or alias, else the best entities match for the text): its labels, properties and observations, and its live relationships as {subject, predicate, object}, newest first, up to relationship_limit, with relationship_count, how many there are in all (deprecated ones and self-loops left out). Ids only with include_ids.',
    input: z.object({
      target,
      relationship_limit: z
        .number()
        .int()
        .min(0)
        .max(100)
        .optional()
        .describe('Relationships to include, 0..100 (default 20).'),
      brain_id: brainIdArg,
    }),
    output: getEntityOutput,
    ids: RECORD_IDS,
    annotations: READ_ONLY,
    run: async ({ target, relationship_limit = 20, brain_id }, ctx) => {
      const deps = await brainDeps(engram, ctx, brain_id)
      const entity = await resolveEntity(deps, target)
      // Its live edges, newest first: one hop of the walk `traverse_graph` takes, without limits.
      const around = await traverse(deps.store, entity, {
        depth: 1,
        limit: Number.POSITIVE_INFINITY,
        direction: 'both',
        maxEdges: Number.POSITIVE_INFINITY,
      })
      const nodes = new Map([entity, ...around.nodes.map((n) => n.node)].map((e) => [e.uuid, e]))
      return {
        entity: toEntity(entity, await observationsOf(deps.store, entity.uuid)),
        relationships: around.edges.slice(0, relationship_limit).map((r) => ({
          subject: toEntity(nodes.get(r.subjectUuid)!),
          predicate: toRelationship(r),
          object: toEntity(nodes.get(r.objectUuid)!),
        })),
        relationship_count: around.edges.length,
      }
    },
  })
}

/**
 * `traverse_graph`: breadth-first from one entity, read-only, at most `depth` (<= 5) hops and `limit`
 * (<= 100) nodes besides the start. Nodes are listed in the order reached, with their hop distance;
 * edges are those between listed nodes. `truncated` says a limit cut the walk short.
 */
export function traverseGraphTool(engram: Engram): McpTool {
  return defineTool({
    name: 'traverse_graph',
    title: 'Traverse the graph',
    description:
      'Walks the knowledge graph breadth-first from an entity (read-only): up to `depth` hops (1..5) and `limit` nodes (1..100) besides the start, along live relationships (newest first; deprecated ones with include_deprecated), optionally only some predicates or one direction. Returns the start, the nodes reached in that order with their depth, the edges between listed nodes (subject_uuid -> object_uuid, at most 500) and truncated: true when a limit cut the walk short. Node uuids are always there (edges refer to them); edge uuids and flow keys only with include_ids.',
    input: z.object({
      start: target,
      depth: z.number().int().min(1).max(5).optional().describe('Hops, 1..5 (default 2).'),
      limit: z
        .number()
        .int()
        .min(1)
        .max(100)
        .optional()
        .describe('Nodes to reach besides the start, 1..100 (default 50).'),
      direction: z
        .enum(['out', 'in', 'both'])
        .optional()
        .describe('Follow edges from subject to object (out), back (in), or both (default).'),
      predicates: z
        .array(z.string().min(1).max(256))
        .max(50)
        .optional()
        .describe('Only these relationship names (e.g. WORKS_AT; matched as UPPER_SNAKE).'),
      include_deprecated: z
        .boolean()
        .optional()
        .describe('Also follow deprecated relationships (default false).'),
      brain_id: brainIdArg,
    }),
    output: traverseOutput,
    ids: ['edges.uuid', 'flow_key', 'id', 'resource_id'],
    annotations: READ_ONLY,
    run: async (args, ctx) => {
      const { depth = 2, limit = 50, direction = 'both', include_deprecated = false } = args
      const deps = await brainDeps(engram, ctx, args.brain_id)
      const start = await resolveEntity(deps, args.start)
      const walk = await traverse(deps.store, start, {
        depth,
        limit,
        direction,
        predicates: args.predicates ? new Set(args.predicates.map(predicateName)) : null,
        includeDeprecated: include_deprecated,
        maxEdges: MAX_EDGES,
      })
      return {
        start: toEntity(start),
        nodes: walk.nodes.map(({ node, depth }) => ({ depth, ...toEntity(node) })),
        edges: walk.edges.map(edgeWire),
        truncated: walk.truncated,
      }
    },
  })
}
