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
  responses?: Record<string, unknown>
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
