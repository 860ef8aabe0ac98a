import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

/**
 * A fixture brain written through `/ingest/structured` (deterministic mode): Alice and Bob work at
 * Acme and live in Berlin, Alice and Bob are friends, Carol works at Globex (in Paris) and lives in
 * Berlin, Dave lives in Paris, and Alice attended the Robotics Summit 2024 held in Berlin.
 */
const person = (name: string) => ({ name, type: 'person' })
const acme = { name: 'Acme', type: 'company', description: 'robotics company' }
const globex = { name: 'Globex', type: 'company', description: 'energy company' }
const city = (name: string) => ({ name, type: 'city' })
const edge = (subject: object, predicate: string, object: object) => ({
  subject,
  subj_event: { name: predicate },
  object,
})
const ITEMS = [
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
]

let t: TestApp
const headers = (brain = 'default') => ({ ...t.system, 'X-Brain-ID': brain })
const get = (url: string, brain?: string) =>
  t.app.inject({ method: 'GET', url, headers: headers(brain) })
const post = (url: string, payload: object, brain?: string) =>
  t.app.inject({ method: 'POST', url, headers: headers(brain), payload })
const uuidOf = async (name: string) =>
  (await get(`/retrieve/entity/status?target=${encodeURIComponent(name)}`)).json().node
    .uuid as string

beforeAll(async () => {
  t = await buildTestApp()
  for (const brain of ['notes', 'empty']) {
    await t.app.inject({
      method: 'POST',
      url: '/system/brains',
      headers: t.system,
      payload: { brain_id: brain },
    })
  }
  const structured = await post('/ingest/structured', { data: ITEMS })
  expect(structured.statusCode).toBe(202)
  const text = await post(
    '/ingest/',
    {
      text: 'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
      source_timestamp: '2024-04-01T00:00:00Z',
    },
    'notes',
  )
  expect(text.statusCode).toBe(202)
  await t.engram.tasks.idle()
  for (const [id, brain] of [
    [structured.json().task_id, 'default'],
    [text.json().task_id, 'notes'],
  ]) {
    expect((await get(`/tasks/${id}`, brain)).json().status).toBe('completed')
  }
})
afterAll(async () => {
  await t.close()
})

type Wire = Record<string, unknown> & { name: string; uuid: string; labels: string[] }

describe('GET /retrieve/entities/neighbors', () => {
  it('ranks neighbours with a real similarity score and explains most_common', async () => {
    const alice = await uuidOf('Alice')
    const res = await get(`/retrieve/entities/neighbors?uuid=${alice}&limit=100`)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.main_node).toMatchObject({ uuid: alice, name: 'Alice', observations: [] })
    const neighbors = body.neighbors as {
      neighbor: Wire
      most_common: Wire
      relationship: Wire
      similarity_score: number
    }[]
    expect(body.count).toBe(neighbors.length)
    expect(neighbors[0]!.neighbor.name).toBe('Bob')
    expect(neighbors[0]!.relationship.name).toBe('FRIEND_OF')
    expect(neighbors[0]!.most_common.name).toBe('Acme')
    expect(neighbors[0]!.similarity_score).toBeCloseTo(4 / Math.sqrt(20))
    const carol = neighbors.find((n) => n.neighbor.name === 'Carol')!
    expect(carol.most_common.name).toBe('Berlin')
    expect(carol.relationship.name).toBe('LIVES_IN')
    for (const n of neighbors) {
      expect(n.similarity_score).toBeGreaterThanOrEqual(0)
      expect(n.similarity_score).toBeLessThanOrEqual(1)
      expect(Object.keys(n.relationship)).toContain('flow_key')
    }
    const filtered = await get(`/retrieve/entities/neighbors?uuid=${alice}&look_for=company`)
    expect(filtered.json().neighbors.map((n: { neighbor: Wire }) => n.neighbor.name)).toEqual([
      'Acme',
    ])
  })

  it('404 for an unknown uuid', async () => {
    const res = await get('/retrieve/entities/neighbors?uuid=nope')
    expect(res.statusCode).toBe(404)
    expect(envelope(res.body).error.code).toBe('RESOURCE_NOT_FOUND')
  })
})

describe('POST /retrieve/entities/neighbors and ai-mode', () => {
  it('identifies by name and entity types', async () => {
    const res = await post('/retrieve/entities/neighbors', {
      identification_params: { name: 'alice', entity_types: ['PERSON'] },
      limit: 3,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().main_node.name).toBe('Alice')
    expect(res.json().neighbors).toHaveLength(3)
    const wrongType = await post('/retrieve/entities/neighbors', {
      identification_params: { name: 'alice', entity_types: ['COMPANY'] },
    })
    expect(wrongType.statusCode).toBe(404)
    const noName = await post('/retrieve/entities/neighbors', { identification_params: {} })
    expect(noName.statusCode).toBe(422)
  })

  it('ai-mode keeps the neighbours matching a looking_for phrase, best first', async () => {
    const res = await post('/retrieve/entities/neighbors/ai-mode', {
      identification_params: { name: 'Alice' },
      looking_for: ['city', 'robotics'],
    })
    expect(res.statusCode).toBe(200)
    const names = res.json().neighbors.map((n: { neighbor: Wire }) => n.neighbor.name)
    expect(names[0]).toBe('Berlin')
    expect(new Set(names)).toEqual(new Set(['Berlin', 'Acme', 'Robotics Summit 2024']))
  })
})

describe('GET /retrieve/entity/context', () => {
  it('returns a depth-limited, cycle-free neighbourhood with its web and texts', async () => {
    const res = await get('/retrieve/entity/context?target=Alice&context_depth=2')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.target_node.name).toBe('Alice')
    type Branch = { predicate: Wire; node: Wire; direction: string; neighbors: Branch[] }
    const top = body.neighborhood as Branch[]
    expect(top.map((b) => b.node.name).sort()).toEqual([
      'Acme',
      'Berlin',
      'Bob',
      'Robotics Summit 2024',
    ])
    const seen: string[] = []
    const walk = (bs: Branch[], depth: number) => {
      for (const b of bs) {
        expect(depth).toBeLessThanOrEqual(2)
        seen.push(b.node.uuid)
        walk(b.neighbors, depth + 1)
      }
    }
    walk(top, 1)
    expect(new Set(seen).size).toBe(seen.length)
    expect(top.find((b) => b.node.name === 'Berlin')!.neighbors.map((b) => b.node.name)).toEqual([
      'Carol',
    ])
    expect(body.text_contexts).toContain('robotics company')
    expect(body.natural_language_web).toContainEqual(
      expect.objectContaining({
        information_direction: 'outgoing',
        WORKS_AT: { Acme: 'robotics company', info: [] },
      }),
    )
    expect((await get('/retrieve/entity/context?target=nobody-here')).statusCode).toBe(404)
  })
})

describe('GET /retrieve/entity/info', () => {
  it('returns the best matching path, two hops when the query needs them', async () => {
    const res = await get(
      `/retrieve/entity/info?target=Alice&query=${encodeURIComponent('which city hosted the summit Alice attended')}`,
    )
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.target_node.name).toBe('Alice')
    expect(body.path.target_node.name).toBe('Berlin')
    expect(body.path.path.map((x: Wire) => x.name)).toEqual([
      'ATTENDED',
      'Robotics Summit 2024',
      'HELD_IN',
      'Berlin',
    ])
    expect(body.path.similarity).toBeGreaterThan(0)
    const work = (
      await get('/retrieve/entity/info?target=Alice&query=where%20does%20she%20work')
    ).json()
    expect(work.path.path.map((x: Wire) => x.name)).toEqual(['WORKS_AT', 'Acme'])
    const none = (await get('/retrieve/entity/info?target=Alice&query=zebra')).json()
    expect(none.path).toMatchObject({
      similarity: 0,
      children: [],
      path: [],
      target_node: { name: 'Alice' },
    })
    expect((await get('/retrieve/entity/info?target=nobody-here&query=x')).statusCode).toBe(404)
  })
})

describe('GET /retrieve/entity/status', () => {
  it('reports an entity, its relationships, and exists:false for unknown targets', async () => {
    const res = await get('/retrieve/entity/status?target=Alice&types=person')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toMatchObject({ exists: true, has_relationships: true, node: { name: 'Alice' } })
    expect(body.relationships).toHaveLength(4)
    for (const [r, e] of body.relationships as [Wire, Wire][]) {
      expect(r).toHaveProperty('flow_key')
      expect(e).toHaveProperty('labels')
    }
    expect((await get('/retrieve/entity/status?target=Alice&types=city')).json().exists).toBe(false)
    expect(
      (await get('/retrieve/entity/status?target=Alice&types=city&types=person')).json().exists,
    ).toBe(true)
    const unknown = await get('/retrieve/entity/status?target=nobody-here')
    expect(unknown.statusCode).toBe(200)
    expect(unknown.json()).toEqual({
      exists: false,
      has_relationships: false,
      observations: [],
      relationships: [],
    })
  })
})

describe('GET /retrieve/hops', () => {
  it('returns flattened and full nested shapes for 1..3 degrees', async () => {
    const one = (await get('/retrieve/hops?query=Acme&degrees=1')).json()
    expect(one).toHaveLength(1)
    const [seed, hops] = one[0]
    expect(seed).toMatchObject({ uuid: expect.any(String), labels: ['COMPANY'], name: 'Acme' })
    expect(hops).toHaveLength(2)
    for (const hop of hops) {
      expect(hop).toHaveLength(2)
      expect(hop[0]).toMatchObject({ uuid: expect.any(String), name: 'WORKS_AT', direction: 'in' })
      expect(hop[1]).toMatchObject({ labels: ['PERSON'], observations: [] })
    }
    const two = (await get('/retrieve/hops?query=Acme')).json()
    for (const hop of two[0][1]) {
      expect(hop).toHaveLength(3)
      for (const inner of hop[2]) expect(inner).toHaveLength(2)
    }
    const full = (await get('/retrieve/hops?query=Acme&degrees=3&flattened=false')).json()
    expect(full[0][0]).toMatchObject({ name: 'Acme', observations: [] })
    expect(full[0][1][0][0]).toHaveProperty('flow_key')
    expect(full[0][1][0][2][0]).toHaveLength(3)
    expect((await get('/retrieve/hops?query=qqqqzzzz')).json()).toEqual([])
    expect((await get('/retrieve/hops?query=Acme&degrees=4')).statusCode).toBe(422)
  })
})

describe('GET /retrieve/', () => {
  it('returns passages, their observations and relationships with preferred labels first', async () => {
    const res = await get('/retrieve/?text=Emily%20meetup&preferred_entities=PLACE', 'notes')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.data).toHaveLength(1)
    expect(body.data[0].text).toContain('Emily')
    expect(body.data[0]).toHaveProperty('brain_version')
    expect(body.observations.length).toBeGreaterThan(0)
    // The extractor attaches observations to entities and cites the passage they came from.
    expect(body.observations[0].metadata.passage_ids).toContain(body.data[0].id)
    const relationships = body.relationships as { subject: Wire; predicate: Wire; object: Wire }[]
    expect(relationships.length).toBeGreaterThan(0)
    expect([...relationships[0]!.subject.labels, ...relationships[0]!.object.labels]).toContain(
      'PLACE',
    )
    const plain = (await get('/retrieve/?text=Acme&preferred_entities=')).json()
    expect(plain.data).toEqual([])
    expect(plain.relationships.length).toBeGreaterThan(0)
  })
})

describe('an empty brain and any input', () => {
  it('answers 200 or 404 on the empty brain, never 5xx', async () => {
    const cases: [string, string, object?][] = [
      ['GET', '/retrieve/?text=x&preferred_entities='],
      ['GET', '/retrieve/entities/neighbors?uuid=x'],
      ['POST', '/retrieve/entities/neighbors', { identification_params: { name: 'x' } }],
      [
        'POST',
        '/retrieve/entities/neighbors/ai-mode',
        { identification_params: { name: 'x' }, looking_for: ['y'] },
      ],
      ['GET', '/retrieve/entity/context?target=x'],
      ['GET', '/retrieve/entity/info?target=x&query=y'],
      ['GET', '/retrieve/entity/status?target=x'],
      ['GET', '/retrieve/hops?query=x'],
    ]
    for (const [method, url, payload] of cases) {
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: headers('empty'),
        ...(payload ? { payload } : {}),
      })
      expect([200, 404], `${method} ${url}: ${res.body}`).toContain(res.statusCode)
    }
    expect((await get('/retrieve/?text=x&preferred_entities=', 'empty')).json()).toEqual({
      data: [],
      observations: [],
      relationships: [],
    })
    expect((await get('/retrieve/hops?query=x', 'empty')).json()).toEqual([])
  })

  it('fuzz: any target string, depth and limit within bounds never answers 5xx', async () => {
    let seed = 5
    const rand = () => {
      // mulberry32, so a failing case can be replayed
      seed = (seed + 0x6d2b79f5) >>> 0
      let x = seed
      x = Math.imul(x ^ (x >>> 15), x | 1)
      x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296
    }
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
    const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1))
    const alice = await uuidOf('Alice')
    const strings = [
      'Alice',
      'alice ',
      alice,
      'Robotics Summit 2024',
      'robotics',
      'the',
      '💥'.repeat(100),
      'a'.repeat(512),
      "' OR 1=1 --",
      '%',
      '*',
      '.*',
      '(',
      '\\',
      '__proto__',
      'constructor',
      'null',
      '0',
      '-',
      ',',
      ' ',
      '\u0000',
      'Ａｌｉｃｅ',
      'Berlin Paris Acme Globex',
    ]
    for (let i = 0; i < 300; i++) {
      const s = encodeURIComponent(pick(strings))
      const brain = pick(['default', 'empty', 'notes'])
      const [method, url, payload] = pick<[string, string, object?]>([
        ['GET', `/retrieve/?text=${s}&preferred_entities=${s}&limit=${int(1, 100)}`],
        ['GET', `/retrieve/entities/neighbors?uuid=${s}&limit=${int(1, 100)}&look_for=${s}`],
        [
          'POST',
          '/retrieve/entities/neighbors',
          {
            identification_params: { name: decodeURIComponent(s), entity_types: [pick(strings)] },
            limit: int(1, 100),
            look_for: pick(strings),
          },
        ],
        [
          'POST',
          '/retrieve/entities/neighbors/ai-mode',
          {
            identification_params: { name: decodeURIComponent(s) },
            looking_for: [pick(strings), pick(strings)],
            limit: int(1, 100),
          },
        ],
        ['GET', `/retrieve/entity/context?target=${s}&context_depth=${int(1, 5)}`],
        ['GET', `/retrieve/entity/info?target=${s}&query=${s}&max_depth=${int(1, 5)}`],
        ['GET', `/retrieve/entity/status?target=${s}&types=${s}`],
        [
          'GET',
          `/retrieve/hops?query=${s}&degrees=${int(1, 3)}&flattened=${pick(['true', 'false'])}`,
        ],
      ])
      const res = await t.app.inject({
        method: method as 'GET',
        url,
        headers: headers(brain),
        ...(payload ? { payload } : {}),
      })
      expect(
        res.statusCode,
        `#${i} ${brain} ${method} ${url} -> ${res.body.slice(0, 300)}`,
      ).toBeLessThan(500)
      expect([200, 404, 422]).toContain(res.statusCode)
    }
  })
})
