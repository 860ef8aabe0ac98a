import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'
import { call, connect, fails, listen, ok } from '../../test/support/mcp-test-client.js'

const TOOLS = [
  'search',
  'retrieve_context',
  'ingest_text',
  'get_task',
  'get_entity',
  'entity_context',
  'traverse_graph',
  'recommend',
  'list_sources',
  'forget_source',
  'correct_fact',
  'list_brains',
]

interface Task {
  task_id: string
  status: string
  result?: Record<string, unknown>
}

let t: TestApp
let base: string
let alpha: string
let beta: string
const clients: Client[] = []

async function createBrain(id: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/system/brains',
    headers: t.system,
    payload: { brain_id: id },
  })
  expect(res.statusCode).toBe(201)
  return (res.json() as { pat: string }).pat
}

async function open(headers: Record<string, string>): Promise<Client> {
  const client = await connect(base, '/mcp/brain', headers)
  clients.push(client)
  return client
}

/**
 * ingest_text, get_task while the task runs, then (the queue idle, a signal rather than a poll
 * interval) get_task again for the terminal status an agent's polling ends on.
 */
async function remember(client: Client, args: Record<string, unknown>): Promise<Task> {
  const accepted = await ok<{ message: string; task_id: string }>(client, 'ingest_text', args)
  expect(accepted.message).toBe('Ingestion accepted')
  const query = {
    task_id: accepted.task_id,
    ...(args.brain_id ? { brain_id: args.brain_id } : {}),
  }
  const running = await ok<Task>(client, 'get_task', query)
  expect(running.task_id).toBe(accepted.task_id)
  await t.engram.tasks.idle()
  const task = await ok<Task>(client, 'get_task', query)
  expect(['completed', 'partial_failed', 'failed']).toContain(task.status)
  return task
}

beforeEach(async () => {
  t = await buildTestApp()
  alpha = await createBrain('alpha')
  beta = await createBrain('beta')
  base = await listen(t.app)
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()))
  await t.close()
})

describe('authenticated product server at /mcp/brain', () => {
  it('lists the twelve tools, each with a JSON Schema for its input', async () => {
    const client = await open({ Authorization: `Bearer ${alpha}` })
    expect(client.getServerVersion()?.name).toBe('engram')
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(TOOLS)
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object')
      expect(tool.description?.length, tool.name).toBeGreaterThan(20)
    }
    const traverse = tools.find((tool) => tool.name === 'traverse_graph')!
    expect(traverse.annotations?.readOnlyHint).toBe(true)
    expect(traverse.inputSchema.properties).toMatchObject({
      depth: { maximum: 5 },
      limit: { maximum: 100 },
    })
    expect(tools.find((tool) => tool.name === 'ingest_text')!.annotations?.readOnlyHint).toBe(false)
    expect(tools.find((tool) => tool.name === 'forget_source')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    })
    expect(tools.find((tool) => tool.name === 'list_sources')!.annotations?.readOnlyHint).toBe(true)
  })

  it('lists sources and forgets one, in the connection’s brain only', async () => {
    const client = await open({ Authorization: `Bearer ${alpha}` })
    const task = await remember(client, {
      text: 'The lighthouse keeper logged a storm on the ninth of May.',
      source_id: 'logs/lighthouse',
      meta_keys: { title: 'Keeper log', shelf: 'b2' },
    })
    expect(task.status).toBe('completed')
    const listed = await ok<{ sources: Record<string, unknown>[]; total: number }>(
      client,
      'list_sources',
      { meta: { shelf: 'b2' } },
    )
    expect(listed.total).toBe(1)
    expect(listed.sources[0]).toMatchObject({
      source_id: 'logs/lighthouse',
      title: 'Keeper log',
      counts: { passages: 1 },
    })
    expect(listed.sources[0]).not.toHaveProperty('task_ids')

    // Beta's token neither sees nor forgets alpha's source.
    const inBeta = await open({ ServicePAT: beta })
    expect(await ok(inBeta, 'list_sources', {})).toEqual({ sources: [], total: 0 })
    expect(await fails(inBeta, 'forget_source', { source_id: 'logs/lighthouse' })).toMatchObject({
      status: 404,
      error: { code: 'RESOURCE_NOT_FOUND' },
    })
    expect(
      await fails(inBeta, 'forget_source', { source_id: 'logs/lighthouse', brain_id: 'alpha' }),
    ).toMatchObject({ status: 403 })

    const accepted = await ok<{ task_id: string; source_id: string }>(client, 'forget_source', {
      source_id: 'logs/lighthouse',
    })
    expect(accepted.source_id).toBe('logs/lighthouse')
    await t.engram.tasks.idle()
    expect(await ok(client, 'get_task', { task_id: accepted.task_id })).toMatchObject({
      status: 'completed',
    })
    expect(await ok(client, 'list_sources', {})).toEqual({ sources: [], total: 0 })
    const found = await ok<{ hits: unknown[] }>(client, 'search', { query: 'lighthouse storm' })
    expect(found.hits).toEqual([])
    expect((await fails(client, 'forget_source', { source_id: 'logs/lighthouse' })).status).toBe(
      404,
    )
  })

  it('ingests text, polls the task to completion and finds the text with search', async () => {
    const client = await open({ Authorization: `Bearer ${alpha}` })
    const task = await remember(client, {
      text: 'Marguerite planted saffron crocuses along the old canal in Lyon.',
      meta_keys: { title: 'garden notes' },
    })
    expect(task.status).toBe('completed')
    expect(task.result?.passages).toBeGreaterThan(0)
    const found = await ok<{ hits: { snippet: string; extras: Record<string, unknown> }[] }>(
      client,
      'search',
      { query: 'saffron crocuses', k: 5 },
    )
    expect(found.hits[0]?.snippet).toContain('saffron crocuses')
    expect(found.hits[0]?.extras.title).toBe('garden notes')
  })

  it('refuses a connection without a token, or with an unknown one (401 AUTH_INVALID)', async () => {
    await expect(connect(base, '/mcp/brain')).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('AUTH_INVALID'),
    })
    await expect(connect(base, '/mcp/brain', { ServicePAT: 'spat_unknown' })).rejects.toMatchObject(
      { code: 401 },
    )
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp/brain',
      headers: { accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    })
    expect(res.statusCode).toBe(401)
    expect(envelope(res.body).error.code).toBe('AUTH_INVALID')
    expect(res.headers['www-authenticate']).toBe('Bearer realm="engram"')
  })

  it('keeps a brain token in its brain, whatever brain_id or X-Brain-ID says', async () => {
    const inBeta = await open({ ServicePAT: beta })
    await remember(inBeta, { text: 'The beta vault code is 7391 and only beta may read it.' })

    const client = await open({ Authorization: `Bearer ${alpha}` })
    for (const [name, args] of [
      ['search', { query: 'vault code', brain_id: 'beta' }],
      ['ingest_text', { text: 'sneaking in', brain_id: 'beta' }],
      ['get_entity', { target: 'vault', brain_id: 'beta' }],
      ['traverse_graph', { start: 'vault', brain_id: 'beta' }],
      ['get_task', { task_id: 'anything', brain_id: 'beta' }],
    ] as const) {
      const error = await fails(client, name, args)
      expect(error, name).toMatchObject({ status: 403, error: { code: 'AUTH_INVALID' } })
    }
    // Its own brain holds nothing of beta's.
    expect((await ok<{ hits: unknown[] }>(client, 'search', { query: 'vault code' })).hits).toEqual(
      [],
    )
    // X-Brain-ID on the connection is checked the same way, and wins over brain_id.
    const header = await open({ Authorization: `Bearer ${alpha}`, 'X-Brain-ID': 'beta' })
    expect((await fails(header, 'search', { query: 'vault code' })).error.code).toBe('AUTH_INVALID')
    expect((await fails(header, 'search', { query: 'vault code', brain_id: 'alpha' })).status).toBe(
      403,
    )
    // list_brains, like /meta/login-info, takes no brain: it reports the token's own.
    expect(await ok(header, 'list_brains')).toEqual({
      is_system_pat: false,
      brains: [{ id: 'alpha' }],
    })
  })

  it('lets the system token pick any brain with brain_id, and lists brains by token', async () => {
    const system = await open(t.system)
    const inBeta = await remember(system, {
      text: 'Beta keeps its archive of lighthouse logbooks.',
      brain_id: 'beta',
    })
    expect(inBeta.status).toBe('completed')
    const hits = await ok<{ hits: unknown[] }>(system, 'search', {
      query: 'lighthouse logbooks',
      brain_id: 'beta',
    })
    expect(hits.hits.length).toBe(1)
    const all = await ok<{ is_system_pat: boolean; brains: { id: string; pat: string }[] }>(
      system,
      'list_brains',
    )
    expect(all.is_system_pat).toBe(true)
    expect(all.brains.map((b) => b.id)).toEqual(['default', 'alpha', 'beta'])
    expect(all.brains[1]!.pat).toMatch(/^spat_…/)

    const own = await ok(await open({ ServicePAT: alpha }), 'list_brains')
    expect(own).toEqual({ is_system_pat: false, brains: [{ id: 'alpha' }] })
    // An unknown brain is REST's 404.
    expect((await fails(system, 'search', { query: 'x', brain_id: 'nowhere' })).error.code).toBe(
      'BRAIN_NOT_FOUND',
    )
  })

  it('returns REST’s error codes: 422 arguments, 404 task, and whatever a route answers', async () => {
    const client = await open({ Authorization: `Bearer ${alpha}` })
    const invalid = await fails(client, 'search', { query: '' })
    expect(invalid).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } })
    expect(invalid.detail).toEqual([expect.objectContaining({ loc: ['arguments', 'query'] })])
    expect((await fails(client, 'search', { query: 'x', brain_id: 'system' })).status).toBe(422)
    expect((await fails(client, 'search', { query: 'x', fusion: 'nope' })).status).toBe(400)
    const missing = await fails(client, 'get_task', { task_id: 'no-such-task' })
    expect(missing).toMatchObject({ status: 404, error: { code: 'RESOURCE_NOT_FOUND' } })
    expect(missing.error.request_id).toMatch(/^[0-9a-f-]{36}$/)

    // retrieve_context, entity_context and recommend pass the route's answer through, 501 included.
    for (const [name, method, url, args] of [
      ['retrieve_context', 'POST', '/retrieve/context', { text: 'who planted crocuses?' }],
      ['entity_context', 'GET', '/retrieve/entity/context?target=Nobody', { target: 'Nobody' }],
      ['recommend', 'POST', '/retrieve/recommend', { target: 'Nobody' }],
    ] as const) {
      const rest = await t.app.inject({
        method,
        url,
        headers: { ServicePAT: alpha },
        ...(method === 'POST' ? { payload: args } : {}),
      })
      const result = await call(client, name, args)
      if (rest.statusCode < 300) {
        // The same answer, compacted: REST's fields less the empty ones.
        expect(result.isError, name).toBeFalsy()
        expect(Object.keys(rest.json()), name).toEqual(
          expect.arrayContaining(Object.keys(result.structuredContent ?? {})),
        )
      } else {
        expect(result.isError, name).toBe(true)
        expect(result.structuredContent, name).toMatchObject({
          status: rest.statusCode,
          error: { code: envelope(rest.body).error.code },
        })
      }
    }
  })
})

describe('graph tools', () => {
  /** Ada -> Babbage -> Clement -> Dorothy, plus Ada -> Engine, in brain alpha. */
  async function chain() {
    const headers = { ServicePAT: alpha }
    const uuids: Record<string, string> = {}
    for (const name of ['Ada', 'Babbage', 'Clement', 'Dorothy', 'Engine']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/model/entity',
        headers,
        payload: { name, labels: ['PERSON'] },
      })
      uuids[name] = (res.json() as { uuid: string }[])[0]!.uuid
    }
    for (const [subject, predicate, object] of [
      ['Ada', 'works with', 'Babbage'],
      ['Babbage', 'works with', 'Clement'],
      ['Clement', 'mentors', 'Dorothy'],
      ['Ada', 'designed', 'Engine'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/model/relationship',
        headers,
        payload: {
          subject_uuid: uuids[subject],
          object_uuid: uuids[object],
          predicate_name: predicate,
          predicate_description: `${subject} ${predicate} ${object}`,
        },
      })
      expect(res.statusCode).toBe(201)
    }
    return uuids
  }

  it('get_entity finds an entity by uuid or name, with its relationships', async () => {
    const uuids = await chain()
    const client = await open({ ServicePAT: alpha })
    const byName = await ok<{
      entity: { uuid: string }
      relationships: {
        subject: { name: string }
        predicate: { name: string }
        object: { name: string }
      }[]
      relationship_count: number
    }>(client, 'get_entity', { target: 'babbage', include_ids: true })
    expect(byName.entity.uuid).toBe(uuids.Babbage)
    expect(byName.relationship_count).toBe(2)
    expect(
      byName.relationships
        .map((r) => `${r.subject.name} ${r.predicate.name} ${r.object.name}`)
        .sort(),
    ).toEqual(['Ada WORKS_WITH Babbage', 'Babbage WORKS_WITH Clement'])
    const byUuid = await ok<{ entity: { name: string } }>(client, 'get_entity', {
      target: uuids.Dorothy,
    })
    expect(byUuid.entity.name).toBe('Dorothy')
    expect((await fails(client, 'get_entity', { target: 'Nobody' })).error.code).toBe(
      'RESOURCE_NOT_FOUND',
    )
  })

  it('resolves targets with core’s resolution, as REST does', async () => {
    const uuids = await chain()
    // A later, unconnected namesake: core prefers the better connected entity (the old tool took the
    // most recently updated one).
    await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: { ServicePAT: alpha },
      payload: { name: 'Ada', labels: ['ORGANIZATION'] },
    })
    const client = await open({ ServicePAT: alpha })
    const ada = await ok<{ entity: { uuid: string } }>(client, 'get_entity', {
      target: 'ada',
      include_ids: true,
    })
    expect(ada.entity.uuid).toBe(uuids.Ada)
    // No exact name: the entities channel's best hit covering the target's terms.
    const walk = await ok<{ start: { uuid: string } }>(client, 'traverse_graph', {
      start: 'Dorothy Smith',
    })
    expect(walk.start.uuid).toBe(uuids.Dorothy)
  })

  it('traverse_graph walks breadth-first within depth, limit, direction and predicates', async () => {
    await chain()
    const client = await open({ ServicePAT: alpha })
    type Walk = {
      start: { name: string }
      nodes: { name: string; depth: number }[]
      edges: { name: string; subject_uuid: string; object_uuid: string }[]
      truncated: boolean
    }
    const names = (walk: Walk) => walk.nodes.map((n) => `${n.name}@${n.depth}`).sort()

    const two = await ok<Walk>(client, 'traverse_graph', { start: 'Ada', depth: 2 })
    expect(two.start.name).toBe('Ada')
    expect(names(two)).toEqual(['Babbage@1', 'Clement@2', 'Engine@1'])
    expect(two.edges).toHaveLength(3)
    expect(two.truncated).toBe(false)

    const all = await ok<Walk>(client, 'traverse_graph', { start: 'Ada', depth: 5 })
    expect(names(all)).toContain('Dorothy@3')

    const limited = await ok<Walk>(client, 'traverse_graph', { start: 'Ada', depth: 5, limit: 1 })
    expect(limited.nodes).toHaveLength(1)
    expect(limited.truncated).toBe(true)

    const incoming = await ok<Walk>(client, 'traverse_graph', { start: 'Ada', direction: 'in' })
    expect(incoming.nodes).toEqual([])
    const back = await ok<Walk>(client, 'traverse_graph', {
      start: 'Dorothy',
      direction: 'in',
      depth: 5,
    })
    expect(names(back)).toEqual(['Ada@3', 'Babbage@2', 'Clement@1'])

    const designed = await ok<Walk>(client, 'traverse_graph', {
      start: 'Ada',
      predicates: ['designed'],
      depth: 5,
    })
    expect(names(designed)).toEqual(['Engine@1'])

    const tooDeep = await fails(client, 'traverse_graph', { start: 'Ada', depth: 6 })
    expect(tooDeep).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } })
    expect((await fails(client, 'traverse_graph', { start: 'Ada', limit: 101 })).status).toBe(422)
  })
})
