import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, type TestApp } from '../../test/support/test-app.js'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => {
  await t.close()
})

const JSON_RPC = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
}

async function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...JSON_RPC, ...headers },
    payload: JSON.stringify(payload),
  })
}

const ODD_VALUES: unknown[] = [
  '',
  ' ',
  'ü🙂\u0000',
  'x'.repeat(3000),
  -1,
  0,
  1e308,
  1.5,
  true,
  null,
  [],
  {},
  { $where: '1' },
  ['a', 1],
]

/** Arguments that pass validation, so the odd value reaches REST or the graph. */
const VALID_BASE: Record<string, Record<string, unknown>> = {
  search_docs: { query: 'brain' },
  search: { query: 'anything' },
  retrieve_context: { text: 'anything' },
  ingest_text: { text: 'Odd values arrive here.', skip_enrichment: true },
  get_task: { task_id: 'no-such-task' },
  get_entity: { target: 'Nobody' },
  entity_context: { target: 'Nobody' },
  traverse_graph: { start: 'Nobody' },
  recommend: { target: 'Nobody' },
  list_brains: {},
}

describe('MCP robustness', () => {
  it('answers malformed JSON-RPC with a 4xx or a JSON-RPC error, never a 5xx', async () => {
    const payloads: unknown[] = [
      {},
      'text',
      42,
      null,
      [],
      { jsonrpc: '2.0' },
      { jsonrpc: '2.0', id: 1, method: 'no/such/method' },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_docs', arguments: 'x' },
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} },
      Array.from({ length: 30 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })),
    ]
    for (const url of ['/mcp', '/mcp/brain']) {
      for (const payload of payloads) {
        const res = await post(url, payload, t.system)
        expect(res.statusCode, `${url} ${JSON.stringify(payload).slice(0, 80)}`).toBeLessThan(500)
      }
    }
  })

  it('never reports INTERNAL_ERROR for odd arguments to any tool', async () => {
    const list = await post('/mcp/brain', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, t.system)
    const tools = (
      list.json() as {
        result: { tools: { name: string; inputSchema: { properties?: object } }[] }
      }
    ).result.tools
    tools.push({ name: 'search_docs', inputSchema: { properties: { query: {}, k: {} } } })
    let id = 0
    for (const tool of tools) {
      for (const field of Object.keys(tool.inputSchema.properties ?? {})) {
        for (const value of ODD_VALUES) {
          // Valid required fields, then one odd value in one field.
          const args = { ...VALID_BASE[tool.name], [field]: value }
          const url = tool.name === 'search_docs' ? '/mcp' : '/mcp/brain'
          const res = await post(
            url,
            {
              jsonrpc: '2.0',
              id: ++id,
              method: 'tools/call',
              params: { name: tool.name, arguments: args },
            },
            t.system,
          )
          const where = `${tool.name}.${field} = ${JSON.stringify(value).slice(0, 40)}`
          expect(res.statusCode, where).toBe(200)
          const body = res.json() as {
            result?: { structuredContent?: { error?: { code: string } } }
          }
          expect(body.result?.structuredContent?.error?.code, where).not.toBe('INTERNAL_ERROR')
        }
      }
    }
  })
})
