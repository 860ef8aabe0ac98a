import { z } from 'zod'
import { stageTimingsWire } from '../schemas/search-wire.js'

/**
 * The results of the MCP tools as agents receive them: the REST shapes after `compactResult`. Every
 * field compaction may drop (a string, list or map that can be empty, an id left out unless
 * `include_ids`) is optional; what is always there (numbers, booleans, enums and each tool's main
 * field) is required. Ids are prefixed `Mcp` because the schemas share zod's global registry with the
 * REST ones (which name `Entity`, `Relationship`...); the OpenAPI document only takes what its routes
 * reference.
 */

/**
 * Ids of records: entity and relationship uuids, event flow keys, observation ids; and with them the
 * system times of a fact (`created_at`, `expired_at`: bookkeeping an agent rarely needs, docs/time.md).
 */
export const RECORD_IDS = [
  'uuid',
  'flow_key',
  'id',
  'resource_id',
  'created_at',
  'expired_at',
] as const

/** Ids of a search result: each hit's record id and graph node, and the id lists. */
export const SEARCH_IDS = ['id', 'node_id', 'node_ids', 'channel_lists'] as const

const text = z.string().optional()
const texts = z.array(z.string()).optional()
const map = z.record(z.string(), z.unknown()).optional()
const id = (what: string) => z.string().optional().describe(`${what} (only with include_ids).`)
const ids = (what: string) =>
  z.array(z.string()).optional().describe(`${what} (only with include_ids).`)

/** A fact's window (docs/time.md); the system times count as ids (`RECORD_IDS`). */
const windowOutput = {
  valid_at: z.string().optional().describe('When the fact became true (event time).'),
  invalid_at: z.string().optional().describe('When it stopped being true; absent while it holds.'),
  created_at: z.string().optional().describe('When the brain learned it (only with include_ids).'),
  expired_at: z
    .string()
    .optional()
    .describe('When the brain learned that it ended (only with include_ids).'),
}

export const observationOutput = z
  .object({
    id: id('The observation id'),
    resource_id: id('The entity it is about'),
    text,
    metadata: map,
    inserted_at: text,
  })
  .meta({ id: 'McpObservation' })

export const entityOutput = z
  .object({
    uuid: id('The entity uuid, a valid target of the graph tools'),
    name: text,
    description: text,
    labels: texts,
    properties: map,
    metadata: map,
    happened_at: z.string().optional().describe('When the event happened, as written.'),
    last_updated: text,
    polarity: z.enum(['positive', 'negative', 'neutral']),
    ...windowOutput,
    observations: z.array(observationOutput).optional(),
  })
  .meta({ id: 'McpEntity' })

export const relationshipOutput = z
  .object({
    uuid: id('The relationship uuid'),
    name: z.string().optional().describe('The predicate, UPPER_SNAKE (e.g. WORKS_AT).'),
    description: text,
    amount: z.number().optional(),
    deprecated: z.boolean(),
    direction: z.enum(['in', 'out', 'neutral']),
    flow_key: id('Shared by the legs of one event'),
    level: text,
    properties: map,
    last_updated: text,
    ...windowOutput,
    observations: z.array(observationOutput).optional(),
  })
  .meta({ id: 'McpRelationship' })

const stageTimings = stageTimingsWire.optional()

export const searchOutput = z.object({
  hits: z
    .array(
      z
        .object({
          id: id('The record id (a passage id, or an entity uuid)'),
          node_id: id('The graph node'),
          channel: z.string(),
          labels: texts,
          score: z.number().describe('Fused (then reranked) score, 3 significant digits.'),
          scores: z
            .record(z.string(), z.union([z.number(), z.record(z.string(), z.number())]))
            .optional()
            .describe(
              'Per-signal scores (bm25, dense, graph, cc, rrf, rerank, personalize, plugin).',
            ),
          snippet: z.string().optional().describe('At most 240 characters.'),
          extras: z
            .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
            .optional()
            .describe('Passage metadata, or an entity’s name and properties.'),
        })
        .meta({ id: 'McpSearchHit' }),
    )
    .describe('Best first; [] when nothing matched.'),
  node_ids: ids('Graph nodes of the hits'),
  channel_lists: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe('Each channel list’s ids, best first (only with include_ids).'),
  facets: z.record(z.string(), z.record(z.string(), z.number())).optional(),
  stage_timings: stageTimings,
})

export const contextOutput = z.object({
  text_context: z
    .string()
    .describe('The pack as text, ready for a prompt: topics, passages, then one line per fact.'),
  triples: z
    .array(
      z.object({
        identified_entity: z
          .string()
          .optional()
          .describe('The seed the fact was found from (bridge:<name> for a bridge fact).'),
        source_chunk_ids: ids('Passages the fact cites'),
        source_session_ids: ids('Sessions of those passages'),
        triple: z
          .array(z.union([entityOutput, relationshipOutput]))
          .describe(
            '[actor, leg, event, leg, target] (parts missing left out), or [subject, edge, object].',
          ),
      }),
    )
    .optional()
    .describe('The facts, best first.'),
  graph_session_ids: ids('Sessions the facts come from'),
  historical_context: texts.describe(
    'The question’s best passages in the order they were written (none match: the newest passages and records).',
  ),
  paths: z
    .array(
      z.object({
        hubs: ids('The two events'),
        shared_entity: id('The entity they share'),
        shared_entity_name: text,
        weight: z.number(),
        legs: ids('The legs touching the shared entity'),
      }),
    )
    .optional()
    .describe('Bridges: two chosen events sharing an entity.'),
  source_passages: texts.describe('The passages that answer best, best first.'),
  temporal_conflicts: z
    .array(
      z.object({
        entity_uuid: id('The subject'),
        entity_name: text,
        predicate: text,
        object_uuid: id('The object'),
        object_name: text,
        hubs: ids('The events asserting it, oldest first'),
        happened_ats: texts,
        facts: texts,
        kind: z.enum(['restated', 'superseded']),
        windows: z
          .array(z.object({ valid_at: text, invalid_at: text }))
          .optional()
          .describe('The validity window of each event, in the order of hubs.'),
        superseded_by: z
          .object({
            hub: id('The newer event'),
            predicate: text,
            object_uuid: id('The newer value'),
            object_name: text,
          })
          .optional()
          .describe('For superseded: the fact that ended this one.'),
      }),
    )
    .optional()
    .describe(
      'One statement asserted at different times (restated), or a fact a newer one ended (superseded, docs/time.md).',
    ),
  topics: z
    .array(
      z.object({
        uuid: id('The entity'),
        name: text,
        labels: texts,
        score: z.number(),
        facts: z.number().int(),
      }),
    )
    .optional(),
  stage_timings: stageTimings,
})

interface Branch {
  predicate: z.output<typeof relationshipOutput>
  node: z.output<typeof entityOutput>
  direction: 'out' | 'in'
  neighbors?: Branch[]
}
const branchOutput: z.ZodType<Branch> = z
  .object({
    predicate: relationshipOutput,
    node: entityOutput,
    direction: z.enum(['out', 'in']).describe('out: the parent is the subject; in: the object.'),
    get neighbors() {
      return z.array(branchOutput).optional()
    },
  })
  .meta({ id: 'McpContextBranch' })

export const entityContextOutput = z.object({
  target_node: entityOutput,
  neighborhood: z.array(branchOutput).describe('The tree of edges around the target.'),
  natural_language_web: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .describe('The same tree keyed by predicate and node names.'),
  text_contexts: texts.describe(
    'Distinct descriptions of the target and its neighbours, nearest first.',
  ),
})

export const recommendOutput = z.object({
  target_node: entityOutput,
  recommendations: z.array(
    z.object({
      node: entityOutput,
      channel: z.enum([
        'synergy',
        'asymmetric_outbound',
        'asymmetric_inbound',
        'collaborative',
        'multi_interest',
        'attribute_pref',
      ]),
      connected_by: z.array(entityOutput).optional().describe('What links it to the target.'),
      score: z.number(),
    }),
  ),
})

export const getEntityOutput = z.object({
  entity: entityOutput,
  relationships: z.array(
    z.object({ subject: entityOutput, predicate: relationshipOutput, object: entityOutput }),
  ),
  relationship_count: z.number().int().describe('All its live relationships, beyond the limit.'),
})

/** A node of a walk: its uuid is always there, since edges refer to it. */
const walkNode = entityOutput.extend({ uuid: z.string().describe('Edges refer to it.') })

export const traverseOutput = z.object({
  start: walkNode,
  nodes: z.array(walkNode.extend({ depth: z.number().int().describe('Hops from the start.') })),
  edges: z.array(
    relationshipOutput.extend({
      subject_uuid: z.string(),
      object_uuid: z.string(),
      happened_at: text,
    }),
  ),
  truncated: z.boolean().describe('A limit (nodes, or 500 edges) cut the walk short.'),
})

export const acceptedOutput = z.object({
  message: z.string(),
  task_id: z.string().describe('Poll it with get_task.'),
  source_id: z.string().describe('The source written or forgotten (list_sources lists them).'),
})

export const listSourcesOutput = z.object({
  sources: z
    .array(
      z
        .object({
          source_id: z.string().describe('Pass it to forget_source, or ingest_text to replace it.'),
          title: text,
          filename: text,
          meta: map,
          content_hash: text,
          kind: text,
          created_at: text,
          updated_at: text,
          task_ids: ids('The ingestion tasks that wrote it'),
          counts: z.record(z.string(), z.number()).optional(),
        })
        .meta({ id: 'McpSource' }),
    )
    .describe('Most recently updated first; [] when none match.'),
  total: z.number().int().describe('Matching sources beyond this page.'),
})

export const taskOutput = z.object({
  task_id: z.string(),
  status: z.enum(['queued', 'started', 'completed', 'partial_failed', 'failed']),
  stage: text,
  result: map.describe('What the task wrote (counts), once it ended.'),
  error: z.string().optional().describe('Why the task failed or partly failed.'),
  counts: z.record(z.string(), z.number()).optional(),
  created_at: text,
  updated_at: text,
})

export const listBrainsOutput = z.object({
  is_system_pat: z.boolean(),
  brains: z.array(
    z.object({
      id: z.string(),
      name_key: text,
      pat: z.string().optional().describe('The brain token, masked.'),
    }),
  ),
})

/** A failed call's structured content: the REST error envelope and the HTTP status. */
export const toolErrorOutput = z
  .object({
    status: z.number().int(),
    detail: z.unknown().optional(),
    error: z.object({
      code: z.string(),
      message: z.string(),
      resolution: z.string(),
      request_id: z.string(),
    }),
    retry_after: z.number().optional(),
  })
  .meta({ id: 'McpToolError' })
