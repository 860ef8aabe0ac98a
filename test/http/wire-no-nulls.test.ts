import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'
import { createResponseCheck } from '../support/openapi-response-check.js'

/**
 * Issue 11 item 9 (CONTRACT.md section 1): no `null` where the specification gives a plain type; and
 * issue 25's check "every response validates against /openapi.json in a test that calls every
 * operation, context-pack items included". A response check built from the server's own
 * `/openapi.json` is run over a 2xx response of every operation of the document, on a brain holding
 * real data: the Emily sentence through the extractor, structured items, entities and relationships
 * written through /model with their optional fields unset, two dated events in one city and a
 * superseded (`invalid_at`) fact (so the context pack has paths, topics, temporal conflicts and
 * historical context to type), a file, and the updates that write property changelogs. A new
 * operation without a call here fails the coverage tests.
 */
let server: ListeningApp
let check: ReturnType<typeof createResponseCheck>
const ids: Record<string, string> = {}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: unknown
  form?: FormData
}

async function call(c: Call): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { ServicePAT: SYSTEM_TOKEN }
  let body: FormData | string | undefined
  if (c.form !== undefined) body = c.form
  else if (c.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(c.body)
  }
  const res = await fetch(`${server.url}${c.path}`, { method: c.method, headers, body })
  const text = await res.text()
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
}

async function ok<T = Record<string, unknown>>(c: Call): Promise<T> {
  const res = await call(c)
  expect(res.status, `${c.method} ${c.path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
  return res.body as T
}

const markdown = () => {
  const form = new FormData()
  form.append(
    'file',
    new Blob(['# Widgets\n\nThe Widget is made by Acme Corp in Lyon.\n'], {
      type: 'text/markdown',
    }),
    'widgets.md',
  )
  form.append('meta_keys', JSON.stringify({ title: 'Widgets' }))
  return form
}

beforeAll(async () => {
  server = await listeningApp({ storage: 'memory' })
  check = createResponseCheck((await ok({ method: 'GET', path: '/openapi.json' })) as never)
  const text = await ok({
    method: 'POST',
    path: '/ingest/',
    body: {
      text: 'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
      source_timestamp: '2024-04-01T00:00:00Z',
    },
  })
  ids.task = text.task_id as string
  await ok({
    method: 'POST',
    path: '/ingest/structured',
    body: {
      data: [
        {
          subject: { name: 'Alice', type: 'person' },
          subj_event: { name: 'works at' },
          object: { name: 'Globex', type: 'company' },
        },
      ],
    },
  })
  await ok({ method: 'POST', path: '/ingest/file', form: markdown() })
  // Optional fields left unset: description, metadata, happened_at, amount.
  const [widget] = await ok<{ uuid: string }[]>({
    method: 'POST',
    path: '/model/entity',
    body: { name: 'Widget', labels: ['PRODUCT'] },
  })
  const [maker] = await ok<{ uuid: string }[]>({
    method: 'POST',
    path: '/model/entity',
    body: { name: 'Acme Corp', labels: ['COMPANY'] },
  })
  ids.widget = widget!.uuid
  ids.relationship = await ok<string>({
    method: 'POST',
    path: '/model/relationship',
    body: {
      subject_uuid: widget!.uuid,
      object_uuid: maker!.uuid,
      predicate_name: 'made by',
      predicate_description: 'manufacturer',
    },
  })
  await server.engram.tasks.idle()
  const changelogs = await ok<{ changelogs: { id: string }[] }>({
    method: 'GET',
    path: '/retrieve/changelogs',
  })
  ids.changelog = changelogs.changelogs[0]!.id
  const observations = await ok<{ observations: { id: string }[] }>({
    method: 'GET',
    path: '/retrieve/observations',
  })
  ids.observation = observations.observations[0]!.id
  const structured = await ok<{ data: { id: string }[] }>({
    method: 'GET',
    path: '/retrieve/structured-data',
  })
  ids.structured = structured.data[0]!.id
  await ok({ method: 'POST', path: '/system/brains', body: { brain_id: 'scratch' } })
  await eventsOfEmily()
  await recordsToDelete()
})

/** A source and model records the delete operations remove, last, so no other call misses them. */
async function recordsToDelete() {
  await ok({
    method: 'POST',
    path: '/ingest/',
    body: {
      text: 'Quartz clocks keep time with a vibrating crystal.',
      source_id: 'wire/clocks.txt',
      skip_enrichment: true,
    },
  })
  const [scrap] = await ok<{ uuid: string }[]>({
    method: 'POST',
    path: '/model/entity',
    body: { name: 'Scrap', labels: ['THING'] },
  })
  ids.scrap = scrap!.uuid
  ids.scrapLink = await ok<string>({
    method: 'POST',
    path: '/model/relationship',
    body: {
      subject_uuid: scrap!.uuid,
      object_uuid: ids.widget,
      predicate_name: 'part of',
      predicate_description: '',
    },
  })
  await server.engram.tasks.idle()
}

/**
 * Emily attended two dated events held in Berlin (two hubs sharing an entity: a path, and Emily and
 * Berlin as topics; the same statement dated twice: a temporal conflict), and lived in Lisbon, a fact
 * superseded by `invalid_at` and then stated again (a conflict a history question keeps).
 */
async function eventsOfEmily() {
  const entity = async (name: string, labels: string[], extra: object = {}) =>
    (
      await ok<{ uuid: string }[]>({
        method: 'POST',
        path: '/model/entity',
        body: { name, labels, ...extra },
      })
    )[0]!.uuid
  const link = (subject: string, predicate: string, object: string, extra: object = {}) =>
    ok({
      method: 'POST',
      path: '/model/relationship',
      body: {
        subject_uuid: subject,
        object_uuid: object,
        predicate_name: predicate,
        predicate_description: '',
        ...extra,
      },
    })
  const emily = await entity('Emily', ['PERSON'], { description: 'Organizer of meetups' })
  const berlin = await entity('Berlin', ['CITY'], { description: 'Capital of Germany' })
  const lisbon = await entity('Lisbon', ['CITY'])
  for (const [name, day] of [
    ['Robotics Summit', '2023-05-01'],
    ['Berlin Hackathon', '2024-02-10'],
  ] as const) {
    const event = await entity(name, ['EVENT'], { happened_at: day, description: `${name} event` })
    await link(emily, 'attended', event, { happened_at: day, predicate_description: 'took part' })
    await link(event, 'held in', berlin, { happened_at: day })
  }
  await link(emily, 'lives in', lisbon, {
    happened_at: '2020-01-01',
    properties: { valid_at: '2020-01-01', invalid_at: '2023-01-01' },
  })
  await link(emily, 'lives in', lisbon, {
    happened_at: '2023-06-01',
    properties: { valid_at: '2023-06-01' },
  })
}
afterAll(async () => {
  await server?.close()
})

type Body = Record<string, unknown[]> & Record<string, unknown>
/** Non-empty arrays at these keys of a response: the items whose schemas the call is there to see. */
const filled =
  (...keys: string[]) =>
  (body: unknown) => {
    for (const key of keys) expect((body as Body)[key], key).not.toHaveLength(0)
  }

/**
 * One 2xx call per operation of the document, in an order where each finds what it needs, with what
 * the response must hold besides conforming.
 */
const CALLS: [string, () => Call, ((body: unknown) => void)?][] = [
  ['public_health', () => ({ method: 'GET', path: '/health' })],
  ['public_demo_search', () => ({ method: 'GET', path: '/demo/search?query=brain%20token' })],
  ['meta_entity_labels', () => ({ method: 'GET', path: '/meta/entity-labels' })],
  ['meta_entity_properties', () => ({ method: 'GET', path: '/meta/entity-properties' })],
  [
    'meta_relationships_properties',
    () => ({ method: 'GET', path: '/meta/relationships-properties' }),
  ],
  ['meta_login_info', () => ({ method: 'GET', path: '/meta/login-info' })],
  [
    'meta_search_plugins',
    () => ({ method: 'GET', path: '/meta/search-plugins' }),
    filled('channels', 'fusions', 'stages'),
  ],
  ['system_list_brains', () => ({ method: 'GET', path: '/system/brains-list' })],
  [
    'system_create_brain',
    () => ({ method: 'POST', path: '/system/brains', body: { brain_id: 'extra' } }),
  ],
  [
    'system_rotate_brain_token',
    () => ({ method: 'POST', path: '/system/brains/scratch/rotate-token' }),
  ],
  ['system_delete_brain', () => ({ method: 'DELETE', path: '/system/brains/scratch' })],
  ['system_get_brain_settings', () => ({ method: 'GET', path: '/system/brains/default/settings' })],
  [
    'system_put_brain_settings',
    () => ({ method: 'PUT', path: '/system/brains/default/settings', body: { bm25: {} } }),
  ],
  [
    'model_create_entity',
    () => ({
      method: 'POST',
      path: '/model/entity',
      body: { name: 'Gadget', labels: ['PRODUCT'] },
    }),
  ],
  [
    'model_update_entity',
    () => ({
      method: 'PUT',
      path: '/model/entity',
      body: { uuid: ids.widget, new_properties: { color: 'red' } },
    }),
  ],
  [
    'model_create_relationship',
    () => ({
      method: 'POST',
      path: '/model/relationship',
      body: {
        subject_uuid: ids.widget,
        object_uuid: ids.widget,
        predicate_name: 'variant of',
        predicate_description: '',
      },
    }),
  ],
  [
    'model_update_relationship',
    () => ({
      method: 'PUT',
      path: '/model/relationship',
      body: { uuid: ids.relationship, new_properties: { since: 2020 } },
    }),
  ],
  ['ingest_text', () => ({ method: 'POST', path: '/ingest/', body: { text: 'Bob met Carol.' } })],
  ['ingest_file', () => ({ method: 'POST', path: '/ingest/file', form: markdown() })],
  [
    'ingest_structured',
    () => ({
      method: 'POST',
      path: '/ingest/structured',
      body: {
        data: [
          {
            subject: { name: 'Bob', type: 'person' },
            subj_event: { name: 'knows' },
            object: { name: 'Carol', type: 'person' },
          },
        ],
      },
    }),
  ],
  ['tasks_list', () => ({ method: 'GET', path: '/tasks/' })],
  ['tasks_get', () => ({ method: 'GET', path: `/tasks/${ids.task}` })],
  ['retrieve_entities', () => ({ method: 'GET', path: '/retrieve/entities' })],
  ['retrieve_relationships', () => ({ method: 'GET', path: '/retrieve/relationships' })],
  ['retrieve_observations', () => ({ method: 'GET', path: '/retrieve/observations' })],
  ['retrieve_observation_labels', () => ({ method: 'GET', path: '/retrieve/observations/labels' })],
  [
    'retrieve_observation',
    () => ({ method: 'GET', path: `/retrieve/observations/${ids.observation}` }),
  ],
  ['retrieve_structured_data', () => ({ method: 'GET', path: '/retrieve/structured-data' })],
  [
    'retrieve_structured_data_types',
    () => ({ method: 'GET', path: '/retrieve/structured-data/types' }),
  ],
  [
    'retrieve_structured_data_item',
    () => ({ method: 'GET', path: `/retrieve/structured-data/${ids.structured}` }),
  ],
  ['retrieve_changelogs', () => ({ method: 'GET', path: '/retrieve/changelogs?limit=1000' })],
  ['retrieve_changelog_types', () => ({ method: 'GET', path: '/retrieve/changelogs/types' })],
  ['retrieve_changelog', () => ({ method: 'GET', path: `/retrieve/changelogs/${ids.changelog}` })],
  [
    'retrieve_search_get',
    () => ({
      method: 'GET',
      path: '/retrieve/search?query=Emily&channels=passages,entities,events',
    }),
  ],
  [
    'retrieve_search_post',
    () => ({ method: 'POST', path: '/retrieve/search', body: { query: 'Widget' } }),
  ],
  [
    'retrieve_passages',
    () => ({ method: 'GET', path: '/retrieve/?text=Emily%20meetup&preferred_entities=PERSON' }),
  ],
  [
    'retrieve_neighbors_get',
    () => ({ method: 'GET', path: `/retrieve/entities/neighbors?uuid=${ids.widget}` }),
  ],
  [
    'retrieve_neighbors_post',
    () => ({
      method: 'POST',
      path: '/retrieve/entities/neighbors',
      body: { identification_params: { name: 'Emily' } },
    }),
  ],
  [
    'retrieve_neighbors_ai_mode',
    () => ({
      method: 'POST',
      path: '/retrieve/entities/neighbors/ai-mode',
      body: { identification_params: { name: 'Emily' }, looking_for: ['meetup'] },
    }),
  ],
  [
    'retrieve_entity_context',
    () => ({ method: 'GET', path: '/retrieve/entity/context?target=Emily' }),
    filled('neighborhood', 'natural_language_web', 'text_contexts'),
  ],
  [
    'retrieve_entity_info',
    () => ({ method: 'GET', path: '/retrieve/entity/info?target=Widget&query=zebra' }),
  ],
  [
    'retrieve_entity_status',
    // A relationship type: it filters the relationships and does not decide existence.
    () => ({ method: 'GET', path: '/retrieve/entity/status?target=Emily&types=ATTENDED' }),
    (body) => {
      expect(body).toMatchObject({ exists: true, has_relationships: true })
      const relationships = (body as { relationships: [{ name: string }, unknown][] }).relationships
      expect(relationships.map(([r]) => r.name)).toEqual(['ATTENDED', 'ATTENDED'])
    },
  ],
  ['retrieve_hops', () => ({ method: 'GET', path: '/retrieve/hops?query=Widget' })],
  [
    'retrieve_entity_synergies',
    () => ({ method: 'GET', path: '/retrieve/entity/synergies?target=Emily' }),
  ],
  [
    'retrieve_context',
    () => ({
      method: 'POST',
      path: '/retrieve/context',
      body: { text: 'Where did Emily live before, and which events did she attend in Berlin?' },
    }),
    filled(
      'triples',
      'historical_context',
      'paths',
      'source_passages',
      'temporal_conflicts',
      'topics',
    ),
  ],
  ['retrieve_recommend_get', () => ({ method: 'GET', path: '/retrieve/recommend?target=Emily' })],
  [
    'retrieve_recommend_post',
    () => ({ method: 'POST', path: '/retrieve/recommend', body: { target: 'Emily' } }),
  ],
  ['sources_list', () => ({ method: 'GET', path: '/sources' }), filled('sources')],
  [
    'sources_get',
    () => ({ method: 'GET', path: `/sources/${encodeURIComponent('wire/clocks.txt')}` }),
    filled('passages'),
  ],
  [
    'sources_forget',
    () => ({ method: 'DELETE', path: `/sources/${encodeURIComponent('wire/clocks.txt')}` }),
  ],
  [
    'model_delete_relationship',
    () => ({ method: 'DELETE', path: `/model/relationship/${ids.scrapLink}` }),
  ],
  ['model_delete_entity', () => ({ method: 'DELETE', path: `/model/entity/${ids.scrap}` })],
  [
    'model_delete_observation',
    () => ({ method: 'DELETE', path: `/model/observation/${ids.observation}` }),
  ],
]

/**
 * Operations whose 200 is not a JSON body: the change stream is `text/event-stream`, and each event's
 * data is an entry exactly as `retrieve_changelogs` lists it (checked by
 * packages/server/src/routes/changelog-stream-routes.test.ts), so that call covers its shape here.
 */
const NOT_JSON = new Set(['retrieve_changelogs_stream'])
const jsonOperationIds = () => check.operationIds().filter((id) => !NOT_JSON.has(id))

/** The operations whose call conformed, as the calls below run (in order, one after another). */
const conformed = new Set<string>()

describe('every 2xx response against /openapi.json', () => {
  it('covers every operation of the document', () => {
    expect(CALLS.map(([id]) => id).sort()).toEqual([...jsonOperationIds()].sort())
  })

  it.each(CALLS)(
    '%s: conforms, with no null in a typed field',
    async (operationId, make, holds) => {
      const request = make()
      const { path, method } = check.operation(operationId)
      expect(request.method.toLowerCase()).toBe(method)
      expect(request.path.split('?')[0]).toMatch(
        new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      )
      const res = await call(request)
      expect(check.check(operationId, res.status, res.body)).toEqual([])
      holds?.(res.body)
      conformed.add(operationId)
    },
  )

  it('called every operation of the document, and each response conformed', () => {
    expect([...conformed].sort()).toEqual([...jsonOperationIds()].sort())
  })

  it('the check itself: flags typed nulls, missing fields and bad dates; free-form nulls pass', async () => {
    const [entity] = await ok<Record<string, unknown>[]>({
      method: 'POST',
      path: '/model/entity',
      body: { name: 'Probe', properties: { left: null } },
    })
    const at = (body: unknown) => check.check('model_create_entity', 201, body)
    expect(at([entity])).toEqual([])
    expect(at([{ ...entity, description: null }])).toEqual([
      '/0/description must be string',
      'null at $[0].description',
    ])
    expect(at([{ ...entity, last_updated: 'yesterday' }])).toEqual([
      '/0/last_updated must match format "date-time"',
    ])
    const { uuid: _uuid, ...withoutUuid } = entity!
    expect(at([withoutUuid])).toEqual(["/0 must have required property 'uuid'"])
    const task = await ok({ method: 'GET', path: `/tasks/${ids.task}` })
    expect(check.check('tasks_get', 200, { ...task, result: null })).toEqual([])
    expect(check.check('tasks_get', 200, { ...task, error: null })).toContain('null at $.error')
  })

  it('holds the data the check is meant to see (unset optional fields, nested changes)', async () => {
    const entities = await ok<{ entities: Record<string, unknown>[] }>({
      method: 'GET',
      path: '/retrieve/entities?query_text=Widget',
    })
    expect(entities.entities.find((e) => e.name === 'Widget')).toMatchObject({
      description: '',
      metadata: {},
      happened_at: '',
    })
    const changes = await ok<{
      changelogs: { type: string; change: { predicate?: Record<string, unknown> } }[]
    }>({
      method: 'GET',
      path: '/retrieve/changelogs?types=relationship_created&limit=1000',
    })
    const made = changes.changelogs.find((c) => c.change.predicate?.name === 'MADE_BY')!
    expect(made.change.predicate).toMatchObject({ description: 'manufacturer' })
    expect(made.change.predicate).not.toHaveProperty('amount')
    const task = await ok({ method: 'GET', path: `/tasks/${ids.task}` })
    expect(task).toMatchObject({ status: 'completed', error: '' })
  })
})
