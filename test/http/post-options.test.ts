import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningApp, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 11 item 8 (CONTRACT.md section 1, "POST carries GET's options"): wherever a GET takes a
 * comma-separated list or a boolean, the POST body takes the same string as well as a JSON array or
 * boolean, and answers as the GET does.
 */
let t: ListeningApp
const get = (url: string, brain?: string) =>
  t.app.inject({ method: 'GET', url, headers: t.headers(brain) })
const post = (url: string, payload: object, brain?: string) =>
  t.app.inject({ method: 'POST', url, headers: t.headers(brain), payload })

const person = (name: string) => ({ name, type: 'person' })
const product = (name: string) => ({ name, type: 'product' })
const buy = (who: string, what: string) => ({
  subject: person(who),
  subj_event: { name: 'did' },
  event: { name: 'purchase', type: 'event', happened_at: '2025-01-01' },
  event_obj: { name: 'on' },
  object: product(what),
})
const SHOP = [
  buy('Ann', 'Laptop'),
  buy('Ben', 'Laptop'),
  buy('Ben', 'Keyboard'),
  buy('Cat', 'Laptop'),
  buy('Cat', 'Keyboard'),
  buy('Cat', 'Monitor'),
  {
    subject: person('Ann'),
    subj_event: { name: 'works with' },
    object: { name: 'Keyboard Club', type: 'group', description: 'people who love keyboards' },
  },
]

/** A search or context response without its timings (they differ between two runs). */
const withoutTimings = (body: Record<string, unknown>) => ({ ...body, stage_timings: undefined })
/** Context scores decay with the clock between two requests: compare them to 6 decimals. */
const rounded = (value: unknown): unknown =>
  typeof value === 'number'
    ? Number(value.toFixed(6))
    : Array.isArray(value)
      ? value.map(rounded)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]))
        : value

beforeAll(async () => {
  t = await listeningApp({ storage: 'memory' })
  const passages = await post('/ingest/', {
    text: 'Ann bought a laptop and a keyboard. The keyboard club meets on Fridays.',
    skip_enrichment: true,
  })
  const shop = await post('/ingest/structured', { data: SHOP })
  await t.engram.tasks.idle()
  for (const res of [passages, shop]) {
    expect(res.statusCode).toBe(202)
    expect((await get(`/tasks/${res.json().task_id}`)).json().status).toBe('completed')
  }
})
afterAll(async () => {
  await t?.close()
})

describe('POST /retrieve/search', () => {
  it('takes channels, node_labels and community_labels as comma-separated strings', async () => {
    const query = 'keyboard'
    const viaGet = await get(
      `/retrieve/search?query=${query}&channels=passages,entities&node_labels=PRODUCT,GROUP&community_labels=GROUP`,
    )
    expect(viaGet.statusCode).toBe(200)
    const csv = await post('/retrieve/search', {
      query,
      channels: 'passages, entities',
      node_labels: 'PRODUCT,GROUP',
      community_labels: 'GROUP',
    })
    expect(csv.statusCode, csv.body).toBe(200)
    const array = await post('/retrieve/search', {
      query,
      channels: ['passages', 'entities'],
      node_labels: ['PRODUCT', 'GROUP'],
      community_labels: ['GROUP'],
    })
    expect(array.statusCode).toBe(200)
    // Both channels ran and the entities channel honoured the label filter.
    const channels = new Set(csv.json().hits.map((h: { channel: string }) => h.channel))
    expect(channels).toEqual(new Set(['passages', 'entities']))
    for (const hit of csv.json().hits as { channel: string; labels: string[] }[]) {
      if (hit.channel === 'entities') expect(hit.labels).not.toContain('PERSON')
    }
    expect(withoutTimings(csv.json())).toEqual(withoutTimings(viaGet.json()))
    expect(withoutTimings(array.json())).toEqual(withoutTimings(viaGet.json()))
  })

  it('takes profile_stages as a JSON boolean or "true"/"false"/"1"/"0"', async () => {
    for (const [value, profiled] of [
      ['true', true],
      ['1', true],
      [true, true],
      ['false', false],
      ['0', false],
      [false, false],
    ] as const) {
      const res = await post('/retrieve/search', { query: 'laptop', profile_stages: value })
      expect(res.statusCode, String(value)).toBe(200)
      const timings = res.json().stage_timings
      if (profiled) expect(timings.stages.length, String(value)).toBeGreaterThan(0)
      else expect(timings ?? {}, String(value)).toEqual({})
    }
  })

  it('still refuses what neither form allows, with 422 naming the field', async () => {
    for (const [field, value] of [
      ['channels', 5],
      ['channels', [1]],
      ['profile_stages', 'yes'],
      ['profile_stages', 1],
      ['node_labels', 'x'.repeat(129)],
      ['node_labels', Array.from({ length: 51 }, (_, i) => `L${i}`).join(',')],
    ] as const) {
      const res = await post('/retrieve/search', { query: 'laptop', [field]: value })
      expect(res.statusCode, `${field}=${JSON.stringify(value)}`).toBe(422)
      const body = res.json()
      expect(body.error.code).toBe('VALIDATION_ERROR')
      expect(JSON.stringify(body.detail)).toContain(field)
    }
  })
})

describe('POST /retrieve/recommend', () => {
  it('takes labels as a comma-separated string and booleans as strings, as GET does', async () => {
    const viaGet = await get(
      '/retrieve/recommend?target=Ann&labels=PRODUCT,GROUP&exclude_seen=true&diversify=false&include_multi_interest=0&include_asymmetric=1&include_attribute_pref=false&dampen_degree=true',
    )
    expect(viaGet.statusCode).toBe(200)
    const names = (body: { recommendations: { node: { name: string } }[] }) =>
      body.recommendations.map((r) => r.node.name)
    expect(names(viaGet.json())).toContain('Keyboard')
    expect(names(viaGet.json())).not.toContain('Laptop')
    const strings = await post('/retrieve/recommend', {
      target: 'Ann',
      labels: 'PRODUCT,GROUP',
      exclude_seen: 'true',
      diversify: 'false',
      include_multi_interest: '0',
      include_asymmetric: '1',
      include_attribute_pref: 'false',
      dampen_degree: 'true',
    })
    expect(strings.statusCode, strings.body).toBe(200)
    expect(strings.json()).toEqual(viaGet.json())
    const json = await post('/retrieve/recommend', {
      target: 'Ann',
      labels: ['PRODUCT', 'GROUP'],
      exclude_seen: true,
      diversify: false,
      include_multi_interest: false,
      include_asymmetric: true,
      include_attribute_pref: false,
      dampen_degree: true,
    })
    expect(json.json()).toEqual(viaGet.json())
    // The string really is read: exclude_seen "false" brings the seen Laptop back.
    const seen = await post('/retrieve/recommend', {
      target: 'Ann',
      labels: 'PRODUCT',
      exclude_seen: 'false',
    })
    const plain = await post('/retrieve/recommend', {
      target: 'Ann',
      labels: 'PRODUCT',
      exclude_seen: 'true',
    })
    expect(names(plain.json())).not.toContain('Laptop')
    expect(names(seen.json())).toContain('Laptop')
    const bad = await post('/retrieve/recommend', { target: 'Ann', diversify: 'maybe' })
    expect(bad.statusCode).toBe(422)
    expect(JSON.stringify(bad.json().detail)).toContain('diversify')
  })
})

describe('POST /retrieve/context', () => {
  it('takes use_ppr and profile_stages as strings', async () => {
    const asJson = await post('/retrieve/context', {
      text: 'What did Ann buy?',
      use_ppr: false,
      profile_stages: true,
    })
    const asStrings = await post('/retrieve/context', {
      text: 'What did Ann buy?',
      use_ppr: 'false',
      profile_stages: 'true',
    })
    expect(asStrings.statusCode, asStrings.body).toBe(200)
    expect(rounded(withoutTimings(asStrings.json()))).toEqual(
      rounded(withoutTimings(asJson.json())),
    )
    expect(Object.keys(asStrings.json().stage_timings).length).toBeGreaterThan(0)
    const off = await post('/retrieve/context', { text: 'What did Ann buy?', profile_stages: '0' })
    expect(off.json().stage_timings ?? {}).toEqual({})
  })
})

describe('POST /ingest/', () => {
  it('takes skip_enrichment as a string: passages only, no entities', async () => {
    const brain = 'skipping'
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/system/brains',
          headers: t.headers(),
          payload: { brain_id: brain },
        })
      ).statusCode,
    ).toBe(201)
    const res = await post(
      '/ingest/',
      { text: 'Zora visited Lisbon.', skip_enrichment: 'true' },
      brain,
    )
    expect(res.statusCode, res.body).toBe(202)
    await t.engram.tasks.idle()
    const task = (await get(`/tasks/${res.json().task_id}`, brain)).json()
    expect(task).toMatchObject({ status: 'completed', result: { passages: 1, entities: 0 } })
    const enriched = await post(
      '/ingest/',
      { text: 'Zora visited Lisbon.', skip_enrichment: 'false' },
      brain,
    )
    await t.engram.tasks.idle()
    const full = (await get(`/tasks/${enriched.json().task_id}`, brain)).json()
    expect(full.result.entities).toBeGreaterThan(0)
    expect((await post('/ingest/', { text: 'x', skip_enrichment: 'no' }, brain)).statusCode).toBe(
      422,
    )
  })
})

describe('the OpenAPI document', () => {
  it('shows each POST list as string | array and each POST boolean as boolean | string enum', async () => {
    const doc = (await get('/openapi.json')).json()
    const body = (path: string) =>
      doc.paths[path].post.requestBody.content['application/json'].schema.properties
    const kinds = (schema: { oneOf?: { type: string }[] }) => schema.oneOf?.map((s) => s.type)
    const search = body('/retrieve/search')
    for (const key of ['channels', 'node_labels', 'community_labels'])
      expect(kinds(search[key]), key).toEqual(['string', 'array'])
    expect(kinds(search.profile_stages)).toEqual(['boolean', 'string'])
    expect(search.profile_stages.oneOf[1].enum.sort()).toEqual(['0', '1', 'false', 'true'])
    const recommend = body('/retrieve/recommend')
    expect(kinds(recommend.labels)).toEqual(['string', 'array'])
    for (const key of [
      'include_asymmetric',
      'include_multi_interest',
      'include_attribute_pref',
      'diversify',
      'exclude_seen',
      'dampen_degree',
    ])
      expect(kinds(recommend[key]), key).toEqual(['boolean', 'string'])
    const context = body('/retrieve/context')
    for (const key of ['use_ppr', 'profile_stages'])
      expect(kinds(context[key]), key).toEqual(['boolean', 'string'])
    expect(kinds(body('/ingest/').skip_enrichment)).toEqual(['boolean', 'string'])
  })
})
