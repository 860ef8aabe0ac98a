import { z } from 'zod'
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import type { EngramClient } from '@engram/client'
import {
  BRAIN_ID_PATTERN,
  BUILTIN_NAMES,
  MAX_SOURCE_ID_LENGTH,
  RESERVED_BRAIN_IDS,
} from '@engram/core'
import { freeFormMap, MAP_LIMITS } from '../schemas/free-form-map.js'
import { asObject, defineTool, READ_ONLY, type McpTool, type ToolContext } from './mcp-tool.js'
import {
  acceptedOutput,
  contextOutput,
  entityContextOutput,
  listBrainsOutput,
  recommendOutput,
  RECORD_IDS,
  SEARCH_IDS,
  searchOutput,
  taskOutput,
} from './tool-outputs.js'

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
  .describe(
    'The entity: its uuid, else its exact name or alias (case-insensitive; the best connected one), else the best entities match for the text.',
  )

type WithBrain = { brain_id?: string | undefined }

/** Annotations of a tool that adds to the brain (a new task each call, unless `task_id` repeats). */
const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
}

/**
 * A tool that is one REST route: `call` makes the typed request from the arguments (without
 * `brain_id` and `include_ids`), on a client whose X-Brain-ID is the connection's header, else
 * `brain_id`, as REST reads them. Whatever the route answers is the tool's answer (compacted), errors
 * included. `readOnly: false` marks a write; `annotations` says more (a destructive tool).
 */
export function restTool<S extends z.ZodObject>(spec: {
  name: string
  title: string
  description: string
  input: S
  output: z.ZodObject
  ids?: readonly string[]
  readOnly?: boolean
  annotations?: ToolAnnotations
  call: (client: EngramClient, args: Omit<z.output<S>, 'brain_id'>) => Promise<unknown>
}): McpTool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    ...(spec.ids ? { ids: spec.ids } : {}),
    annotations: spec.annotations ?? (spec.readOnly === false ? WRITES : READ_ONLY),
    run: async (args, ctx: ToolContext) => {
      const { brain_id, ...rest } = args as z.output<S> & WithBrain
      return asObject(await spec.call(ctx.client(brain_id), rest as Omit<z.output<S>, 'brain_id'>))
    },
  })
}

/** `as_of` / `known_at` (docs/time.md), checked by REST (a malformed date is its 422). */
const timeArgs = {
  as_of: z
    .string()
    .max(64)
    .optional()
    .describe(
      'Answer as the world was at this time (ISO 8601 date or date-time): facts not true then, and passages stating only such facts, are left out. Default: now.',
    ),
  known_at: z
    .string()
    .max(64)
    .optional()
    .describe('Answer with what the brain had learned by this time (ISO 8601). Default: now.'),
}

export const searchTool = restTool({
  name: 'search',
  title: 'Search the brain',
  description: `Searches the brain (POST /retrieve/search) and returns hits, best first: passages by default, or entities, events, communities (entities of the matching communities) and plugin:<name> channels. Their lists are fused by the server's default fusion, cc (a weighted sum of normalised scores, weighted for the brain's embedder; ENGRAM_SEARCH_FUSION may name another), or by \`fusion\`. Optional graph expansion, rerank, metadata filters (\`extras\`) and personalization for \`target\`. Each hit has its channel, labels, score and per-signal scores (3 significant digits), a snippet (<= 240 characters) and extras (a passage's metadata, or an entity's name and properties); ids only with include_ids.`,
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
      .describe('Entities channel: only entities with one of these labels (e.g. PERSON).'),
    community_labels: z
      .array(label)
      .max(50)
      .optional()
      .describe(
        'Communities channel: only entities with one of these labels may be hubs, and only communities with such a hub are searched.',
      ),
    expand: z
      .enum(['auto', 'none', 'neighbors'])
      .optional()
      .describe(
        "Graph expansion (default auto: neighbors when every channel is a passage channel, else none). neighbors: passages re-ranked by a personalised PageRank over the passage-entity graph from the query's entities and best hits, passages one entity away added, and a passage lifted by the turns beside it in its session; entity hits add their one-hop neighbours.",
      ),
    fusion: z
      .string()
      .max(200)
      .optional()
      .describe(
        "cc (fusion_alpha: dense share), rrf (reciprocal rank, k=60), none or plugin:<name>. Default: the server's, cc with weights calibrated for the brain's embedder unless ENGRAM_SEARCH_FUSION names another.",
      ),
    fusion_alpha: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(
        "Dense share for cc fusion (0..1; default the brain's calibration by its embedder).",
      ),
    rerank: z
      .string()
      .max(200)
      .optional()
      .describe(
        'auto (default: plugin:hops for a question composed of look-ups, such as "the country where X was born", over passage channels; else none), none or plugin:<name>. Built in: plugin:dense (cosine to the query embedding; needs an embedder), plugin:coverage (the head re-ordered so each place covers query words the ones before it did not), plugin:hops (coverage plus a hop through the graph from the first passage, for multi-hop questions).',
      ),
    target: z
      .string()
      .max(512)
      .optional()
      .describe(
        'Personalize for this user (uuid or name): a last stage blends each hit’s score with the user’s preference for it, read from the graph.',
      ),
    profile_stages: z.boolean().optional().describe('Include stage_timings (default false).'),
    extras: z
      .record(
        z.string().max(200),
        z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]),
      )
      .optional()
      .describe('Metadata equality filters (case-insensitive) applied before the cut to k.'),
    ...timeArgs,
    brain_id: brainIdArg,
  }),
  output: searchOutput,
  ids: SEARCH_IDS,
  call: (client, body) => client.POST('/retrieve/search', { body }),
})

export const retrieveContextTool = restTool({
  name: 'retrieve_context',
  title: 'Evidence pack for a question',
  description:
    'An evidence pack for answering `text` (POST /retrieve/context): text_context (topics, passages and one line per fact, ready for a prompt); the facts (triples: actor, event and target records, ranked with personalized PageRank when use_ppr and diversified); the passages that answer best (source_passages) and, in the order they were written, historical_context; temporal conflicts, bridge paths between facts, and topics. Ids (passage, session and record ids) only with include_ids.',
  input: z.object({
    text: z.string().min(1).max(10_000).describe('The question or conversation turn.'),
    max_facts: z.number().int().min(0).max(500).optional().describe('Facts to keep (default 40).'),
    max_passages: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe('Passages in source_passages and text_context (default 8).'),
    historical_limit: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe('Passages in historical_context (default 10).'),
    use_ppr: z
      .boolean()
      .optional()
      .describe(
        'Rank facts with personalized PageRank and passages with a walk over the passage-entity graph (default true).',
      ),
    profile_stages: z.boolean().optional().describe('Include stage_timings (default false).'),
    ...timeArgs,
    brain_id: brainIdArg,
  }),
  output: contextOutput,
  ids: [
    ...RECORD_IDS,
    'source_chunk_ids',
    'source_session_ids',
    'graph_session_ids',
    'hubs',
    'legs',
    'shared_entity',
    'entity_uuid',
    'object_uuid',
  ],
  call: (client, body) => client.POST('/retrieve/context', { body }),
})

export const ingestTextTool = restTool({
  name: 'ingest_text',
  title: 'Remember text',
  description:
    'Stores text in the brain (POST /ingest/): it is chunked into passages and, unless skip_enrichment, extracted into entities, events, relationships and observations. Asynchronous: returns {message, task_id, source_id}; poll get_task until status is completed, partial_failed or failed. Sending the same task_id again returns the same task; sending text again under the same source_id replaces that source.',
  input: z.object({
    text: z.string().min(1).max(10_000_000).describe('The text to remember.'),
    meta_keys: freeFormMap()
      .optional()
      .describe(
        `Metadata stored on the passages (e.g. {"title": "...", "session_id": "..."}): at most ${MAP_LIMITS.depth} levels of nesting, ${MAP_LIMITS.keys.toLocaleString('en')} keys per object and ${MAP_LIMITS.bytes / 1024} KB serialised.`,
      ),
    observate_for: z
      .array(z.string().max(500))
      .max(100)
      .optional()
      .describe(
        'Names or topics to observe: sentences mentioning one are kept as observations (labelled FOCUS).',
      ),
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
    source_id: z
      .string()
      .min(1)
      .max(MAX_SOURCE_ID_LENGTH)
      .optional()
      .describe(
        'The source this text belongs to (e.g. a document id or URL). Sending new text under the same source_id replaces what the source said (unchanged chunks are kept); forget_source removes it. Default: the task id.',
      ),
    brain_id: brainIdArg,
  }),
  output: acceptedOutput,
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
    'One task of the brain (GET /tasks/{task_id}): status queued -> started -> completed | partial_failed | failed, its stage, counts of its progress, and once it ended its result (what it wrote, e.g. passages, entities, relationships, observations) or error.',
  input: z.object({
    task_id: z.string().min(1).max(200).describe('The task_id returned by ingest_text.'),
    brain_id: brainIdArg,
  }),
  output: taskOutput,
  // REST's `id` repeats `task_id`.
  call: async (client, { task_id }) => {
    const { id: _same, ...task } = await client.GET('/tasks/{task_id}', {
      params: { path: { task_id } },
    })
    return task
  },
})

export const entityContextTool = restTool({
  name: 'entity_context',
  title: 'Neighbourhood of an entity',
  description:
    'The neighbourhood of an entity (GET /retrieve/entity/context) as a tree, built breadth first so each node appears once, at its shortest distance: at most context_depth hops, 20 children per node (newest edges first) and 400 nodes. Returns target_node (with its observations), neighborhood (predicate, node, direction, neighbors), natural_language_web (the same tree keyed by names) and text_contexts (the distinct descriptions, nearest first). Ids only with include_ids.',
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
  output: entityContextOutput,
  ids: RECORD_IDS,
  call: (client, { target, context_depth }) =>
    client.GET('/retrieve/entity/context', { params: { query: { target, context_depth } } }),
})

export const recommendTool = restTool({
  name: 'recommend',
  title: 'Recommendations for a target',
  description:
    'Recommendations for a target (POST /retrieve/recommend), computed from the event graph at query time: channels synergy (nodes sharing events or neighbours), asymmetric_outbound / asymmetric_inbound (event walks), collaborative (what peers with shared events reached), multi_interest (one per interest cluster) and attribute_pref, fused and, with diversify, re-ordered for variety. Each recommendation names its best channel, a score (3 significant digits) and connected_by, the entities linking it to the target. Ids only with include_ids.',
  input: z.object({
    target,
    polarity: z
      .enum(['same', 'opposite'])
      .optional()
      .describe(
        "same (default): leave out candidates of the sign opposite to the target's; opposite: only those.",
      ),
    top_k: z.number().int().min(1).max(200).optional().describe('1..200 (default 20).'),
    include_asymmetric: z
      .boolean()
      .optional()
      .describe('Event walks from the target and the collaborative channel (default true).'),
    include_multi_interest: z
      .boolean()
      .optional()
      .describe('One medoid per interest cluster of the target (default true).'),
    include_attribute_pref: z
      .boolean()
      .optional()
      .describe('Attribute preferences (default false).'),
    diversify: z.boolean().optional().describe('MMR re-ordering for variety (default true).'),
    asymmetric_direction: z
      .enum(['outbound', 'inbound', 'both'])
      .optional()
      .describe('Which event walks (default outbound).'),
    exclude_seen: z
      .boolean()
      .optional()
      .describe('Leave out what the target already interacted with (default false).'),
    dampen_degree: z
      .boolean()
      .optional()
      .describe(
        'Divide synergy, multi-interest and attribute scores by log2(2 + degree) (default false).',
      ),
    recency_half_life_days: z
      .number()
      .min(0)
      .max(36_500)
      .optional()
      .describe('Half-life of interactions in days (default: no decay).'),
    labels: z.array(label).max(50).optional().describe('Only candidates with one of these labels.'),
    behavior_weights: z
      .record(z.string(), z.number())
      .optional()
      .describe(
        'Weights per behaviour, e.g. {"purchase": 3, "view": 0.5} (default view 0.2, cart 0.5, purchase 1, favorite 0.7, others 0.2).',
      ),
    brain_id: brainIdArg,
  }),
  output: recommendOutput,
  ids: RECORD_IDS,
  call: (client, body) => client.POST('/retrieve/recommend', { body }),
})

/** `list_brains`: every brain for the system token (GET /system/brains-list), else the token's own. */
export const listBrainsTool = defineTool({
  name: 'list_brains',
  title: 'Brains this token reaches',
  description:
    'The brains this token can use: for the system token every brain, oldest first, with its name_key and masked token (is_system_pat true); for a brain token its own brain.',
  input: z.object({}),
  output: listBrainsOutput,
  annotations: READ_ONLY,
  run: async (_args, ctx) => {
    const client = ctx.client()
    const login = await client.GET('/meta/login-info')
    if (!login.is_system_pat) return { is_system_pat: false, brains: [{ id: login.brain_id }] }
    const brains = await client.GET('/system/brains-list')
    return { is_system_pat: true, brains }
  },
})
