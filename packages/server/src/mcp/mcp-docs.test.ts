import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngine, hashToken, memoryAdapter } from '@engram/core'
import { buildApp } from '../app.js'
import { createDemoRateLimiter } from '../plugins/demo-rate-limit.js'
import { buildTestApp, envelope, SYSTEM_TOKEN, type TestApp } from '../../test/support/test-app.js'
import { call, connect, fails, listen, ok } from '../../test/support/mcp-test-client.js'

interface SearchWire {
  hits: { id: string; snippet: string; extras: Record<string, unknown> }[]
}

let t: TestApp
let base: string
beforeEach(async () => {
  t = await buildTestApp()
  base = await listen(t.app)
})
afterEach(async () => {
  await t.close()
})

describe('/.well-known/mcp.json', () => {
  it('describes the public server: name, version, endpoint, transport and tools', async () => {
    const res = await fetch(new URL('/.well-known/mcp.json', base))
    expect(res.status).toBe(200)
    const doc = (await res.json()) as Record<string, unknown> & {
      tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[]
      servers: { endpoint: string; tools: string[] }[]
    }
    expect(doc).toMatchObject({
      name: 'engram-docs',
      version: '0.0.0-test',
      endpoint: '/mcp',
      transport: 'streamable-http',
    })
    expect(doc.tools.map((tool) => tool.name)).toEqual(['search_docs'])
    expect(Object.keys(doc.tools[0]!.inputSchema.properties)).toEqual(['query', 'k', 'include_ids'])
    expect(doc.servers.map((s) => s.endpoint)).toEqual(['/mcp', '/mcp/brain'])
    expect(doc.servers[1]!.tools).toContain('traverse_graph')
  })
})

describe('public documentation server at /mcp', () => {
  it('lists search_docs and answers it from the documentation brain', async () => {
    const client = await connect(base, '/mcp')
    try {
      expect(client.getServerVersion()).toMatchObject({
        name: 'engram-docs',
        version: '0.0.0-test',
      })
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(['search_docs'])
      expect(tools[0]!.inputSchema).toMatchObject({
        type: 'object',
        required: ['query'],
        properties: { k: { maximum: 10 } },
      })
      expect(tools[0]!.annotations?.readOnlyHint).toBe(true)

      const result = await call(client, 'search_docs', { query: 'error envelope request_id', k: 3 })
      expect(result.isError).toBeFalsy()
      const body = result.structuredContent as unknown as SearchWire
      expect(body.hits.length).toBeGreaterThan(0)
      expect(body.hits.length).toBeLessThanOrEqual(3)
      expect(body.hits.map((h) => h.extras.title)).toContain('errors.md')
      // The text content is the same result, serialised, for clients that ignore structured content.
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body)
    } finally {
      await client.close()
    }
  })

  it('finds this very guide (docs/mcp.md) and answers like /demo/search', async () => {
    const client = await connect(base, '/mcp')
    try {
      const body = await ok<SearchWire>(client, 'search_docs', {
        query: 'Claude Desktop MCP',
        include_ids: true,
      })
      expect(body.hits.some((h) => h.extras.title === 'mcp.md')).toBe(true)
      const rest = await t.app.inject({
        method: 'GET',
        url: '/demo/search?query=Claude%20Desktop%20MCP',
      })
      expect(body.hits.map((h) => h.id)).toEqual((rest.json() as SearchWire).hits.map((h) => h.id))
    } finally {
      await client.close()
    }
  })

  it('keeps the demo limits: k <= 10, a non-empty query, as VALIDATION_ERROR tool errors', async () => {
    const client = await connect(base, '/mcp')
    try {
      const tooMany = await fails(client, 'search_docs', { query: 'mcp', k: 11 })
      expect(tooMany).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } })
      expect(tooMany.detail).toEqual([expect.objectContaining({ loc: ['arguments', 'k'] })])
      const empty = await fails(client, 'search_docs', { query: '' })
      expect(empty.error.code).toBe('VALIDATION_ERROR')
    } finally {
      await client.close()
    }
  })

  it('ignores credentials, refuses unknown tools, and answers 405 to GET and DELETE', async () => {
    const client = await connect(base, '/mcp', { Authorization: 'Bearer spat_not-a-token' })
    try {
      expect(
        (await ok<SearchWire>(client, 'search_docs', { query: 'brain' })).hits.length,
      ).toBeGreaterThan(0)
      await expect(client.callTool({ name: 'search', arguments: { query: 'x' } })).rejects.toThrow(
        /Unknown tool 'search'/,
      )
    } finally {
      await client.close()
    }
    for (const method of ['GET', 'DELETE']) {
      const res = await t.app.inject({ method: method as 'GET', url: '/mcp' })
      expect(res.statusCode).toBe(405)
      expect(res.headers.allow).toBe('POST')
      expect(envelope(res.body).error.code).toBe('METHOD_NOT_ALLOWED')
    }
  })
})

describe('the demo rate limiter', () => {
  it('is shared with /demo/search and comes back as RATE_LIMITED with retry_after', async () => {
    const engram = createEngine({
      storage: memoryAdapter(),
      version: 't',
      systemTokenHash: hashToken(SYSTEM_TOKEN),
    })
    await engram.start()
    const app = await buildApp({ engram, demoRateLimiter: createDemoRateLimiter({ max: 2 }) })
    try {
      const client = await connect(await listen(app), '/mcp')
      await ok(client, 'search_docs', { query: 'brain' })
      const rest = await app.inject({
        method: 'GET',
        url: '/demo/search?query=brain',
        remoteAddress: '127.0.0.1',
      })
      expect(rest.statusCode).toBe(200)
      const limited = await fails(client, 'search_docs', { query: 'brain' })
      expect(limited).toMatchObject({
        status: 429,
        error: { code: 'RATE_LIMITED' },
        retry_after: 60,
      })
      await client.close()
    } finally {
      await app.close()
      await engram.stop({ graceMs: 100 })
    }
  })
})
