import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectFetchEnvelope } from '../support/envelope.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

/** Issue 11 item 2: deeply nested JSON answered 500 (`RangeError: Maximum call stack size exceeded`). */

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
const deepObject = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1)

interface Operation {
  method: string
  path: string
}

let s: ListeningApp
const headers = { ServicePAT: SYSTEM_TOKEN, 'content-type': 'application/json' }
const send = (method: string, path: string, body: string) =>
  fetch(`${s.url}${path}`, { method, headers, body })

beforeAll(async () => {
  s = await listeningApp({ storage: 'memory' })
})
afterAll(async () => {
  await s.close()
})

describe('deeply nested JSON bodies', () => {
  it('a 10,000-deep `brain_id` array on every JSON-body operation: 422 in the envelope', async () => {
    const doc = (await (await fetch(`${s.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>
    }
    const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody?.content?.['application/json'] !== undefined)
        .map(([method, op]) => {
          void op
          return { method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x') }
        }),
    )
    expect(operations.length).toBeGreaterThanOrEqual(12)
    for (const { method, path } of [...operations, { method: 'POST', path: '/mcp/brain' }]) {
      const res = await send(method, path, `{"brain_id":${deepArray(10_000)}}`)
      const envelope = await expectFetchEnvelope(res, 422, 'VALIDATION_ERROR')
      expect(envelope.detail, `${method} ${path}`).toEqual([
        expect.objectContaining({ loc: ['body'], type: 'json_too_deep' }),
      ])
    }
  })

  it('free-form maps nested 5,000 deep: 422 in the envelope, never 500', async () => {
    const map = deepObject(5_000)
    const cases: [string, string, string][] = [
      ['POST', '/model/entity', `{"name":"x","properties":${map}}`],
      ['POST', '/model/entity', `{"name":"x","metadata":${map}}`],
      ['POST', '/model/entity', `{"name":"x","identification_params":${map}}`],
      ['PUT', '/model/entity', `{"uuid":"u","new_properties":${map}}`],
      [
        'POST',
        '/model/relationship',
        `{"subject_uuid":"a","object_uuid":"b","predicate_name":"P","predicate_description":"","properties":${map}}`,
      ],
      ['PUT', '/model/relationship', `{"uuid":"u","new_properties":${map}}`],
      ['POST', '/ingest/', `{"text":"hello","meta_keys":${map}}`],
      ['POST', '/ingest/', `{"data":{"json_data":${map}}}`],
      [
        'POST',
        '/ingest/structured',
        `{"data":[{"object":{"name":"W","type":"T","properties":${map}}}]}`,
      ],
      ['POST', '/retrieve/entities/neighbors', `{"identification_params":${map}}`],
      [
        'POST',
        '/retrieve/entities/neighbors/ai-mode',
        `{"identification_params":${map},"looking_for":["x"]}`,
      ],
    ]
    for (const [method, path, body] of cases) {
      await expectFetchEnvelope(await send(method, path, body), 422, 'VALIDATION_ERROR')
    }
  })

  it('bounds the nesting of the whole body at 64 levels', async () => {
    // 64 levels (the body object and 63 arrays): parsed, then refused by the schema for its type.
    const inside = await expectFetchEnvelope(
      await send('POST', '/model/entity', `{"name":"x","description":${deepArray(63)}}`),
      422,
    )
    expect(inside.detail).toEqual([expect.objectContaining({ loc: ['body', 'description'] })])
    const beyond = await expectFetchEnvelope(
      await send('POST', '/model/entity', `{"name":"x","description":${deepArray(64)}}`),
      422,
    )
    expect(beyond.detail).toEqual([expect.objectContaining({ type: 'json_too_deep' })])
  })

  it('brackets and escaped quotes inside strings do not count as nesting (a 7 MB text body)', async () => {
    const text = '[[{{"\\"}}]] '.repeat(500_000)
    const res = await send('POST', '/ingest/', JSON.stringify({ text, skip_enrichment: true }))
    expect(res.status, await res.clone().text()).toBe(202)
    await res.text()
  })
})
