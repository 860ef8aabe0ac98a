import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hashingTestEmbedder } from '@engram/core/testing'
import { loadConfig, startServer, type RunningServer } from '@engram/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Issue 28 (docs/time.md) over REST: facts that stop being true, questions about the past. The real
 * server (`startServer`, as `engram serve` runs it) on memory storage with the local extractor and a
 * hashing embedder, so the test needs no model.
 */

const TOKEN = 'spat_time-test-token-0123456789'
const headers = { ServicePAT: TOKEN, 'content-type': 'application/json' }
const dir = mkdtempSync(join(tmpdir(), 'engram-time-'))
let server: RunningServer

interface Wire {
  uuid: string
  name: string
  valid_at?: string
  invalid_at?: string
  created_at?: string
  expired_at?: string
  deprecated?: boolean
  labels?: string[]
}
interface Triple {
  subject: Wire
  predicate: Wire
  object: Wire
}

async function call<T>(method: string, path: string, body?: unknown, status = 200): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(status)
  return (await res.json()) as T
}

async function ingest(text: string, sourceTimestamp: string): Promise<void> {
  const { task_id } = await call<{ task_id: string }>(
    'POST',
    '/ingest/',
    { text, source_timestamp: sourceTimestamp },
    202,
  )
  await server.engram.tasks.idle()
  expect((await call<{ status: string }>('GET', `/tasks/${task_id}`)).status).toBe('completed')
}

async function entity(name: string): Promise<Wire> {
  const { entities } = await call<{ entities: Wire[] }>(
    'GET',
    `/retrieve/entities?query_text=${encodeURIComponent(name)}&limit=100`,
  )
  const found = entities.find((e) => e.name === name)
  expect(found, name).toBeDefined()
  return found!
}

/** The objects of a person's facts (the targets of the events they are the subject of) at a time. */
async function factsOf(name: string, time = ''): Promise<string[]> {
  const person = await entity(name)
  const { neighbors } = await call<{ neighbors: { neighbor: Wire }[] }>(
    'GET',
    `/retrieve/entities/neighbors?uuid=${person.uuid}&limit=100${time}`,
  )
  return neighbors.map((n) => n.neighbor.name).sort()
}

/** The slot relationships (predicate edges from the person) with their windows, from the list. */
async function windowsOf(name: string): Promise<Triple[]> {
  const { relationships } = await call<{ relationships: Triple[] }>(
    'GET',
    `/retrieve/relationships?query_text=${encodeURIComponent(name)}&limit=100`,
  )
  return relationships.filter((t) => t.subject.name === name)
}

beforeAll(async () => {
  const config = loadConfig({
    ENGRAM_DATA_DIR: join(dir, 'data'),
    SERVICEPAT_TOKEN: TOKEN,
    STORAGE: 'memory',
    PORT: '0',
    HOST: '127.0.0.1',
    EMBEDDER: 'none',
    EXTRACTOR_WORKERS: '0',
    LOG_LEVEL: 'silent',
  })
  server = await startServer(config, () => {}, {
    embedder: Promise.resolve(hashingTestEmbedder(64)),
  })
  // Alice: the older fact first. Nora: the newer fact first (an out-of-order arrival).
  await ingest('Alice lives in Paris.', '2020-03-01T00:00:00Z')
  await ingest('Alice moved to Berlin in 2023.', '2023-06-01T00:00:00Z')
  await ingest('Nora moved to Lisbon in 2023.', '2023-06-01T00:00:00Z')
  await ingest('In 2019, Nora lived in Madrid.', '2024-02-01T00:00:00Z')
})

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('facts that stop being true (issue 28)', () => {
  it('a newer home ends the older one at the newer one’s valid time, in both arrival orders', async () => {
    for (const [name, old, newer, at] of [
      ['Alice', 'Paris', 'Berlin', '2023-01-01'],
      ['Nora', 'Madrid', 'Lisbon', '2023-01-01'],
    ] as const) {
      const events = await windowsOf(name)
      const oldFact = events.find((t) => t.object.name.endsWith(old))!
      const newFact = events.find((t) => t.object.name.endsWith(newer))!
      expect(oldFact.predicate.invalid_at?.slice(0, 10), name).toBe(at)
      expect(oldFact.predicate.deprecated).toBe(true)
      expect(oldFact.predicate.expired_at).toBeDefined()
      expect(newFact.predicate.invalid_at).toBeUndefined()
      expect(newFact.predicate.valid_at?.slice(0, 10)).toBe(at)
      expect(newFact.predicate.deprecated).toBe(false)
    }
  })

  it('as_of 2021 gives Paris, now gives Berlin (neighbours, search, context pack)', async () => {
    const in2021 = await factsOf('Alice', '&as_of=2021-06-01')
    expect(in2021.some((n) => n.includes('Paris'))).toBe(true)
    expect(in2021.some((n) => n.includes('Berlin'))).toBe(false)
    const now = await factsOf('Alice')
    expect(now.some((n) => n.includes('Berlin'))).toBe(true)
    expect(now.some((n) => n.includes('Paris'))).toBe(false)

    const search = (asOf?: string) =>
      call<{ hits: { snippet: string }[] }>('POST', '/retrieve/search', {
        query: 'Where does Alice live?',
        k: 5,
        ...(asOf ? { as_of: asOf } : {}),
      })
    const past = (await search('2021-06-01')).hits.map((h) => h.snippet)
    expect(past).toContain('Alice lives in Paris.')
    expect(past).not.toContain('Alice moved to Berlin in 2023.')
    const present = (await search(new Date().toISOString())).hits.map((h) => h.snippet)
    expect(present).toContain('Alice moved to Berlin in 2023.')
    expect(present).not.toContain('Alice lives in Paris.')

    const pack = await call<{
      temporal_conflicts: {
        kind: string
        entity_name: string
        object_name: string
        windows: { valid_at?: string; invalid_at?: string }[]
        superseded_by?: { object_name: string }
      }[]
    }>('POST', '/retrieve/context', { text: 'Where does Alice live now?' })
    const conflict = pack.temporal_conflicts.find(
      (c) => c.kind === 'superseded' && c.entity_name === 'Alice',
    )
    expect(conflict).toMatchObject({
      object_name: 'Paris',
      superseded_by: { object_name: 'Berlin' },
    })
    expect(conflict!.windows[0]!.invalid_at?.slice(0, 10)).toBe('2023-01-01')
    expect(conflict!.windows[1]!.invalid_at).toBeUndefined()
  })

  it('as_of on /retrieve/, hops and entity status', async () => {
    const text = (body: unknown) => JSON.stringify(body)
    const at = '&as_of=2021-06-01'
    const root = await call<unknown>('GET', `/retrieve/?text=Alice&preferred_entities=PERSON${at}`)
    expect(text(root)).toContain('Alice lives in Paris.')
    expect(text(root)).not.toContain('Berlin')
    // The city of Berlin may be a seed (it existed in 2021); the fact that Alice moved there may not.
    const hops = await call<unknown>('GET', `/retrieve/hops?query=Alice&degrees=2${at}`)
    expect(text(hops)).toContain('Alice lives Paris')
    expect(text(hops)).not.toContain('Alice moved Berlin')
    const status = await call<unknown>('GET', `/retrieve/entity/status?target=Alice${at}`)
    expect(text(status)).toContain('Alice lives Paris')
    expect(text(status)).not.toContain('Alice moved Berlin')
    const now = await call<unknown>('GET', '/retrieve/entity/status?target=Alice')
    expect(text(now)).toContain('Alice moved Berlin')
    expect(text(now)).not.toContain('Alice lives Paris')
  })

  it('every invalidation is a changelog entry', async () => {
    const { changelogs } = await call<{
      changelogs: { type: string; change: { subject: { name: string } } }[]
    }>('GET', '/retrieve/changelogs?types=relationship_invalidated&limit=100')
    const subjects = changelogs.map((c) => c.change.subject.name)
    expect(subjects).toContain('Alice')
    expect(subjects).toContain('Nora')
  })

  it('a person who changes employer twice', async () => {
    await ingest('Bob works for Acme.', '2019-01-10T00:00:00Z')
    await ingest('Bob joined Initech in 2021.', '2021-04-01T00:00:00Z')
    await ingest('In 2024 Bob joined Globex.', '2024-05-01T00:00:00Z')
    const facts = await windowsOf('Bob')
    const window = (org: string) => facts.find((t) => t.object.name.endsWith(org))!.predicate
    expect(window('Acme').invalid_at?.slice(0, 10)).toBe('2021-01-01')
    expect(window('Initech').invalid_at?.slice(0, 10)).toBe('2024-01-01')
    expect(window('Globex').invalid_at).toBeUndefined()
    const in2022 = await factsOf('Bob', '&as_of=2022-06-01')
    expect(in2022).toContain('Bob joined Initech')
    expect(in2022.filter((n) => /Acme|Globex/.test(n))).toEqual([])
  })

  it('a statement about the future ends nothing', async () => {
    await ingest('Alice will move to Rome next year.', '2024-01-01T00:00:00Z')
    const facts = await windowsOf('Alice')
    const berlin = facts.find((t) => t.object.name.endsWith('Berlin'))!.predicate
    expect(berlin.invalid_at).toBeUndefined()
    const rome = facts.find((t) => t.object.name.endsWith('Rome'))!.predicate
    expect(rome.valid_at?.slice(0, 4)).toBe('2025')
    expect(rome.invalid_at).toBeUndefined()
  })

  it('known_at before an ingestion does not see it', async () => {
    const before = new Date().toISOString()
    await new Promise((resolve) => setTimeout(resolve, 5))
    await ingest('Carol adopted a parrot called Kiwi.', '2024-03-01T00:00:00Z')
    const search = (knownAt?: string) =>
      call<{ hits: { snippet: string }[] }>('POST', '/retrieve/search', {
        query: 'parrot Kiwi',
        k: 5,
        ...(knownAt ? { known_at: knownAt } : {}),
      })
    expect((await search()).hits.map((h) => h.snippet)).toContain(
      'Carol adopted a parrot called Kiwi.',
    )
    expect((await search(before)).hits.map((h) => h.snippet)).not.toContain(
      'Carol adopted a parrot called Kiwi.',
    )
    const entities = await call<{ hits: { snippet: string }[] }>('POST', '/retrieve/search', {
      query: 'Kiwi',
      channels: ['entities', 'events'],
      known_at: before,
    })
    expect(entities.hits.map((h) => h.snippet).join(' ')).not.toContain('Kiwi')
  })

  it('PUT /model/relationship corrects a window: an end, then a reopening', async () => {
    const globex = (await windowsOf('Bob')).find((t) => t.object.name.endsWith('Globex'))!
    const ended = await call<Wire>('PUT', '/model/relationship', {
      uuid: globex.predicate.uuid,
      invalid_at: '2025-02-01T00:00:00Z',
    })
    expect(ended).toMatchObject({ invalid_at: '2025-02-01T00:00:00.000Z', deprecated: true })
    expect(ended.expired_at).toBeDefined()
    expect((await factsOf('Bob', '&as_of=2024-06-01')).some((n) => n.includes('Globex'))).toBe(true)
    expect((await factsOf('Bob')).some((n) => n.includes('Globex'))).toBe(false)
    const { changelogs } = await call<{
      changelogs: { change: { predicate: { uuid: string } } }[]
    }>('GET', '/retrieve/changelogs?types=relationship_invalidated&limit=100')
    expect(changelogs.map((c) => c.change.predicate.uuid)).toContain(globex.predicate.uuid)
    const reopened = await call<Wire>('PUT', '/model/relationship', {
      uuid: globex.predicate.uuid,
      invalid_at: null,
    })
    expect(reopened).toMatchObject({ deprecated: false })
    expect(reopened.invalid_at).toBeUndefined()
    expect(reopened.expired_at).toBeUndefined()
    expect((await factsOf('Bob')).some((n) => n.includes('Globex'))).toBe(true)
  })

  it('a brain extends the single-valued predicates through its settings', async () => {
    const path = '/system/brains/default/settings'
    const set = await call<{ temporal: { single_valued_predicates: Record<string, string[]> } }>(
      'PUT',
      path,
      { temporal: { single_valued_predicates: { team: ['play'] } } },
    )
    expect(set.temporal.single_valued_predicates).toMatchObject({
      team: ['PLAY'],
      residence: expect.arrayContaining(['LIVE']),
    })
    await ingest('Dan plays for Leeds.', '2022-08-01T00:00:00Z')
    await ingest('Dan plays for York in 2024.', '2024-08-01T00:00:00Z')
    const leeds = (await windowsOf('Dan')).find((t) => t.object.name.endsWith('Leeds'))!
    expect(leeds.predicate.invalid_at?.slice(0, 10)).toBe('2024-01-01')
    const bad = await call<{ error: { code: string } }>(
      'PUT',
      path,
      { temporal: { single_valued_predicates: { 'Bad Slot': ['X'] } } },
      400,
    )
    expect(bad.error.code).toBe('VALIDATION_ERROR')
  })

  it('a bad as_of is a 422 in the contract envelope', async () => {
    const res = await fetch(`${server.url}/retrieve/search?query=x&as_of=yesterday`, { headers })
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } })
  })
})
