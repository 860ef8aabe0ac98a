import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createEngine,
  EngramError,
  hashToken,
  memoryAdapter,
  type Embedder,
  type Engram,
} from '@engram/core'
import { hashingTestEmbedder } from '@engram/core/testing'
import { buildApp } from '@engram/server'
import { createResponseCheck, type OpenApiDocument } from '../support/openapi-response-check.js'

/**
 * Issue 25 point 6: the document declares 413, 415 and 503 where operations return them, and the
 * answers are the envelope it documents. Every operation whose method carries a body is sent one over
 * the body limit (413), one of a content type the server does not read (415) and one with a content
 * coding it does not read (415); operations without a body never declare them. With the embedder
 * down, every operation documented as waiting for it answers 503 with Retry-After. (The 503 every
 * operation answers while the server closes: closing-guard.test.ts.)
 */
const TOKEN = 'spat_error-statuses-system-token-01'
const LIMIT = 16 * 1024
const BODY_METHODS = ['post', 'put', 'patch', 'delete']

/** The deterministic test embedder, switched off as a down embedding service is. */
let embedderDown = false
const hashing = hashingTestEmbedder(8)
const embedder: Embedder = {
  ...hashing,
  async embed(texts, signal, call) {
    if (embedderDown)
      throw new EngramError('SERVICE_UNAVAILABLE', 'The test embedder is down.', { retryAfter: 5 })
    return hashing.embed(texts, signal, call)
  },
}

let engram: Engram
let app: Awaited<ReturnType<typeof buildApp>>
let check: ReturnType<typeof createResponseCheck>
let doc: OpenApiDocument
const headers = { ServicePAT: TOKEN }
const ids: Record<string, string> = {}

async function inject(method: string, url: string, payload?: unknown) {
  const res = await app.inject({
    method: method.toUpperCase() as 'GET',
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  })
  return { status: res.statusCode, headers: res.headers, body: res.json() as unknown }
}

beforeAll(async () => {
  engram = createEngine({
    storage: memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(TOKEN),
    embedder,
  })
  await engram.start()
  app = await buildApp({ engram, maxBodyBytes: LIMIT })
  doc = (await inject('get', '/openapi.json')).body as OpenApiDocument
  check = createResponseCheck(doc)
  await inject('post', '/ingest/', { text: 'Alice works at Globex in Lyon.' })
  const alice = await inject('post', '/model/entity', { name: 'Alice', labels: ['PERSON'] })
  const globex = await inject('post', '/model/entity', { name: 'Globex', labels: ['COMPANY'] })
  ids.alice = (alice.body as { uuid: string }[])[0]!.uuid
  ids.globex = (globex.body as { uuid: string }[])[0]!.uuid
  await inject('post', '/model/relationship', {
    subject_uuid: ids.alice,
    object_uuid: ids.globex,
    predicate_name: 'works at',
    predicate_description: 'employment',
  })
  await engram.tasks.idle()
})
afterAll(async () => {
  await app?.close()
  await engram?.stop({ graceMs: 100 })
})

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      path: path.replace(/\{[^}]+\}/g, 'x'),
      method,
      operationId: op.operationId,
    })),
  )

describe('413 and 415 where a body is read', () => {
  it('every operation with a body answers them as documented; no other declares them', async () => {
    const checked: string[] = []
    for (const { path, method, operationId } of operations()) {
      if (!BODY_METHODS.includes(method)) {
        expect(check.describes(operationId, 413), operationId).toBeUndefined()
        expect(check.describes(operationId, 415), operationId).toBeUndefined()
        continue
      }
      const send = (contentType: string, body: string, extra: Record<string, string> = {}) =>
        app.inject({
          method: method.toUpperCase() as 'POST',
          url: path,
          headers: { ...headers, 'content-type': contentType, ...extra },
          payload: body,
        })
      const answers: [string, number, Awaited<ReturnType<typeof send>>][] = [
        ['over the limit', 413, await send('application/json', `{"pad":"${'x'.repeat(LIMIT)}"}`)],
        ['xml', 415, await send('application/xml', '<a/>')],
        ['brotli', 415, await send('application/json', '{}', { 'content-encoding': 'br' })],
      ]
      for (const [what, status, res] of answers) {
        const context = `${operationId} ${what}: ${res.body.slice(0, 200)}`
        expect(res.statusCode, context).toBe(status)
        expect(check.checkError(operationId, status, res.json()), context).toEqual([])
      }
      checked.push(operationId)
    }
    expect(checked).toContain('ingest_file')
    expect(checked).toContain('system_delete_brain')
  })
})

/** A call of each operation documented as waiting for the embedder, with input that embeds. */
const EMBEDDING_CALLS: Record<string, () => [string, string, unknown?]> = {
  model_create_entity: () => ['post', '/model/entity', { name: 'Bob' }],
  model_update_entity: () => ['put', '/model/entity', { uuid: ids.alice, new_description: 'x' }],
  retrieve_search_get: () => ['get', '/retrieve/search?query=Alice'],
  retrieve_search_post: () => ['post', '/retrieve/search', { query: 'Alice' }],
  retrieve_passages: () => ['get', '/retrieve/?text=Alice&preferred_entities=PERSON'],
  retrieve_neighbors_get: () => [
    'get',
    `/retrieve/entities/neighbors?uuid=${ids.alice}&look_for=company`,
  ],
  retrieve_neighbors_post: () => [
    'post',
    '/retrieve/entities/neighbors',
    { identification_params: { name: 'Alice' }, look_for: 'company' },
  ],
  retrieve_neighbors_ai_mode: () => [
    'post',
    '/retrieve/entities/neighbors/ai-mode',
    { identification_params: { name: 'Alice' }, looking_for: ['company'] },
  ],
  retrieve_entity_info: () => ['get', '/retrieve/entity/info?target=Alice&query=work'],
  retrieve_hops: () => ['get', '/retrieve/hops?query=Alice'],
  retrieve_context: () => ['post', '/retrieve/context', { text: 'Where does Alice work?' }],
}

describe('503 while the embedder is down', () => {
  it('every operation documented as waiting for the embedder answers it, as documented', async () => {
    const documented = operations()
      .map((o) => o.operationId)
      .filter((id) => check.describes(id, 503)?.includes('embedder'))
    expect(documented.sort()).toEqual(Object.keys(EMBEDDING_CALLS).sort())
    embedderDown = true
    try {
      for (const [operationId, make] of Object.entries(EMBEDDING_CALLS)) {
        const [method, url, body] = make()
        const res = await inject(method, url, body)
        const context = `${operationId}: ${JSON.stringify(res.body).slice(0, 200)}`
        expect(res.status, context).toBe(503)
        expect(res.headers['retry-after'], context).toBe('5')
        expect(check.checkError(operationId, 503, res.body), context).toEqual([])
      }
    } finally {
      embedderDown = false
    }
  })
})
