import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import { buildTestApp, type TestApp } from '../../test/support/test-app.js'
import { call, connect, fails, listen, ok } from '../../test/support/mcp-test-client.js'
import { toolOutputSchema } from './create-mcp-server.js'
import { DOCS_TOOLS } from './docs-tools.js'
import { brainServer } from './mcp-servers.js'
import type { McpTool } from './mcp-tool.js'

/**
 * Tool results as agents receive them: every tool lists an `outputSchema`, every call's structured
 * content validates against it (the SDK's Client checks it once it has listed the tools, failed calls
 * included), and results are compact: no empty field, scores to 3 significant digits, ids only when
 * asked for.
 */
const TEXTS = [
  'Emily organized the AI Ethics Meetup in London on March 8, 2024. Tom Baker gave the opening talk about fairness in hiring algorithms.',
  'In June 2023 Emily moved from Leeds to London to join DeepCraft, a startup building speech models. She still visits her parents in Leeds.',
  'Tom Baker works at the Alan Turing Institute and co-authored a paper with Emily on bias audits. They met at NeurIPS 2022 in New Orleans.',
  'The AI Ethics Meetup moved to a bigger venue, the Barbican Centre, in May 2024 after Emily announced a talk by Ada Lovelace Institute researchers.',
]
const PACK = {
  text: 'Where did Emily organize the AI Ethics Meetup?',
  max_facts: 5,
  max_passages: 2,
}
/** Maps passed through as stored (compact-result.ts), not held to the compaction rules. */
const FREE_FORM = new Set([
  'extras',
  'metadata',
  'meta',
  'properties',
  'natural_language_web',
  'counts',
])

let t: TestApp
let brain: Client
let docs: Client
let tools: Map<string, McpTool>
const validator = new AjvJsonSchemaValidator()

/** Paths of null and empty values outside free-form maps. */
function emptiesIn(value: unknown, path = '$'): string[] {
  if (value === null || value === '') return [path]
  if (typeof value !== 'object') return []
  const entries = Object.entries(value)
  if (entries.length === 0) return [path]
  return entries.flatMap(([key, v]) => (FREE_FORM.has(key) ? [] : emptiesIn(v, `${path}.${key}`)))
}

/** Every key in `value` outside free-form maps, with the values under it. */
function keysIn(value: unknown, out: [string, unknown][] = []): [string, unknown][] {
  if (value === null || typeof value !== 'object') return out
  for (const [key, v] of Object.entries(value)) {
    if (!Array.isArray(value)) out.push([key, v])
    if (!FREE_FORM.has(key)) keysIn(v, out)
  }
  return out
}

beforeAll(async () => {
  t = await buildTestApp()
  for (const [i, text] of TEXTS.entries()) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ingest/',
      headers: t.system,
      payload: {
        text,
        source_timestamp: '2024-06-01T00:00:00Z',
        meta_keys: { session_id: `s${i}`, title: `note ${i}` },
      },
    })
    expect(res.statusCode).toBe(202)
  }
  await t.engram.tasks.idle()
  const base = await listen(t.app)
  brain = await connect(base, '/mcp/brain', t.system)
  docs = await connect(base, '/mcp')
  // Listing the tools makes the SDK's Client validate every later call against its outputSchema.
  await brain.listTools()
  await docs.listTools()
  tools = new Map(
    [...brainServer('test', t.engram).tools, ...DOCS_TOOLS].map((tool) => [tool.name, tool]),
  )
})
afterAll(async () => {
  await brain?.close()
  await docs?.close()
  await t?.close()
})

describe('tool output schemas', () => {
  it('are listed for every tool, admitting the result or the error envelope', async () => {
    const listed = [...(await brain.listTools()).tools, ...(await docs.listTools()).tools]
    expect(listed).toHaveLength(13)
    for (const tool of listed) {
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object', anyOf: [{}, {}] })
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain(
        '"additionalProperties":false',
      )
    }
    const discovery = await t.app.inject({ method: 'GET', url: '/.well-known/mcp.json' })
    expect(discovery.json().tools[0].outputSchema).toMatchObject({ type: 'object' })
  })

  it('validate every call, and list every field the result has', async () => {
    const { task_id } = await ok<{ task_id: string }>(brain, 'ingest_text', {
      text: 'Tom Baker gave a talk in Leeds.',
      skip_enrichment: true,
      source_id: 'talks/leeds',
      meta_keys: { title: 'Leeds talk', empty: '' },
    })
    await t.engram.tasks.idle()
    const emily = await ok<{ relationships: { predicate: { uuid: string } }[] }>(
      brain,
      'get_entity',
      { target: 'Emily', include_ids: true },
    )
    const fact = emily.relationships[0]!.predicate.uuid
    const calls: [Client, string, Record<string, unknown>][] = [
      [brain, 'search', { query: 'Emily meetup' }],
      [
        brain,
        'search',
        {
          query: 'Emily meetup',
          channels: ['passages', 'entities', 'events'],
          profile_stages: true,
          include_ids: true,
        },
      ],
      [brain, 'retrieve_context', PACK],
      [brain, 'retrieve_context', { ...PACK, include_ids: true }],
      [brain, 'get_task', { task_id }],
      [brain, 'get_entity', { target: 'Emily' }],
      [brain, 'get_entity', { target: 'Emily', include_ids: true }],
      [brain, 'entity_context', { target: 'Emily' }],
      [brain, 'entity_context', { target: 'Emily', include_ids: true }],
      [brain, 'traverse_graph', { start: 'Emily', depth: 3 }],
      [brain, 'traverse_graph', { start: 'Emily', include_ids: true }],
      [brain, 'recommend', { target: 'Emily' }],
      [brain, 'recommend', { target: 'Emily', include_ids: true }],
      [brain, 'list_brains', {}],
      [brain, 'list_sources', {}],
      [brain, 'list_sources', { query_text: 'leeds', include_ids: true }],
      [brain, 'forget_source', { source_id: 'talks/leeds' }],
      [brain, 'correct_fact', { relationship: fact, invalid_at: '2020-01-01' }],
      [brain, 'correct_fact', { relationship: fact, invalid_at: null, include_ids: true }],
      [docs, 'search_docs', { query: 'brain selection', k: 3 }],
      [docs, 'search_docs', { query: 'brain selection', k: 3, include_ids: true }],
    ]
    const called = new Set<string>(['ingest_text'])
    for (const [client, name, args] of calls) {
      const where = `${name} ${JSON.stringify(args)}`
      // The SDK's Client throws when structured content does not match the listed schema.
      const result = await call(client, name, args)
      expect(result.isError, where).toBeFalsy()
      const content = result.structuredContent!
      const closed = validator.getValidator(toolOutputSchema(tools.get(name)!, { closed: true }))
      expect(closed(content).errorMessage, where).toBeUndefined()
      expect(emptiesIn(content), where).toEqual([])
      expect(JSON.parse((result.content[0] as { text: string }).text), where).toEqual(content)
      called.add(name)
    }
    expect([...called].sort()).toEqual([...tools.keys()].sort())
  })

  it('admit failed calls: the error envelope reaches the caller, not a schema violation', async () => {
    expect(await fails(brain, 'get_entity', { target: 'zzzz qqqq' })).toMatchObject({
      status: 404,
      error: { code: 'RESOURCE_NOT_FOUND' },
    })
    expect((await fails(brain, 'get_task', { task_id: 'no-such-task' })).status).toBe(404)
    expect((await fails(brain, 'search', { query: '' })).error.code).toBe('VALIDATION_ERROR')
    expect((await fails(docs, 'search_docs', { query: 'x', k: 11 })).status).toBe(422)
  })
})

describe('compact results', () => {
  it('round every score to 3 significant digits', async () => {
    const found = await ok<{ hits: { score: number; scores: Record<string, number> }[] }>(
      brain,
      'search',
      { query: 'Emily meetup London', channels: ['passages', 'entities'] },
    )
    const scores = found.hits.flatMap((h) => [h.score, ...Object.values(h.scores)])
    expect(scores.some((s) => !Number.isInteger(s))).toBe(true)
    for (const s of scores) expect(Number(s.toPrecision(3))).toBe(s)
  })

  it('keep a search that found nothing as hits: []', async () => {
    expect(await ok(brain, 'search', { query: 'zzzz qqqq' })).toEqual({ hits: [] })
  })

  it('leave ids out unless include_ids', async () => {
    const search = await ok(brain, 'search', { query: 'Emily' })
    const searchKeys = new Set(keysIn(search).map(([key]) => key))
    for (const key of ['id', 'node_id', 'node_ids', 'channel_lists'])
      expect(searchKeys.has(key), key).toBe(false)
    const withIds = await ok<{ hits: { id: string }[]; node_ids: string[] }>(brain, 'search', {
      query: 'Emily',
      include_ids: true,
    })
    expect(withIds.hits[0]!.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(withIds.node_ids.length).toBeGreaterThan(0)

    const pack = await ok(brain, 'retrieve_context', PACK)
    const idLike = keysIn(pack).filter(([key]) =>
      /(^|_)(uuid|ids?|hubs|legs|flow_key|shared_entity)$/.test(key),
    )
    expect(idLike.map(([key]) => key)).toEqual([])
    const packWithIds = await ok<{
      triples: { source_chunk_ids: string[]; triple: { uuid: string }[] }[]
    }>(brain, 'retrieve_context', { ...PACK, include_ids: true })
    expect(packWithIds.triples[0]!.source_chunk_ids.length).toBeGreaterThan(0)
    expect(packWithIds.triples[0]!.triple[0]!.uuid).toMatch(/^[0-9a-f-]{36}$/)

    // The walk keeps the node uuids its edges refer to; edge uuids and flow keys need include_ids.
    type Walk = {
      nodes: { uuid: string }[]
      edges: { uuid?: string; flow_key?: string; subject_uuid: string }[]
    }
    const walk = await ok<Walk>(brain, 'traverse_graph', { start: 'Emily' })
    expect(walk.nodes[0]!.uuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(walk.edges[0]!.subject_uuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(walk.edges.some((e) => e.uuid !== undefined || e.flow_key !== undefined)).toBe(false)
    const walkWithIds = await ok<Walk>(brain, 'traverse_graph', {
      start: 'Emily',
      include_ids: true,
    })
    expect(walkWithIds.edges.every((e) => e.uuid !== undefined)).toBe(true)
  })

  // 7.5 KB before issue 28; each fact now says when it held (`valid_at` on its legs and event, ~0.6 KB).
  it('keep a context pack of 5 facts and 2 passages under 8 KB, 60% of REST’s', async () => {
    const result = await call(brain, 'retrieve_context', PACK)
    const pack = result.structuredContent as { triples: unknown[]; source_passages: string[] }
    expect(pack.triples).toHaveLength(5)
    expect(pack.source_passages).toHaveLength(2)
    const bytes = Buffer.byteLength(JSON.stringify(pack))
    const rest = await t.app.inject({
      method: 'POST',
      url: '/retrieve/context',
      headers: t.system,
      payload: PACK,
    })
    expect(rest.json().triples).toHaveLength(5)
    expect(bytes).toBeLessThanOrEqual(8_000)
    expect(bytes).toBeLessThanOrEqual(0.6 * rest.rawPayload.length)
  })
})
