import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'
import { createResponseCheck } from '../support/openapi-response-check.js'

/**
 * Issue 11 items 11 and 12, and the two "unset" records of item 9: `/retrieve/hops` gives full Entity
 * and Relationship records in both forms, `/retrieve/entity/info` gives an empty path when nothing
 * matches, a neighbour's `most_common` is always an Entity, and `entity/status` leaves `node` out for
 * a missing target.
 */
let server: ListeningApp
let check: ReturnType<typeof createResponseCheck>

const ENTITY_KEYS = [
  'description',
  'happened_at',
  'labels',
  'last_updated',
  'metadata',
  'name',
  'observations',
  'polarity',
  'properties',
  'uuid',
]
const RELATIONSHIP_KEYS = [
  'deprecated',
  'description',
  'direction',
  'flow_key',
  'last_updated',
  'level',
  'name',
  'observations',
  'properties',
  'uuid',
]
type Wire = Record<string, unknown>
/** A fact's window (docs/time.md): each field is there only when set, always an ISO date-time. */
const WINDOW = new Set(['valid_at', 'invalid_at', 'created_at', 'expired_at'])
/** The keys of a record besides its window, whose fields are checked to be date-times. */
const keys = (record: unknown) => {
  for (const [key, value] of Object.entries(record as Wire))
    if (WINDOW.has(key)) expect(Number.isFinite(Date.parse(value as string)), key).toBe(true)
  return Object.keys(record as Wire)
    .filter((key) => !WINDOW.has(key))
    .sort()
}

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}${path}`, { headers: { ServicePAT: SYSTEM_TOKEN } })
  return { status: res.status, body: (await res.json()) as unknown }
}
async function post(path: string, body: unknown): Promise<Wire> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { ServicePAT: SYSTEM_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status, path).toBeLessThan(300)
  return (await res.json()) as Wire
}

const edge = (subject: string, predicate: string, object: string, type = 'company') => ({
  subject: { name: subject, type: 'person' },
  subj_event: { name: predicate },
  object: { name: object, type },
})

beforeAll(async () => {
  server = await listeningApp({ storage: 'memory' })
  check = createResponseCheck((await get('/openapi.json')).body as never)
  await post('/ingest/structured', {
    data: [
      edge('Alice', 'works at', 'Acme'),
      edge('Bob', 'works at', 'Acme'),
      edge('Alice', 'lives in', 'Berlin', 'city'),
      edge('Bob', 'lives in', 'Berlin', 'city'),
    ],
  })
  await server.engram.tasks.idle()
})
afterAll(async () => {
  await server?.close()
})

describe('GET /retrieve/hops', () => {
  it('gives full Entity and Relationship records in the flattened (default) form', async () => {
    const res = await get('/retrieve/hops?query=Acme&degrees=2')
    expect(res.status).toBe(200)
    expect(check.check('retrieve_hops', res.status, res.body)).toEqual([])
    const [[seed, hops]] = res.body as [Wire, [Wire, Wire, [Wire, Wire][]][]][]
    expect(seed!.name).toBe('Acme')
    expect(keys(seed)).toEqual(ENTITY_KEYS)
    expect(hops.map((h) => h[1].name).sort()).toEqual(['Alice', 'Bob'])
    // Berlin, at the second degree, hangs under Alice or Bob (each node appears once per seed).
    expect(hops.flatMap((h) => h[2]).map(([, n]) => n.name)).toEqual(['Berlin'])
    for (const [predicate, node, next] of hops) {
      expect(keys(predicate)).toEqual(RELATIONSHIP_KEYS)
      expect(keys(node)).toEqual(ENTITY_KEYS)
      // Acme is the object of WORKS_AT: the walk goes against the edge.
      expect(predicate).toMatchObject({ name: 'WORKS_AT', direction: 'in' })
      for (const [p2, n2] of next) {
        expect(keys(p2)).toEqual(RELATIONSHIP_KEYS)
        expect(keys(n2)).toEqual(ENTITY_KEYS)
      }
    }
  })

  it('keeps the nested form: the same nesting, relationships as stored', async () => {
    const res = await get('/retrieve/hops?query=Acme&degrees=2&flattened=false')
    expect(check.check('retrieve_hops', res.status, res.body)).toEqual([])
    const [[seed, hops]] = res.body as [Wire, [Wire, Wire, [Wire, Wire][]][]][]
    expect(keys(seed)).toEqual(ENTITY_KEYS)
    const relationships = (await get('/retrieve/relationships?relationship_types=WORKS_AT'))
      .body as { relationships: { predicate: Wire }[] }
    const stored = new Map(relationships.relationships.map((r) => [r.predicate.uuid, r.predicate]))
    for (const hop of hops) {
      expect(hop).toHaveLength(3)
      expect(hop[0]).toEqual(stored.get(hop[0].uuid as string))
      for (const inner of hop[2]) expect(inner).toHaveLength(2)
    }
  })
})

describe('GET /retrieve/entity/info', () => {
  it('answers an empty path when nothing matches, and well-formed steps when one does', async () => {
    const none = await get('/retrieve/entity/info?target=Alice&query=zebra')
    expect(none.status).toBe(200)
    expect(check.check('retrieve_entity_info', none.status, none.body)).toEqual([])
    expect((none.body as { path: Wire }).path).toMatchObject({
      similarity: 0,
      path: [],
      children: [],
      target_node: { name: 'Alice' },
    })
    const work = await get('/retrieve/entity/info?target=Alice&query=where%20does%20she%20work')
    expect(check.check('retrieve_entity_info', work.status, work.body)).toEqual([])
    const path = (work.body as { path: { path: Wire[] } }).path.path
    expect(path.map((x) => x.name)).toEqual(['WORKS_AT', 'Acme'])
    expect(keys(path[0])).toEqual(RELATIONSHIP_KEYS)
    expect(keys(path[1])).toEqual(ENTITY_KEYS)
  })
})

describe('unset records', () => {
  it('most_common is the main node for a direct neighbour that shares no node', async () => {
    const [widget] = (await post('/model/entity', { name: 'Widget' })) as unknown as Wire[]
    const [maker] = (await post('/model/entity', { name: 'Maker' })) as unknown as Wire[]
    await post('/model/relationship', {
      subject_uuid: widget!.uuid,
      object_uuid: maker!.uuid,
      predicate_name: 'made by',
      predicate_description: '',
    })
    const res = await get(`/retrieve/entities/neighbors?uuid=${widget!.uuid as string}`)
    expect(check.check('retrieve_neighbors_get', res.status, res.body)).toEqual([])
    const body = res.body as { neighbors: { neighbor: Wire; most_common: Wire }[] }
    expect(body.neighbors).toHaveLength(1)
    expect(body.neighbors[0]!.neighbor.name).toBe('Maker')
    expect(body.neighbors[0]!.most_common.uuid).toBe(widget!.uuid)
    // A shared node is still preferred: Bob and Alice share Acme and Berlin.
    const alice = (await get('/retrieve/entity/status?target=Alice')).body as { node: Wire }
    const shared = (await get(`/retrieve/entities/neighbors?uuid=${alice.node.uuid as string}`))
      .body as { neighbors: { neighbor: Wire; most_common: Wire }[] }
    const bob = shared.neighbors.find((n) => n.neighbor.name === 'Bob')!
    expect(['Acme', 'Berlin']).toContain(bob.most_common.name)
  })

  it('entity/status leaves node out for a missing target', async () => {
    const res = await get('/retrieve/entity/status?target=nobody-here')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      exists: false,
      has_relationships: false,
      observations: [],
      relationships: [],
    })
  })
})
