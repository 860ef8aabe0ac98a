import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CATALOGUE, ERROR_CODES } from '@engram/core'
import { generateOpenApi } from './openapi-document.js'

const COMMITTED = new URL('../openapi/openapi.json', import.meta.url)
const ERRORS_DOC = new URL('../../../docs/errors.md', import.meta.url)

/** Every path of the interface specification (spec section 4), in OpenAPI form. */
const SPEC_PATHS: Record<string, string[]> = {
  '/model/entity': ['post', 'put'],
  '/model/relationship': ['post', 'put'],
  '/model/entity/{uuid}': ['delete'],
  '/model/relationship/{uuid}': ['delete'],
  '/model/observation/{id}': ['delete'],
  '/sources': ['get'],
  '/sources/{source_id}': ['get', 'delete'],
  '/ingest/': ['post'],
  '/ingest/file': ['post'],
  '/ingest/structured': ['post'],
  '/meta/entity-labels': ['get'],
  '/meta/entity-properties': ['get'],
  '/meta/relationships-properties': ['get'],
  '/meta/login-info': ['get'],
  '/retrieve/': ['get'],
  '/retrieve/changelogs': ['get'],
  '/retrieve/changelogs/types': ['get'],
  '/retrieve/changelogs/stream': ['get'],
  '/retrieve/changelogs/{id}': ['get'],
  '/retrieve/context': ['post'],
  '/retrieve/entities': ['get'],
  '/retrieve/entities/neighbors': ['get', 'post'],
  '/retrieve/entities/neighbors/ai-mode': ['post'],
  '/retrieve/entity/context': ['get'],
  '/retrieve/entity/info': ['get'],
  '/retrieve/entity/status': ['get'],
  '/retrieve/entity/synergies': ['get'],
  '/retrieve/hops': ['get'],
  '/retrieve/observations': ['get'],
  '/retrieve/observations/labels': ['get'],
  '/retrieve/observations/{id}': ['get'],
  '/retrieve/recommend': ['get', 'post'],
  '/retrieve/relationships': ['get'],
  '/retrieve/search': ['get', 'post'],
  '/retrieve/structured-data': ['get'],
  '/retrieve/structured-data/types': ['get'],
  '/retrieve/structured-data/{id}': ['get'],
  '/tasks/': ['get'],
  '/tasks/{task_id}': ['get'],
  '/demo/search': ['get'],
  '/health': ['get'],
  '/system/brains': ['post'],
  '/system/brains-list': ['get'],
}

interface Operation {
  operationId?: string
  description?: string
  security?: unknown[]
  parameters?: { in: string; name: string; required?: boolean; schema?: unknown }[]
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> }
  responses?: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> }
  >
}
type Schema = Record<string, unknown>

/** Every schema object under `node` with the path to it (properties, items, unions). */
function* schemasIn(node: unknown, path = ''): Generator<[string, Schema]> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) yield* schemasIn(item, `${path}[${i}]`)
    return
  }
  if (typeof node !== 'object' || node === null) return
  yield [path, node as Schema]
  for (const [key, value] of Object.entries(node)) yield* schemasIn(value, `${path}/${key}`)
}

describe('OpenAPI document', async () => {
  const text = await generateOpenApi()
  const doc = JSON.parse(text) as {
    openapi: string
    paths: Record<string, Record<string, Operation>>
    components: {
      schemas: Record<
        string,
        { properties: { error: { properties: { code: { enum: string[] } } } } }
      >
    }
  }
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  )

  it('matches the committed packages/server/openapi/openapi.json (run `npm run openapi` after changing routes)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(text)
  })

  it('is OpenAPI 3.1 and lists every path of the specification', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
    for (const [path, methods] of Object.entries(SPEC_PATHS)) {
      for (const method of methods)
        expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined()
    }
  })

  it('has unique lower_snake_case operationIds, descriptions and explicit security', () => {
    const ids = operations.map(({ op }) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const { path, method, op } of operations) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/)
      expect(op.description?.length, `${method} ${path}`).toBeGreaterThan(10)
      expect(Array.isArray(op.security), `${method} ${path}`).toBe(true)
      const isPublic = path === '/health' || path === '/demo/search'
      expect(op.security!.length > 0, `${method} ${path}`).toBe(!isPublic)
      const statuses = Object.keys(op.responses ?? {})
      expect(
        statuses.some((s) => s.startsWith('2')),
        `${method} ${path}`,
      ).toBe(true)
      expect(statuses, `${method} ${path}`).toContain('500')
    }
  })

  it('declares the optional X-Brain-ID header on every brain-scoped operation, and only there', () => {
    for (const { path, method, op } of operations) {
      const header = op.parameters?.find((p) => p.in === 'header' && p.name === 'X-Brain-ID')
      // The token's scope and the server's search plugins are the same whatever the brain.
      const brainless = ['/meta/login-info', '/meta/search-plugins']
      const scoped =
        op.security!.length > 0 && !path.startsWith('/system/') && !brainless.includes(path)
      expect(header !== undefined, `${method} ${path}`).toBe(scoped)
      if (header) expect(header, `${method} ${path}`).toMatchObject({ required: false })
    }
  })

  it('declares X-Request-ID on every response, and Retry-After on every 429 and 503', () => {
    const headers = (doc.components as unknown as { headers: Record<string, Schema> }).headers
    expect(headers['X-Request-ID']).toMatchObject({ schema: { type: 'string', format: 'uuid' } })
    expect(headers['Retry-After']).toMatchObject({ schema: { type: 'integer' } })
    const retryAfter: string[] = []
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        expect(response.headers?.['X-Request-ID'], `${method} ${path} ${status}`).toEqual({
          $ref: '#/components/headers/X-Request-ID',
        })
        expect(response.headers?.['Retry-After'] !== undefined, `${method} ${path} ${status}`).toBe(
          status === '429' || status === '503',
        )
        if (status === '429' || status === '503') retryAfter.push(`${method} ${path} ${status}`)
      }
    }
    expect(retryAfter).toContain('get /demo/search 429')
    expect(retryAfter).toContain('post /ingest/ 503')
  })

  it('describes the multipart body of ingest_file', () => {
    const body = doc.paths['/ingest/file']!.post!.requestBody!
    expect(body.required).toBe(true)
    expect(Object.keys(body.content)).toEqual(['multipart/form-data'])
    expect(body.content['multipart/form-data']!.schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'string', format: 'binary' },
        brain_id: { type: 'string' },
        meta_keys: { type: 'string' },
      },
    })
  })

  it('types every success response: no null but Task.result, dates as date-time, no bare items', () => {
    const schemas = doc.components.schemas as unknown as Record<string, Schema>
    const roots: [string, unknown][] = [
      ...Object.entries(schemas).map(([name, schema]): [string, unknown] => [name, schema]),
      ...operations.flatMap(({ path, method, op }) =>
        Object.entries(op.responses ?? {})
          .filter(([status]) => status.startsWith('2'))
          .map(([status, r]): [string, unknown] => [`${method} ${path} ${status}`, r.content]),
      ),
    ]
    const nullable: string[] = []
    const undated: string[] = []
    for (const [root, schema] of roots) {
      for (const [at, s] of schemasIn(schema)) {
        const types = Array.isArray(s.type) ? s.type : [s.type]
        if (types.includes('null')) nullable.push(`${root}${at}`)
        for (const [name, member] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
          if (/(_at|^timestamp|^last_updated)$/.test(name) && name !== 'happened_at')
            if (member.format !== 'date-time' && member.$ref === undefined)
              undated.push(`${root}${at}/${name}`)
      }
    }
    // Spec 2.7: a Task's result is "any, may be null"; nothing else may be.
    expect(nullable).toEqual(['Task/properties/result/anyOf[1]'])
    expect(undated).toEqual([])
    // No untyped list anywhere (issue 11 items 11-12: hops and entity/info; issue 25 point 6: the
    // items of the context pack and of entity context).
    const bare = [...schemasIn(doc)].filter(
      ([, s]) => s.type === 'array' && JSON.stringify(s.items) === '{}',
    )
    expect(bare.map(([at]) => at)).toEqual([])
    const info = JSON.stringify(doc.paths['/retrieve/entity/info']!.get!.responses!['200'])
    expect(info).toContain(
      '"oneOf":[{"$ref":"#/components/schemas/Relationship"},{"$ref":"#/components/schemas/Entity"}]',
    )
  })

  it('documents exactly the catalogue’s codes in the error envelope and in docs/errors.md', () => {
    const envelope = doc.components.schemas.ErrorEnvelope!
    expect([...envelope.properties.error.properties.code.enum].sort()).toEqual(
      [...ERROR_CODES].sort(),
    )
    const rows = readFileSync(ERRORS_DOC, 'utf8')
      .split('\n')
      .map((line) => /^\|\s*`([A-Z_]+)`\s*\|\s*([\d, ]+?)\s*\|/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
    expect(rows.map((m) => m[1]).sort()).toEqual([...ERROR_CODES].sort())
    for (const [, code, statuses] of rows) {
      expect(
        statuses!.split(',').map((s) => Number(s.trim())),
        code,
      ).toEqual([...ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].statuses])
    }
  })
})
