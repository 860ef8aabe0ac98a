import { z } from 'zod'
import type { EngramClient } from '@engram/client'
import { BRAIN_ID_PATTERN, BUILTIN_NAMES, RESERVED_BRAIN_IDS } from '@engram/core'
import { freeFormMap, MAP_LIMITS } from '../schemas/free-form-map.js'
import { asObject, defineTool, READ_ONLY, type McpTool, type ToolContext } from './mcp-tool.js'

/** The brain fallback of every product tool (REST's `brain_id`); X-Brain-ID on the connection wins. */
export const brainIdArg = z
  .string()
  .regex(BRAIN_ID_PATTERN)
  .refine((id) => !RESERVED_BRAIN_IDS.has(id), 'reserved brain id')
  .optional()
  .describe(
    'Brain to use when the connection sends no X-Brain-ID header. A brain token reaches only its own brain; the system token defaults to `default`.',
  )

const label = z.string().max(128)
const target = z
  .string()
  .min(1)
  .max(512)
  .describe('The entity: its uuid, name or alias (resolved as the REST route resolves `target`).')

type WithBrain = { brain_id?: string | undefined }

/**
 * A tool that is one REST route: `call` makes the typed request from the arguments (without
 * `brain_id`), on a client whose X-Brain-ID is the connection's header, else `brain_id`, as REST reads
 * them. Whatever the route answers is the tool's answer, 501 NOT_IMPLEMENTED included.
 */
function restTool<S extends z.ZodObject>(spec: {
  name: string
  title: string
  description: string
  input: S
  readOnly?: boolean
  call: (client: EngramClient, args: Omit<z.output<S>, 'brain_id'>) => Promise<unknown>
}): McpTool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    annotations:
      spec.readOnly === false
        ? {
            readOnlyHint: false,
            destructiveHint: false,
            idempotentHint: false,
            openWorldHint: false,
          }
        : READ_ONLY,
    run: async (args, ctx: ToolContext) => {
      const { brain_id, ...rest } = args as z.output<S> & WithBrain
      return asObject(await spec.call(ctx.client(brain_id), rest as Omit<z.output<S>, 'brain_id'>))
    },
  })
}

export const searchTool = restTool({
  name: 'search',
  title: 'Search the brain',
  description: `Multi-channel search over the brain (POST /retrieve/search): passages by default; also ${BUILTIN_NAMES.channel.filter((c) => c !== 'passages').join(', ')} and plugin:<name> channels, fused with rrf (default), cc or none. Returns hits with id, channel, score, per-signal scores, a snippet and extras (passage metadata).`,
  input: z.object({
    query: z.string().min(1).max(2000).describe('The search text.'),
    k: z.number().int().min(1).max(200).optional().describe('Hits to return, 1..200 (default 10).'),
    channels: z
      .array(z.string().max(200))
      .max(20)
      .optional()
      .describe(
        `Channels: ${BUILTIN_NAMES.channel.join(', ')}, plugin:<name> (default [passages]).`,
      ),
    node_labels: z
      .array(label)
      .max(50)
      .optional()
      .describe('Label filter for the entities channel.'),
    community_labels: z
      .array(label)
      .max(50)
      .optional()
      .describe('Hub labels for the communities channel.'),
    expand: z
      .enum(['none', 'neighbors'])
      .optional()
      .describe(
        'Graph expansion (default none): re-rank passages by a walk over the passage-entity graph from the query entities and best hits, plus session neighbours.',
      ),
    fusion: z
      .string()
      .max(200)
      .optional()
      .describe(
        "Default: the server's (cc with the brain's calibrated weights unless ENGRAM_SEARCH_FUSION); rrf, cc, none or plugin:<name>.",
      ),
    fusion_alpha: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "Dense share for cc fusion (0..1; default the brain's calibration by its embedder).",
      ),
    rerank: z.string().max(200).optional().describe('none (default) or plugin:<name>.'),
    target: z.string().max(512).optional().describe('Personalize for this user (uuid or id).'),
    profile_stages: z.boolean().optional().describe('Include stage_timings (default false).'),
    extras: z
      .record(
        z.string().max(200),
        z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]),
      )
      .optional()
      .describe('Metadata equality filters (case-insensitive) applied before the cut to k.'),
    brain_id: brainIdArg,
  }),
  call: (client, body) => client.POST('/retrieve/search', { body }),
})

export const retrieveContextTool = restTool({
  name: 'retrieve_context',
  title: 'Evidence pack for a question',
  description:
    'An evidence pack for answering `text` (POST /retrieve/context): event-centred facts ranked with personalized PageRank and diversified, their source passages, historical context, temporal conflicts and a ready-to-use text_context.',
  input: z.object({
    text: z.string().min(1).max(10_000).describe('The question or conversation turn.'),
    max_facts: z.number().int().min(0).max(500).optional().describe('Facts to keep (default 40).'),
    max_passages: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe('Source passages to keep (default 8).'),
    historical_limit: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe('Historical facts to keep (default 10).'),
    use_ppr: z.boolean().optional().describe('Rank with personalized PageRank (default true).'),
    profile_stages: z.boolean().optional().describe('Include stage_timings (default false).'),
    brain_id: brainIdArg,
  }),
  call: (client, body) => client.POST('/retrieve/context', { body }),
})

export const ingestTextTool = restTool({
  name: 'ingest_text',
  title: 'Remember text',
  description:
    'Stores text in the brain (POST /ingest/): it is chunked into passages and, unless skip_enrichment, extracted into entities, events, relationships and observations. Asynchronous: returns {message, task_id}; poll get_task until status is completed, partial_failed or failed. The same task_id again returns the same task.',
  input: z.object({
    text: z.string().min(1).max(10_000_000).describe('The text to remember.'),
    meta_keys: freeFormMap()
      .optional()
      .describe(
        `Metadata stored on the passages (e.g. {"title": "...", "session": "..."}): at most ${MAP_LIMITS.depth} levels of nesting, ${MAP_LIMITS.keys.toLocaleString('en')} keys per object and ${MAP_LIMITS.bytes / 1024} KB serialised.`,
      ),
    observate_for: z
      .array(z.string().max(500))
      .max(100)
      .optional()
      .describe('Focus hints for the observations to extract.'),
    source_timestamp: z
      .string()
      .max(64)
      .optional()
      .describe('ISO 8601 time the text was written; anchors relative dates (default now).'),
    skip_enrichment: z
      .boolean()
      .optional()
      .describe('Store and index passages only, no extraction (default false).'),
    task_id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/)
      .optional()
      .describe('Client-chosen task id (Task-Identifier): makes the call idempotent.'),
    brain_id: brainIdArg,
  }),
  readOnly: false,
  call: (client, { task_id, ...body }) =>
    client.POST('/ingest/', {
      body,
      ...(task_id !== undefined ? { headers: { 'task-identifier': task_id } } : {}),
    }),
})

export const getTaskTool = restTool({
  name: 'get_task',
  title: 'Ingestion task status',
  description:
    'One task of the brain (GET /tasks/{task_id}): status queued -> started -> completed | partial_failed | failed, its stage, and on completion result counts (passages, entities, relationships, observations, events).',
  input: z.object({
    task_id: z.string().min(1).max(200).describe('The task_id returned by ingest_text.'),
    brain_id: brainIdArg,
  }),
  call: (client, { task_id }) => client.GET('/tasks/{task_id}', { params: { path: { task_id } } }),
})

export const entityContextTool = restTool({
  name: 'entity_context',
  title: 'Neighbourhood of an entity',
  description:
    'The depth-limited, cycle-free neighbourhood of an entity (GET /retrieve/entity/context): target_node, neighborhood, natural_language_web and text_contexts.',
  input: z.object({
    target,
    context_depth: z
      .number()
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('Hops to include, 1..5 (default 3).'),
    brain_id: brainIdArg,
  }),
  call: (client, { target, context_depth }) =>
    client.GET('/retrieve/entity/context', { params: { query: { target, context_depth } } }),
})

export const recommendTool = restTool({
  name: 'recommend',
  title: 'Recommendations for a target',
  description:
    'Event-graph recommendations for a target (POST /retrieve/recommend), computed at query time: synergies, asymmetric walks, collaborative, multi-interest and attribute-preference channels. Each recommendation names its channel and connected_by entities.',
  input: z.object({
    target,
    polarity: z.enum(['same', 'opposite']).optional().describe('Default same.'),
    top_k: z.number().int().min(1).max(200).optional().describe('1..200 (default 20).'),
    include_asymmetric: z.boolean().optional().describe('Default true.'),
    include_multi_interest: z.boolean().optional().describe('Default true.'),
    include_attribute_pref: z.boolean().optional().describe('Default false.'),
    diversify: z.boolean().optional().describe('MMR diversification (default true).'),
    asymmetric_direction: z
      .enum(['outbound', 'inbound', 'both'])
      .optional()
      .describe('Default outbound.'),
    exclude_seen: z.boolean().optional().describe('Default false.'),
    dampen_degree: z.boolean().optional().describe('Default false.'),
    recency_half_life_days: z.number().min(0).max(36_500).optional(),
    labels: z.array(label).max(50).optional().describe('Candidate label filter.'),
    behavior_weights: z
      .record(z.string(), z.number())
      .optional()
      .describe('Weights per behaviour, e.g. {"purchase": 3, "view": 0.5}.'),
    brain_id: brainIdArg,
  }),
  call: (client, body) => client.POST('/retrieve/recommend', { body }),
})

/** `list_brains`: every brain for the system token (GET /system/brains-list), else the token's own. */
export const listBrainsTool = defineTool({
  name: 'list_brains',
  title: 'Brains this token reaches',
  description:
    'The brains this token can use: every brain (tokens masked) for the system token, the token’s own brain for a brain token.',
  input: z.object({}),
  annotations: READ_ONLY,
  run: async (_args, ctx) => {
    const client = ctx.client()
    const login = await client.GET('/meta/login-info')
    if (!login.is_system_pat) return { is_system_pat: false, brains: [{ id: login.brain_id }] }
    const brains = await client.GET('/system/brains-list')
    return { is_system_pat: true, brains }
  },
})
