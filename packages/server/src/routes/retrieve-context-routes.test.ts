import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

/**
 * Fixture brains written through `/ingest/structured` (deterministic mode):
 *
 * - `default` (people): Alice and Bob work at Acme and live in Berlin, Alice and Bob are friends, Carol
 *   works at Globex (in Paris) and lives in Berlin, Dave lives in Paris; Alice attended the Robotics
 *   Summit 2024 held in Berlin, and moved to Berlin twice with different dates (a temporal conflict).
 * - `shop`: Ann purchased the Laptop and viewed the Mouse; Ben purchased Laptop, Mouse and Keyboard;
 *   Cat purchased Laptop, Keyboard and Monitor; Dan purchased a Novel. Laptop and Keyboard are Acme
 *   brand, Mouse and Monitor Zen brand; Ann prefers Zen.
 * - `notes`: one text ingested with the local extractor (for source passages and chunk ids).
 * - `empty`: nothing.
 */
const person = (name: string) => ({ name, type: 'person' })
const acme = { name: 'Acme', type: 'company', description: 'robotics company' }
const globex = { name: 'Globex', type: 'company', description: 'energy company' }
const city = (name: string) => ({ name, type: 'city' })
const edge = (subject: object, predicate: string, object: object, properties?: object) => ({
  subject,
  subj_event: { name: predicate, ...(properties ? { properties } : {}) },
  object,
})
const event = (
  actor: object,
  verb: string,
  name: string,
  happenedAt: string,
  leg: string,
  object: object,
) => ({
  subject: actor,
  subj_event: { name: verb },
  event: { name, type: 'event', happened_at: happenedAt },
  event_obj: { name: leg },
  object,
})
const PEOPLE = [
  edge(person('Alice'), 'works at', acme),
  edge(person('Bob'), 'works at', acme),
  edge(person('Carol'), 'works at', globex),
  edge(globex, 'located in', city('Paris')),
  edge(person('Alice'), 'friend of', person('Bob')),
  edge(person('Alice'), 'lives in', city('Berlin')),
  edge(person('Bob'), 'lives in', city('Berlin')),
  edge(person('Carol'), 'lives in', city('Berlin')),
  edge(person('Dave'), 'lives in', city('Paris')),
  {
    subject: person('Alice'),
    subj_event: { name: 'attended' },
    event: { name: 'Robotics Summit 2024', type: 'conference', happened_at: '2024-05-01' },
    event_obj: { name: 'held in' },
    object: city('Berlin'),
  },
  event(
    person('Alice'),
    'moved to',
    'Alice moved to Berlin',
    '2020-01-01',
    'targeted',
    city('Berlin'),
  ),
  event(
    person('Alice'),
    'moved to',
    'Alice moved to Berlin',
    '2021-06-01',
    'targeted',
    city('Berlin'),
  ),
]
const product = (name: string) => ({ name, type: 'product' })
const buy = (who: string, what: string, behaviour = 'purchase') => ({
  subject: person(who),
  subj_event: { name: 'did' },
  event: { name: behaviour, type: 'event', happened_at: '2025-01-01' },
  event_obj: { name: 'on' },
  object: product(what),
})
const brand = (name: string) => ({ name, type: 'brand' })
const SHOP = [
  buy('Ann', 'Laptop'),
  buy('Ann', 'Mouse', 'view'),
  buy('Ben', 'Laptop'),
  buy('Ben', 'Mouse'),
  buy('Ben', 'Keyboard'),
  buy('Cat', 'Laptop'),
  buy('Cat', 'Keyboard'),
  buy('Cat', 'Monitor'),
  buy('Dan', 'Novel'),
  edge(product('Laptop'), 'has brand', brand('Acme')),
  edge(product('Keyboard'), 'has brand', brand('Acme')),
  edge(product('Mouse'), 'has brand', brand('Zen')),
  edge(product('Monitor'), 'has brand', brand('Zen')),
  edge(person('Ann'), 'prefers', brand('Zen'), { weight: 2 }),
]

let t: TestApp
const headers = (brain = 'default') => ({ ...t.system, 'X-Brain-ID': brain })
const get = (url: string, brain?: string) =>
  t.app.inject({ method: 'GET', url, headers: headers(brain) })
const post = (url: string, payload: object, brain?: string) =>
  t.app.inject({ method: 'POST', url, headers: headers(brain), payload })
const uuidOf = async (name: string, brain?: string) =>
  (await get(`/retrieve/entity/status?target=${encodeURIComponent(name)}`, brain)).json().node
    .uuid as string

type Wire = Record<string, unknown> & { name: string; uuid: string; labels: string[] }
interface Rec {
  node: Wire
  channel: string
  connected_by: Wire[]
  score: number
}

beforeAll(async () => {
  t = await buildTestApp()
  for (const brain of ['shop', 'notes', 'empty']) {
    await t.app.inject({
      method: 'POST',
      url: '/system/brains',
      headers: t.system,
      payload: { brain_id: brain },
    })
  }
  const tasks = [
    [await post('/ingest/structured', { data: PEOPLE }), 'default'],
    [await post('/ingest/structured', { data: SHOP }, 'shop'), 'shop'],
    [
      await post(
        '/ingest/',
        {
          text: 'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
          source_timestamp: '2024-04-01T00:00:00Z',
        },
        'notes',
      ),
      'notes',
    ],
  ] as const
  await t.engram.tasks.idle()
  for (const [res, brain] of tasks) {
    expect(res.statusCode).toBe(202)
    expect((await get(`/tasks/${res.json().task_id}`, brain)).json().status).toBe('completed')
  }
})
afterAll(async () => {
  await t.close()
})

describe('GET /retrieve/entity/synergies', () => {
  it('ranks people sharing more with the target first, explained by the shared nodes', async () => {
    const res = await get('/retrieve/entity/synergies?target=Alice&ppa=true&pa=true')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.target_node.name).toBe('Alice')
    const names = (body.synergies as { node: Wire }[]).map((s) => s.node.name)
    expect(names.slice(0, 2)).toEqual(['Bob', 'Carol'])
    expect(names).not.toContain('Alice')
    expect(names).not.toContain('Dave')
    const bob = body.synergies[0] as { association_score: number; connected_by: Wire[] }
    expect(bob.association_score).toBeGreaterThan(body.synergies[1].association_score)
    expect(bob.connected_by.map((e) => e.name)).toEqual(expect.arrayContaining(['Acme', 'Berlin']))
    expect((body.anchors as Wire[]).map((a) => a.name)).toEqual(
      expect.arrayContaining(['Acme', 'Berlin', 'Bob']),
    )
    expect(Array.isArray(body.potential_anchors)).toBe(true)
  })

  it('returns anchors only when asked, and honours labels and top_k', async () => {
    const plain = (await get('/retrieve/entity/synergies?target=Alice')).json()
    expect(plain.anchors).toEqual([])
    expect(plain.potential_anchors).toEqual([])
    const cities = (await get('/retrieve/entity/synergies?target=Alice&labels=CITY')).json()
    for (const s of cities.synergies as { node: Wire }[]) expect(s.node.labels).toContain('CITY')
    const one = (await get('/retrieve/entity/synergies?target=Alice&top_k=1')).json()
    expect(one.synergies).toHaveLength(1)
  })

  it('filters by polarity', async () => {
    const [alice, carol] = [await uuidOf('Alice'), await uuidOf('Carol')]
    for (const [uuid, polarity] of [
      [alice, 'positive'],
      [carol, 'negative'],
    ]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/model/entity',
        headers: headers(),
        payload: { uuid, new_polarity: polarity },
      })
      expect(res.statusCode).toBe(200)
    }
    const same = (await get('/retrieve/entity/synergies?target=Alice')).json()
    const sameNames = (same.synergies as { node: Wire }[]).map((s) => s.node.name)
    expect(sameNames).toContain('Bob')
    expect(sameNames).not.toContain('Carol')
    const opposite = (await get('/retrieve/entity/synergies?target=Alice&polarity=opposite')).json()
    expect((opposite.synergies as { node: Wire }[]).map((s) => s.node.name)).toEqual(['Carol'])
    for (const uuid of [alice, carol])
      await t.app.inject({
        method: 'PUT',
        url: '/model/entity',
        headers: headers(),
        payload: { uuid, new_polarity: 'neutral' },
      })
  })

  it('404 for a target that resolves to nothing, 422 out of bounds', async () => {
    const res = await get('/retrieve/entity/synergies?target=zzzz%20qqqq')
    expect(res.statusCode).toBe(404)
    expect(envelope(res.body).error.code).toBe('RESOURCE_NOT_FOUND')
    expect((await get('/retrieve/entity/synergies?target=Alice&top_k=0')).statusCode).toBe(422)
    expect((await get('/retrieve/entity/synergies?target=Alice&polarity=up')).statusCode).toBe(422)
  })
})

describe('GET and POST /retrieve/recommend', () => {
  it('recommends what similar users bought, through the collaborative channel', async () => {
    const res = await get(
      '/retrieve/recommend?target=Ann&exclude_seen=true&labels=PRODUCT&diversify=false',
      'shop',
    )
    expect(res.statusCode).toBe(200)
    const body = res.json() as { target_node: Wire; recommendations: Rec[] }
    expect(body.target_node.name).toBe('Ann')
    const names = body.recommendations.map((r) => r.node.name)
    expect(names[0]).toBe('Keyboard')
    expect(names).toContain('Monitor')
    for (const seen of ['Laptop', 'Mouse', 'Novel', 'Ann']) expect(names).not.toContain(seen)
    const keyboard = body.recommendations[0]!
    expect(keyboard.channel).toBe('collaborative')
    expect(keyboard.connected_by.map((e) => e.name)).toEqual(expect.arrayContaining(['Ben', 'Cat']))
    for (const r of body.recommendations) {
      expect(r.node.labels).toContain('PRODUCT')
      expect(typeof r.score).toBe('number')
    }
  })

  it('weighs behaviours: a purchase outranks a view until the request says otherwise', async () => {
    const options = {
      target: 'Ann',
      labels: ['PRODUCT'],
      include_multi_interest: false,
      diversify: false,
    }
    const order = (body: { recommendations: Rec[] }) =>
      body.recommendations
        .filter((r) => r.channel === 'asymmetric_outbound')
        .map((r) => r.node.name)
    const byDefault = await post('/retrieve/recommend', options, 'shop')
    expect(byDefault.statusCode).toBe(200)
    expect(order(byDefault.json())).toEqual(['Laptop', 'Mouse'])
    const views = await post(
      '/retrieve/recommend',
      { ...options, behavior_weights: { Viewed: 5 } },
      'shop',
    )
    expect(order(views.json())).toEqual(['Mouse', 'Laptop'])
  })

  it('walks inbound events to the buyers of an item', async () => {
    const res = await get(
      '/retrieve/recommend?target=Laptop&asymmetric_direction=inbound&labels=PERSON&include_multi_interest=false',
      'shop',
    )
    const recs = res.json().recommendations as Rec[]
    expect(recs.map((r) => r.node.name).sort()).toEqual(['Ann', 'Ben', 'Cat'])
    for (const r of recs) {
      expect(r.channel).toBe('asymmetric_inbound')
      expect(r.connected_by[0]!.labels).toContain('EVENT')
    }
  })

  it('scores preferred attributes when asked', async () => {
    const res = await get(
      '/retrieve/recommend?target=Ann&include_asymmetric=false&include_multi_interest=false&include_attribute_pref=true&exclude_seen=true&labels=PRODUCT&diversify=false',
      'shop',
    )
    const recs = res.json().recommendations as Rec[]
    expect(recs[0]!.node.name).toBe('Monitor')
    expect(recs[0]!.channel).toBe('attribute_pref')
    expect(recs[0]!.connected_by.map((e) => e.name)).toEqual(['Zen'])
  })

  it('caps at top_k, 404 for an unknown target, 422 out of bounds', async () => {
    const one = await get('/retrieve/recommend?target=Ann&top_k=1', 'shop')
    expect(one.json().recommendations).toHaveLength(1)
    expect((await get('/retrieve/recommend?target=nobody%20here', 'shop')).statusCode).toBe(404)
    expect((await get('/retrieve/recommend?target=Ann&top_k=201', 'shop')).statusCode).toBe(422)
    const bad = await post('/retrieve/recommend', { target: 'Ann', top_k: 0 }, 'shop')
    expect(bad.statusCode).toBe(422)
  })
})

describe('POST /retrieve/context', () => {
  it('packs event-centred facts with conflicts, bridges and every field present', async () => {
    const res = await post('/retrieve/context', {
      text: 'Where did Alice move to?',
      profile_stages: true,
    })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    for (const key of [
      'text_context',
      'triples',
      'graph_session_ids',
      'historical_context',
      'paths',
      'source_passages',
      'temporal_conflicts',
      'topics',
      'stage_timings',
    ])
      expect(body).toHaveProperty(key)
    // Every stage is timed, the last (reading the chosen records) too.
    const stages = (body.stage_timings as { stages: { stage: string }[] }).stages.map(
      (s) => s.stage,
    )
    expect(stages).toEqual(
      expect.arrayContaining(['context.seeds', 'context.rank', 'context.hydrate']),
    )
    const triples = body.triples as { identified_entity: string; triple: Wire[] }[]
    expect(triples.length).toBeGreaterThan(0)
    const first = triples[0]!.triple.map((x) => x.name)
    expect(first).toEqual(['Alice', 'MOVED_TO', 'Alice moved to Berlin', 'TARGETED', 'Berlin'])
    expect(body.text_context).toContain(
      'Actor: Alice | MOVED_TO | Event: Alice moved to Berlin @2020-01-01',
    )
    expect(body.temporal_conflicts).toEqual([
      expect.objectContaining({
        entity_name: 'Alice',
        predicate: 'MOVED_TO',
        object_name: 'Berlin',
        happened_ats: ['2020-01-01', '2021-06-01'],
      }),
    ])
    const paths = body.paths as { shared_entity_name: string; hubs: string[] }[]
    expect(paths.length).toBeGreaterThan(0)
    expect(['Alice', 'Berlin']).toContain(paths[0]!.shared_entity_name)
    expect(body.stage_timings.stages.length).toBeGreaterThan(0)
  })

  it('bounds max_facts and cites source passages of a text brain', async () => {
    const one = (await post('/retrieve/context', { text: 'Alice', max_facts: 1 })).json()
    expect(one.triples).toHaveLength(1)
    expect(one.stage_timings).toEqual({})
    const none = (await post('/retrieve/context', { text: 'Alice', max_facts: 0 })).json()
    expect(none.triples).toEqual([])

    const notes = (
      await post('/retrieve/context', { text: 'Who organized the AI Ethics Meetup?' }, 'notes')
    ).json()
    expect(notes.source_passages[0]).toContain('Emily organized the AI Ethics Meetup')
    expect(notes.historical_context.length).toBeGreaterThan(0)
    const cited = (notes.triples as { source_chunk_ids: string[] }[]).flatMap(
      (x) => x.source_chunk_ids,
    )
    expect(cited.length).toBeGreaterThan(0)
    expect(notes.text_context).toContain('[passage] Emily organized')
  })

  it('answers an empty brain with every field empty, and 422 out of bounds', async () => {
    const res = await post('/retrieve/context', { text: 'anything at all' }, 'empty')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      text_context: '',
      triples: [],
      graph_session_ids: [],
      historical_context: [],
      paths: [],
      source_passages: [],
      temporal_conflicts: [],
      topics: [],
      stage_timings: {},
    })
    expect((await post('/retrieve/context', { text: '' })).statusCode).toBe(422)
    expect((await post('/retrieve/context', { text: 'x', max_facts: 501 })).statusCode).toBe(422)
  })
})

describe('no 500 for any target', () => {
  const targets = [
    'Alice',
    'alice',
    'ALICE ',
    '%',
    "'; DROP TABLE x; --",
    'Ω≈ç√',
    'a'.repeat(512),
    '1',
    'EVENT',
  ]
  for (const brain of ['default', 'shop', 'empty']) {
    it(`synergies, recommend and context on ${brain}`, async () => {
      for (const target of targets) {
        const q = encodeURIComponent(target)
        for (const url of [
          `/retrieve/entity/synergies?target=${q}&pa=true&ppa=true`,
          `/retrieve/entity/synergies?target=${q}&do=true&polarity=opposite`,
          `/retrieve/recommend?target=${q}&include_attribute_pref=true&asymmetric_direction=both&dampen_degree=true&recency_half_life_days=0`,
        ]) {
          const res = await get(url, brain)
          expect([200, 404]).toContain(res.statusCode)
        }
        const posted = await post(
          '/retrieve/recommend',
          { target, exclude_seen: true, recency_half_life_days: 30, behavior_weights: { x: -1 } },
          brain,
        )
        expect([200, 404]).toContain(posted.statusCode)
        const context = await post('/retrieve/context', { text: target, use_ppr: false }, brain)
        expect(context.statusCode).toBe(200)
      }
    })
  }
})
