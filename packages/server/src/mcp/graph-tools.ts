import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  EngramError,
  normalizeEntityName,
  notFound,
  predicateName,
  type BrainStore,
  type Engram,
  type Entity,
  type Relationship,
} from '@engram/core'
import { requestedBrain, selectBrain } from '../plugins/auth.js'
import { toEntity, toRelationship } from '../schemas/wire-records.js'
import { brainIdArg } from './brain-tools.js'
import { defineTool, READ_ONLY, type McpTool, type ToolContext } from './mcp-tool.js'

/** Most edges `traverse_graph` returns, whatever the fan-out of the nodes it reaches. */
const MAX_EDGES = 500

/**
 * The brain of a tool that reads the store itself: REST's own selection (X-Brain-ID, then the
 * `brain_id` argument in the place of the query fallback) and `selectBrain`, so a brain token reaches
 * only its brain here exactly as on REST.
 */
async function brainStore(engram: Engram, ctx: ToolContext, brainId: string | undefined) {
  const principal = ctx.request.principal
  if (principal === null) throw new EngramError('AUTH_INVALID')
  // requestedBrain reads only `headers`, `query` and `body`.
  const requested = requestedBrain({
    headers: ctx.request.headers,
    query: { brain_id: brainId },
    body: null,
  } as unknown as FastifyRequest)
  return engram.store(await selectBrain(engram, principal, requested))
}

/** uuid first, then exact name or alias (normalised); the most recently updated match wins. */
async function resolveEntity(store: BrainStore, target: string): Promise<Entity> {
  const [byUuid] = await store.getEntities([target])
  if (byUuid !== undefined) return byUuid
  const byName = await store.findEntitiesByName(normalizeEntityName(target))
  const best = byName.sort(
    (a, b) => b.lastUpdated.localeCompare(a.lastUpdated) || a.uuid.localeCompare(b.uuid),
  )[0]
  if (best === undefined) throw notFound('Entity', target.slice(0, 200))
  return best
}

/** Newest first, ties by uuid, so pages and traversals are deterministic. */
const byRecency = (a: Relationship, b: Relationship) =>
  b.lastUpdated.localeCompare(a.lastUpdated) || a.uuid.localeCompare(b.uuid)

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
  .describe('The entity: its uuid, or its exact name or alias (case-insensitive).')

/** `get_entity`: one entity with its observations and the relationships around it. */
export function getEntityTool(engram: Engram): McpTool {
  return defineTool({
    name: 'get_entity',
    title: 'Get an entity',
    description:
      'One entity of the brain by uuid or exact name/alias: its labels, properties and observations, and its relationships as {subject, predicate, object} (newest first, deprecated ones left out).',
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
    annotations: READ_ONLY,
    run: async ({ target, relationship_limit = 20, brain_id }, ctx) => {
      const store = await brainStore(engram, ctx, brain_id)
      const entity = await resolveEntity(store, target)
      const observations = await store.listObservations({
        resourceId: entity.uuid,
        limit: 100,
        skip: 0,
      })
      const relationships = (await store.relationshipsOf(entity.uuid))
        .filter((r) => !r.deprecated)
        .sort(byRecency)
      const shown = relationships.slice(0, relationship_limit)
      const others = new Map(
        (
          await store.getEntities([...new Set(shown.flatMap((r) => [r.subjectUuid, r.objectUuid]))])
        ).map((e) => [e.uuid, e]),
      )
      return {
        entity: toEntity(entity, observations.items),
        relationships: shown.flatMap((r) => {
          const subject = others.get(r.subjectUuid)
          const object = others.get(r.objectUuid)
          return subject && object
            ? [
                {
                  subject: toEntity(subject),
                  predicate: toRelationship(r),
                  object: toEntity(object),
                },
              ]
            : []
        }),
        relationship_count: relationships.length,
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
      'Walks the knowledge graph breadth-first from an entity (read-only): up to `depth` hops (1..5) and `limit` nodes (1..100), optionally only along some predicates or one direction. Returns the start, the nodes reached with their depth, the edges between them (subject_uuid -> object_uuid) and whether a limit was hit.',
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
    annotations: READ_ONLY,
    run: async (args, ctx) => {
      const { depth = 2, limit = 50, direction = 'both', include_deprecated = false } = args
      const store = await brainStore(engram, ctx, args.brain_id)
      const start = await resolveEntity(store, args.start)
      const predicates = args.predicates ? new Set(args.predicates.map(predicateName)) : null
      const reached = new Map<string, number>([[start.uuid, 0]])
      const edges = new Map<string, Relationship>()
      let frontier = [start.uuid]
      let truncated = false
      for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
        const next: string[] = []
        for (const uuid of frontier) {
          for (const r of (await store.relationshipsOf(uuid)).sort(byRecency)) {
            if (r.deprecated && !include_deprecated) continue
            if (predicates !== null && !predicates.has(r.name)) continue
            const outgoing = r.subjectUuid === uuid
            if ((direction === 'out' && !outgoing) || (direction === 'in' && outgoing)) continue
            const other = outgoing ? r.objectUuid : r.subjectUuid
            if (!reached.has(other)) {
              if (reached.size > limit) {
                truncated = true
                continue
              }
              reached.set(other, hop)
              next.push(other)
            }
            if (edges.size >= MAX_EDGES) truncated = true
            else edges.set(r.uuid, r)
          }
        }
        frontier = next
      }
      const entities = new Map(
        (await store.getEntities([...reached.keys()])).map((e) => [e.uuid, e]),
      )
      const nodes = [...reached]
        .filter(([uuid]) => uuid !== start.uuid && entities.has(uuid))
        .map(([uuid, hop]) => ({ depth: hop, ...toEntity(entities.get(uuid)!) }))
      return {
        start: toEntity(start),
        nodes,
        edges: [...edges.values()]
          .filter((r) => entities.has(r.subjectUuid) && entities.has(r.objectUuid))
          .map(edgeWire),
        truncated,
      }
    },
  })
}
