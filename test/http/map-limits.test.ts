import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectFetchEnvelope } from '../support/envelope.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 11 item 3 (validation): free-form maps allow at most 32 levels of nesting, 1,000 keys per
 * object and 64 KB serialised (`data.json_data`: the body limit); beyond, 422 VALIDATION_ERROR naming
 * the field (CONTRACT.md section 1), on every route and MCP tool that takes one.
 */

/** A map of `levels` levels: the map itself, then nested objects. */
function nested(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  let current = root
  for (let i = 1; i < levels; i++) {
    const next: Record<string, unknown> = {}
    current.k = next
    current = next
  }
  return root
}
const manyKeys = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))
/** A map whose JSON is exactly `bytes` bytes: `{"s":"xx…"}`. */
const ofSize = (bytes: number) => ({ s: 'x'.repeat(bytes - 8) })

const TOO_MUCH: [string, Record<string, unknown>][] = [
  ['map_too_deep', nested(33)],
  ['map_too_many_keys', manyKeys(1001)],
  ['map_too_large', ofSize(64 * 1024 + 1)],
]

interface Case {
  method: string
  path: string
  body: (map: Record<string, unknown>) => Record<string, unknown>
  loc: string[]
}

const node = (properties: Record<string, unknown>) => ({ name: 'W', type: 'T', properties })
const CASES: Case[] = [
  {
    method: 'POST',
    path: '/model/entity',
    body: (m) => ({ name: 'x', properties: m }),
    loc: ['properties'],
  },
  {
    method: 'POST',
    path: '/model/entity',
    body: (m) => ({ name: 'x', metadata: m }),
    loc: ['metadata'],
  },
  {
    method: 'POST',
    path: '/model/entity',
    body: (m) => ({ name: 'x', identification_params: m }),
    loc: ['identification_params'],
  },
  {
    method: 'PUT',
    path: '/model/entity',
    body: (m) => ({ uuid: 'u', new_properties: m }),
    loc: ['new_properties'],
  },
  {
    method: 'POST',
    path: '/model/relationship',
    body: (m) => ({
      subject_uuid: 'a',
      object_uuid: 'b',
      predicate_name: 'P',
      predicate_description: '',
      properties: m,
    }),
    loc: ['properties'],
  },
  {
    method: 'PUT',
    path: '/model/relationship',
    body: (m) => ({ uuid: 'u', new_properties: m }),
    loc: ['new_properties'],
  },
  {
    method: 'POST',
    path: '/ingest/',
    body: (m) => ({ text: 'hello', meta_keys: m }),
    loc: ['meta_keys'],
  },
  {
    method: 'POST',
    path: '/ingest/structured',
    body: (m) => ({ data: [{ object: node(m) }] }),
    loc: ['data', '0', 'object', 'properties'],
  },
  {
    method: 'POST',
    path: '/ingest/structured',
    body: (m) => ({
      data: [{ subject: node(m), subj_event: { name: 'P' }, object: node({}) }],
    }),
    loc: ['data', '0', 'subject', 'properties'],
  },
  {
    method: 'POST',
    path: '/ingest/structured',
    body: (m) => ({
      data: [{ subject: node({}), subj_event: { name: 'P', properties: m }, object: node({}) }],
    }),
    loc: ['data', '0', 'subj_event', 'properties'],
  },
  {
    method: 'POST',
    path: '/retrieve/entities/neighbors',
    body: (m) => ({ identification_params: m }),
    loc: ['identification_params'],
  },
  {
    method: 'POST',
    path: '/retrieve/entities/neighbors/ai-mode',
    body: (m) => ({ identification_params: m, looking_for: ['x'] }),
    loc: ['identification_params'],
  },
]

let s: ListeningApp
const headers = { ServicePAT: SYSTEM_TOKEN, 'content-type': 'application/json' }
const send = (method: string, path: string, body: unknown) =>
  fetch(`${s.url}${path}`, { method, headers, body: JSON.stringify(body) })

beforeAll(async () => {
  s = await listeningApp({ storage: 'memory' })
})
afterAll(async () => {
  await s.close()
})

describe('free-form map limits', () => {
  it('every route refuses a map over a limit with a 422 naming the field and the limit', async () => {
    for (const c of CASES) {
      for (const [type, map] of TOO_MUCH) {
        const envelope = await expectFetchEnvelope(
          await send(c.method, c.path, c.body(map)),
          422,
          'VALIDATION_ERROR',
        )
        expect(envelope.detail, `${c.method} ${c.path} ${type}`).toEqual([
          expect.objectContaining({ loc: ['body', ...c.loc], type }),
        ])
      }
    }
  })

  it('flat maps of scalars (`extras`, `behavior_weights`) take at most 1,000 keys', async () => {
    const weights = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1]))
    for (const [path, body, loc] of [
      ['/retrieve/search', (n: number) => ({ query: 'x', extras: weights(n) }), 'extras'],
      [
        '/retrieve/recommend',
        (n: number) => ({ target: 'nobody', behavior_weights: weights(n) }),
        'behavior_weights',
      ],
    ] as const) {
      const envelope = await expectFetchEnvelope(
        await send('POST', path, body(1001)),
        422,
        'VALIDATION_ERROR',
      )
      expect(envelope.detail, path).toEqual([
        expect.objectContaining({ loc: ['body', loc], msg: 'at most 1000 keys' }),
      ])
      const atLimit = await send('POST', path, body(1000))
      expect(atLimit.status, path).not.toBe(422)
      await atLimit.text()
    }
  })

  it('accepts a map exactly at each limit', async () => {
    for (const map of [nested(32), manyKeys(1000), ofSize(64 * 1024)]) {
      const res = await send('POST', '/model/entity', { name: 'at the limit', properties: map })
      expect(res.status, await res.clone().text()).toBe(201)
      const ingest = await send('POST', '/ingest/', {
        text: 'at the limit',
        meta_keys: map,
        skip_enrichment: true,
      })
      expect(ingest.status).toBe(202)
      await Promise.all([res.text(), ingest.text()])
    }
  })

  it('`data.json_data` is bounded in depth and keys, and in size only by the body limit', async () => {
    for (const [type, map] of TOO_MUCH.slice(0, 2)) {
      const envelope = await expectFetchEnvelope(
        await send('POST', '/ingest/', { data: { json_data: map } }),
        422,
      )
      expect(envelope.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'data', 'json_data'], type }),
      ])
    }
    // Words, and no enrichment: what is checked is the size limit, not how fast a long text ingests.
    const big = await send('POST', '/ingest/', {
      data: { json_data: { s: 'word '.repeat(40_000) } },
      skip_enrichment: true,
    })
    expect(big.status).toBe(202)
    await big.text()
  })

  it('the multipart `meta_keys` field of /ingest/file has the same limits', async () => {
    for (const [type, map] of TOO_MUCH) {
      const form = new FormData()
      form.set('meta_keys', JSON.stringify(map))
      form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt')
      const res = await fetch(`${s.url}/ingest/file`, {
        method: 'POST',
        headers: { ServicePAT: SYSTEM_TOKEN },
        body: form,
      })
      const envelope = await expectFetchEnvelope(res, 422, 'VALIDATION_ERROR')
      expect(envelope.detail).toEqual([
        expect.objectContaining({ loc: ['body', 'meta_keys'], type }),
      ])
    }
    // Nested far deeper than the JSON body parser would let through: refused, not a stack overflow.
    const form = new FormData()
    form.set('meta_keys', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000))
    form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt')
    const res = await fetch(`${s.url}/ingest/file`, {
      method: 'POST',
      headers: { ServicePAT: SYSTEM_TOKEN },
      body: form,
    })
    await expectFetchEnvelope(res, 422, 'VALIDATION_ERROR')
  })

  it('the MCP tool ingest_text refuses `meta_keys` over a limit as a tool error', async () => {
    for (const [type, map] of TOO_MUCH) {
      const res = await fetch(`${s.url}/mcp/brain`, {
        method: 'POST',
        headers: { ...headers, accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'ingest_text', arguments: { text: 'hello', meta_keys: map } },
        }),
      })
      expect(res.status).toBe(200)
      const { result } = (await res.json()) as {
        result: { isError?: boolean; structuredContent: { status: number; detail: unknown } }
      }
      expect(result.isError).toBe(true)
      expect(result.structuredContent.status).toBe(422)
      expect(result.structuredContent.detail).toEqual([
        expect.objectContaining({ loc: ['arguments', 'meta_keys'], type }),
      ])
    }
  })
})
