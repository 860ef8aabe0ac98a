import { request, type IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { createEngine, hashToken, memoryAdapter, type Engram } from '@engram/core'
import { buildApp } from '../app.js'
import { SYSTEM_TOKEN } from '../../test/support/test-app.js'
import { sseSubscriber, type SseSubscriber } from '../../test/support/sse-subscriber.js'
import type { ChangelogStreamOptions } from './changelog-stream-routes.js'

interface Served {
  app: FastifyInstance
  engram: Engram
  url: string
  closed: boolean
}

const open: Served[] = []
const subscribers: SseSubscriber[] = []
afterEach(async () => {
  for (const s of subscribers.splice(0)) s.close()
  for (const s of open.splice(0)) {
    if (!s.closed) await s.app.close()
    await s.engram.stop({ graceMs: 100 })
  }
})

/** The app over an in-memory engine (default extractor, no embedder), on a real socket. */
async function serve(options: ChangelogStreamOptions = {}): Promise<Served> {
  const engram = createEngine({
    storage: memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(SYSTEM_TOKEN),
  })
  await engram.start()
  const app = await buildApp({ engram, changelogStream: options })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const served = { app, engram, url, closed: false }
  open.push(served)
  return served
}

const system = { ServicePAT: SYSTEM_TOKEN }

async function subscribe(s: Served, query = '', headers: Record<string, string> = system) {
  const subscriber = await sseSubscriber(`${s.url}/retrieve/changelogs/stream${query}`, headers)
  subscribers.push(subscriber)
  return subscriber
}

async function call(s: Served, method: string, path: string, body?: unknown, headers = system) {
  const res = await s.app.inject({
    method: method as 'GET',
    url: path,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  })
  return { status: res.statusCode, body: res.json() }
}

/** The brain's changelog as `GET /retrieve/changelogs` lists it, oldest first. */
async function changelog(s: Served, headers = system) {
  const page = await call(s, 'GET', '/retrieve/changelogs?limit=1000', undefined, headers)
  return (page.body.changelogs as { id: string; type: string }[]).reverse()
}

async function relate(s: Served, subject: string, object: string) {
  const res = await call(s, 'POST', '/model/relationship', {
    subject_uuid: subject,
    object_uuid: object,
    predicate_name: 'KNOWS',
    predicate_description: '',
  })
  expect(res.status).toBe(201)
}

async function createEntity(s: Served, name: string, headers = system) {
  const res = await call(s, 'POST', '/model/entity', { name, labels: ['PERSON'] }, headers)
  expect(res.status).toBe(201)
  return res.body[0] as { uuid: string }
}

const parsed = (sub: SseSubscriber) => sub.events.map((e) => JSON.parse(e.data) as { id: string })

describe('GET /retrieve/changelogs/stream', () => {
  it('streams an ingestion and a /model/entity write in order, as the list route shows them', async () => {
    const s = await serve()
    await createEntity(s, 'Before') // written before the subscription: not sent
    const sub = await subscribe(s)
    expect(sub.status).toBe(200)
    expect(sub.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(sub.headers['cache-control']).toBe('no-cache, no-transform')
    expect(sub.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const ingest = await call(s, 'POST', '/ingest/', {
      text: 'Emily organized the AI Ethics Meetup in London on March 8, 2024.',
    })
    expect(ingest.status).toBe(202)
    await s.engram.tasks.idle()
    const entity = await createEntity(s, 'Zed')
    await sub.until(() => parsed(sub).some((e) => JSON.stringify(e).includes(entity.uuid)))

    const all = await changelog(s)
    expect(all.length).toBeGreaterThan(3)
    // Everything after the first entry, in seq order, each once, with the list route's wire form.
    expect(parsed(sub)).toEqual(all.slice(1))
    expect(sub.events.map((e) => e.event)).toEqual(all.slice(1).map((e) => e.type))
    expect(sub.events.map((e) => Number(e.id))).toEqual(all.slice(1).map((_, i) => i + 2))
    expect(sub.retry).toBe(3000)
  })

  it('streams a forget after its ingestion, in order, and resumes across it without a gap', async () => {
    const s = await serve()
    const sub = await subscribe(s)
    const ingest = await call(s, 'POST', '/ingest/', {
      text: 'Emily organized the AI Ethics Meetup in London.',
      source_id: 'notes/emily.md',
    })
    expect(ingest.status).toBe(202)
    await s.engram.tasks.idle()
    const ingested = (await changelog(s)).length
    await sub.until(() => sub.events.length === ingested)
    sub.close()
    const forget = await call(s, 'DELETE', '/sources/notes%2Femily.md')
    expect(forget.status).toBe(202)
    await s.engram.tasks.idle()
    const resumed = await subscribe(s, '', { ...system, 'Last-Event-ID': sub.lastEventId })
    await resumed.until(() => resumed.events.some((e) => e.event === 'source_forgotten'))
    const types = [...sub.events, ...resumed.events].map((e) => e.event)
    expect(types.slice(0, ingested)).toContain('node_created')
    expect(types.indexOf('source_forgotten')).toBeGreaterThan(types.lastIndexOf('node_created'))
    const ids = [...sub.events, ...resumed.events].map((e) => Number(e.id))
    expect(ids).toEqual(ids.map((_, i) => i + 1))
  })

  it('resumes after a disconnect with Last-Event-ID: no gap, no repeat; `after=0` replays all', async () => {
    const s = await serve()
    const first = await subscribe(s, '?after=0')
    await createEntity(s, 'Ada')
    await createEntity(s, 'Bob')
    await first.until(() => first.events.length === 2)
    first.close()
    await createEntity(s, 'Cy')
    await createEntity(s, 'Di')
    const last = first.events.at(-1)!.id!
    // The header wins over `after`.
    const second = await subscribe(s, '?after=0', { ...system, 'Last-Event-ID': last })
    await createEntity(s, 'Ed')
    await second.until(() => second.events.length === 3)
    const seen = [...first.events, ...second.events]
    expect(seen.map((e) => Number(e.id))).toEqual([1, 2, 3, 4, 5])
    expect([...parsed(first), ...parsed(second)]).toEqual(await changelog(s))

    // Dropped before any entry: the stream's first `id:` (its start) resumes it without a gap.
    const early = await subscribe(s)
    await early.until(() => early.lastEventId === '5')
    expect(early.events).toEqual([])
    early.close()
    await createEntity(s, 'Fay')
    const resumed = await subscribe(s, '', { ...system, 'Last-Event-ID': early.lastEventId })
    await resumed.until(() => resumed.events.length === 1)
    expect(resumed.events[0]!.id).toBe('6')

    const replay = await subscribe(s, '?after=0')
    await replay.until(() => replay.events.length === 6)
    expect(replay.events.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5', '6'])
  })

  it('sends only the entries of `types`, and resumes past the skipped ones', async () => {
    const s = await serve()
    const a = await createEntity(s, 'Ada')
    const b = await createEntity(s, 'Bob')
    await relate(s, a.uuid, b.uuid)
    await createEntity(s, 'Cy')
    const sub = await subscribe(s, '?after=0&types=relationship_created')
    await sub.until(() => sub.events.length === 1)
    expect(sub.events[0]).toMatchObject({ event: 'relationship_created', id: '3' })
    await createEntity(s, 'Di')
    await relate(s, b.uuid, a.uuid)
    await sub.until(() => sub.events.length === 2)
    expect(sub.events.map((e) => e.id)).toEqual(['3', '6'])
  })

  it('keeps brains apart: a brain token streams its own brain only', async () => {
    const s = await serve()
    const tokens: Record<string, string> = {}
    for (const id of ['alpha', 'beta']) {
      const created = await call(s, 'POST', '/system/brains', { brain_id: id })
      tokens[id] = created.body.pat
    }
    const alpha = { ServicePAT: tokens.alpha! }
    const beta = { ServicePAT: tokens.beta! }
    const refused = await subscribe(s, '', { ...alpha, 'X-Brain-ID': 'beta' })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.body).error.code).toBe('AUTH_INVALID')
    const sub = await subscribe(s, '?after=0', alpha)
    await createEntity(s, 'Secret', beta)
    await createEntity(s, 'Mine', alpha)
    await sub.until(() => sub.events.length === 1)
    expect(sub.events[0]!.data).toContain('Mine')
    expect(sub.events.map((e) => e.data).join()).not.toContain('Secret')
    // The system token selects any brain.
    const other = await subscribe(s, '?after=0&brain_id=beta')
    await other.until(() => other.events.length === 1)
    expect(other.events[0]!.data).toContain('Secret')
  })

  it('answers 422 in the envelope for a bad Last-Event-ID or `after`', async () => {
    const s = await serve()
    for (const [query, headers, loc] of [
      ['', { ...system, 'Last-Event-ID': 'abc' }, ['header', 'last-event-id']],
      ['', { ...system, 'Last-Event-ID': '-1' }, ['header', 'last-event-id']],
      ['?after=1.5', system, ['query', 'after']],
      ['?after=99999999999999999', system, ['query', 'after']],
    ] as const) {
      const res = await subscribe(s, query, headers)
      expect(res.status, `${query} ${JSON.stringify(headers)}`).toBe(422)
      const body = JSON.parse(res.body)
      expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', request_id: expect.any(String) })
      expect(body.detail[0].loc).toEqual(loc)
    }
    const anonymous = await subscribe(s, '', {})
    expect(anonymous.status).toBe(401)
  })

  it('pings while idle, and starts at the end for an id past it (a brain created again)', async () => {
    const s = await serve({ heartbeatMs: 20 })
    await createEntity(s, 'Ada')
    const sub = await subscribe(s, '', { ...system, 'Last-Event-ID': '500' })
    await sub.until(() => sub.comments.length >= 2)
    expect(sub.comments[0]).toBe(' ping')
    await createEntity(s, 'Bob')
    await sub.until(() => sub.events.length === 1)
    expect(sub.events[0]!.id).toBe('2')
  })

  it('refuses streams past the per-brain limit with 503, and frees the slot when a client leaves', async () => {
    const s = await serve({ maxStreamsPerBrain: 2 })
    const one = await subscribe(s)
    await subscribe(s)
    const third = await subscribe(s)
    expect(third.status).toBe(503)
    expect(third.headers['retry-after']).toBe('5')
    expect(JSON.parse(third.body).error.code).toBe('SERVICE_UNAVAILABLE')
    const created = await call(s, 'POST', '/system/brains', { brain_id: 'other' })
    expect(created.status).toBe(201)
    const elsewhere = await subscribe(s, '?brain_id=other')
    expect(elsewhere.status).toBe(200)
    one.close()
    // The server hears of the disconnect a moment later: a new stream is admitted once it has.
    let again = await subscribe(s)
    while (again.status === 503) {
      await new Promise((resolve) => setImmediate(resolve))
      again = await subscribe(s)
    }
    expect(again.status).toBe(200)
  })

  it('ends open streams when the server closes, and when the brain is deleted', async () => {
    const s = await serve()
    await call(s, 'POST', '/system/brains', { brain_id: 'gone' })
    const doomed = await subscribe(s, '?brain_id=gone')
    const deleted = await call(s, 'DELETE', '/system/brains/gone')
    expect(deleted.status).toBeLessThan(300)
    await doomed.until(() => doomed.ended)

    const sub = await subscribe(s)
    // fetch keeps its connection alive after a response, as browsers' EventSource does.
    const kept = await fetch(`${s.url}/retrieve/changelogs/stream`, { headers: system })
    await createEntity(s, 'Ada')
    await sub.until(() => sub.events.length === 1)
    s.closed = true
    await s.app.close() // would wait for the clients if the streams stayed open
    await sub.until(() => sub.ended)
    expect(await kept.text()).toContain('event: node_created')
  })

  it('closes even when a client stopped reading its stream', async () => {
    const s = await serve()
    const accepted = new Promise<Socket>((resolve) => s.app.server.once('connection', resolve))
    const stuck = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${s.url}/retrieve/changelogs/stream`, { headers: system, agent: false }, resolve)
        .on('error', reject)
        .end()
    })
    stuck.pause() // reads nothing from here on
    stuck.on('error', () => {})
    const serverSide = await accepted
    // One entry larger than the socket buffers of both ends hold (a few MB on loopback).
    const blob = 'x'.repeat(32_000_000)
    const entry = { id: 'big', timestamp: new Date().toISOString(), type: 'redacted' }
    await s.engram.commit('default', {
      changelog: [{ ...entry, change: { type: 'redacted', blob } }],
    })
    while (serverSide.writableLength === 0) await new Promise((resolve) => setImmediate(resolve))
    s.closed = true
    const started = performance.now()
    await s.app.close() // would wait for the client to read 32 MB
    expect(performance.now() - started).toBeLessThan(5000)
    expect(serverSide.destroyed).toBe(true)
  })

  it('closes at once beside a connection that never sent a request', async () => {
    // What undici's fetch leaves behind when a client aborts a stream (nodejs/undici#5845).
    const s = await serve()
    const accepted = new Promise((resolve) => s.app.server.once('connection', resolve))
    const { port } = new URL(s.url)
    const idle = connect(Number(port), '127.0.0.1')
    const gone = new Promise((resolve) => idle.once('close', resolve))
    idle.on('error', () => {})
    await accepted
    s.closed = true
    const started = performance.now()
    await s.app.close()
    // Node's headersTimeout (60 s) would hold it otherwise.
    expect(performance.now() - started).toBeLessThan(5000)
    await gone
  })

  it('answers HEAD with the headers only', async () => {
    const s = await serve()
    const res = await sseSubscriber(`${s.url}/retrieve/changelogs/stream`, system, 'HEAD')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    await res.until(() => res.ended)
    expect(res.events).toEqual([])
  })
})
