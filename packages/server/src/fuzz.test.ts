import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, SYSTEM_TOKEN, type TestApp } from '../test/support/test-app.js'

/** mulberry32: a tiny seeded PRNG so a failing case can be replayed from its seed. */
function prng(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The operations of issue 2 point 6 (served in full, so none may answer 5xx). */
const ROUTES: [string, string][] = [
  ['GET', '/health'],
  ['GET', '/meta/entity-labels'],
  ['GET', '/meta/entity-properties'],
  ['GET', '/meta/relationships-properties'],
  ['GET', '/meta/login-info'],
  ['POST', '/system/brains'],
  ['GET', '/system/brains-list'],
  ['DELETE', '/system/brains/{id}'],
  ['POST', '/system/brains/{id}/rotate-token'],
  ['POST', '/model/entity'],
  ['PUT', '/model/entity'],
  ['POST', '/model/relationship'],
  ['PUT', '/model/relationship'],
  ['GET', '/tasks/'],
  ['GET', '/tasks/{id}'],
  ['GET', '/retrieve/entities'],
  ['GET', '/retrieve/relationships'],
  ['GET', '/retrieve/observations'],
  ['GET', '/retrieve/observations/labels'],
  ['GET', '/retrieve/observations/{id}'],
  ['GET', '/retrieve/structured-data'],
  ['GET', '/retrieve/structured-data/types'],
  ['GET', '/retrieve/structured-data/{id}'],
  ['GET', '/retrieve/changelogs'],
  ['GET', '/retrieve/changelogs/types'],
  ['GET', '/retrieve/changelogs/{id}'],
]
const FIELDS = [
  'name',
  'uuid',
  'labels',
  'properties',
  'description',
  'brain_id',
  'subject_uuid',
  'object_uuid',
  'predicate_name',
  'predicate_description',
  'new_properties',
  'properties_to_remove',
  'identification_params',
  'polarity',
  'happened_at',
  'amount',
  'direction',
  'new_labels',
  'limit',
  'skip',
  'node_labels',
  'query_text',
  'types',
  'labels',
  'resource_id',
  'query_search_target',
  'relationship_types',
  '__proto__',
  'constructor',
]

describe('fuzzing the served routes', () => {
  let t: TestApp
  let brainToken = ''
  beforeAll(async () => {
    t = await buildTestApp({ maxBodyBytes: 256 * 1024 })
    brainToken = (
      await t.app.inject({
        method: 'POST',
        url: '/system/brains',
        headers: t.system,
        payload: { brain_id: 'fuzz' },
      })
    ).json().pat
    await t.app.inject({
      method: 'POST',
      url: '/model/entity',
      headers: t.system,
      payload: { name: 'Seed' },
    })
  })
  afterAll(async () => {
    await t.close()
  })

  it('1,000 malformed requests: zero 5xx, always the envelope', async () => {
    const rand = prng(20261122)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
    const str = (): string =>
      pick([
        '',
        'x',
        'Emily',
        '0',
        '-1',
        '1e309',
        'NaN',
        'null',
        'true',
        '💥'.repeat(50),
        'a'.repeat(Math.floor(rand() * 5000)),
        '../../etc/passwd',
        "' OR 1=1 --",
        '<script>',
        '\u0000',
        'system',
        '1bad',
        'default',
        'fuzz',
        '%00',
        '{"a":',
        '[]',
      ])
    const value = (depth = 0): unknown => {
      const r = rand()
      if (r < 0.15) return str()
      if (r < 0.3) return pick([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 64])
      if (r < 0.4) return pick([true, false, null])
      if (r < 0.55 && depth < 4)
        return Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1))
      if (r < 0.75 && depth < 4)
        return Object.fromEntries(
          Array.from({ length: Math.floor(rand() * 5) }, () => [pick(FIELDS), value(depth + 1)]),
        )
      return str()
    }
    const tokens = [undefined, SYSTEM_TOKEN, brainToken, 'spat_bogus', '', 'x'.repeat(2000)]
    let checked = 0
    for (let i = 0; i < 1000; i++) {
      const [baseMethod, template] =
        rand() < 0.9 ? pick(ROUTES) : [pick(['GET', 'POST', 'PATCH']), `/${str()}`]
      const method =
        rand() < 0.1 ? pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) : baseMethod
      const url = template.replace(/\{id\}/g, encodeURIComponent(str()).slice(0, 300) || 'x')
      const query =
        rand() < 0.5
          ? `?${Array.from({ length: 1 + Math.floor(rand() * 3) }, () => `${pick(FIELDS)}=${encodeURIComponent(String(value()).slice(0, 300))}`).join('&')}`
          : ''
      const headers: Record<string, string> = {}
      const token = pick(tokens)
      if (token !== undefined)
        headers[rand() < 0.5 ? 'ServicePAT' : 'Authorization'] =
          rand() < 0.8 && token !== ''
            ? headers.ServicePAT === undefined
              ? `Bearer ${token}`
              : token
            : token
      if (rand() < 0.1) headers.Authorization = `Bearer ${pick(tokens) ?? 'z'}`
      if (rand() < 0.4)
        headers['X-Brain-ID'] = pick([
          'fuzz',
          'default',
          'nope',
          'system',
          '1bad',
          '',
          'x'.repeat(300),
          'a b',
        ])
      let payload: string | undefined
      if (method !== 'GET' && method !== 'DELETE' && method !== 'OPTIONS') {
        headers['content-type'] =
          rand() < 0.9
            ? 'application/json'
            : pick(['text/plain', 'application/xml', 'multipart/form-data'])
        payload =
          rand() < 0.2
            ? pick(['{', '{"name":', '[1,2', 'nul', '"\\u12"', '{"a":1}}'])
            : JSON.stringify(value())
        if (rand() < 0.02) payload = JSON.stringify({ name: 'y'.repeat(300 * 1024) })
      }
      const res = await t.app.inject({
        method: method as 'GET',
        url: url + query,
        headers,
        ...(payload !== undefined ? { payload } : {}),
      })
      const context = `#${i} ${method} ${url}${query} -> ${res.statusCode} ${res.body.slice(0, 200)}`
      expect(res.statusCode, context).toBeLessThan(500)
      if (res.statusCode >= 400) {
        const body = JSON.parse(res.body)
        expect(body.error, context).toMatchObject({
          code: expect.any(String),
          message: expect.any(String),
          resolution: expect.any(String),
        })
        expect(body.error.request_id, context).toBe(res.headers['x-request-id'])
        expect('detail' in body, context).toBe(true)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(500)
  })
})
