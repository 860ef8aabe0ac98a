import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { buildTestApp, type TestApp } from '../../test/support/test-app.js'
import { connect, listen, ok } from '../../test/support/mcp-test-client.js'

/**
 * The MCP tools share the REST wire mappers, so they follow the same rule (docs/wire-format.md): no
 * `null` in a record field. Entities and relationships are written with every optional field unset.
 */
let t: TestApp
let client: Client

/** Paths of the nulls in `value`, except a task's `result` ("any, may be null"). */
function nullsIn(value: unknown, path = '$'): string[] {
  if (value === null) return [path]
  if (Array.isArray(value)) return value.flatMap((v, i) => nullsIn(v, `${path}[${i}]`))
  if (typeof value !== 'object') return []
  const record = value as Record<string, unknown>
  return Object.entries(record).flatMap(([key, v]) =>
    key === 'result' && 'task_id' in record ? [] : nullsIn(v, `${path}.${key}`),
  )
}

beforeAll(async () => {
  t = await buildTestApp()
  const write = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: t.system, payload })
  const [widget] = (await write('/model/entity', { name: 'Widget' })).json() as { uuid: string }[]
  const [maker] = (await write('/model/entity', { name: 'Maker' })).json() as { uuid: string }[]
  await write('/model/relationship', {
    subject_uuid: widget!.uuid,
    object_uuid: maker!.uuid,
    predicate_name: 'made by',
    predicate_description: '',
  })
  client = await connect(await listen(t.app), '/mcp/brain', t.system)
})
afterAll(async () => {
  await client?.close()
  await t?.close()
})

describe('MCP tool results', () => {
  it('hold no null in the records of get_entity, traverse_graph, entity_context and get_task', async () => {
    const results = {
      get_entity: await ok(client, 'get_entity', { target: 'Widget' }),
      traverse_graph: await ok(client, 'traverse_graph', { start: 'Widget' }),
      entity_context: await ok(client, 'entity_context', { target: 'Widget' }),
      search: await ok(client, 'search', { query: 'Widget', channels: ['entities'] }),
    }
    const { task_id } = await ok<{ task_id: string }>(client, 'ingest_text', {
      text: 'Bob met Ann.',
    })
    await t.engram.tasks.idle()
    const task = await ok(client, 'get_task', { task_id })
    expect(task).toMatchObject({ status: 'completed' })
    // Compaction leaves an empty error out.
    expect(task).not.toHaveProperty('error')
    expect((results.traverse_graph.edges as object[]).length).toBe(1)
    for (const [tool, result] of Object.entries({ ...results, get_task: task }))
      expect(nullsIn(result), tool).toEqual([])
  })
})
