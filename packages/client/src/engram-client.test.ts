import { describe, expect, it } from 'vitest'
import { createEngramClient } from './engram-client.js'
import { EngramError } from './engram-error.js'

/** A fetch double: answers from a queue and records every request it saw (with its body as text). */
function fakeFetch(answers: Array<() => Response>) {
  const seen: Array<{ method: string; url: string; headers: Headers; body: string }> = []
  const fetch = async (request: Request): Promise<Response> => {
    seen.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: await request.text(),
    })
    const next = answers.shift()
    if (next === undefined) throw new Error('no answer left')
    return next()
  }
  return { fetch, seen }
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    })

const envelope = (code: string, requestId = 'req-1') => ({
  detail: 'x',
  error: { code, message: `${code} happened`, resolution: 'Do the thing.', request_id: requestId },
})

const TASK = {
  id: 't1',
  task_id: 't1',
  stage: 'extract',
  result: null,
  error: '',
  counts: {},
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
}

describe('createEngramClient', () => {
  it('sends the token and brain, and resolves with the typed body', async () => {
    const { fetch, seen } = fakeFetch([json(200, { hits: [], stage_timings: {} })])
    const engram = createEngramClient({
      baseUrl: 'http://h/base/',
      token: 'spat_x',
      brain: 'b',
      fetch,
    })
    const result = await engram.GET('/retrieve/search', { params: { query: { query: 'ada' } } })
    expect(result.hits).toEqual([])
    expect(seen[0]!.url).toBe('http://h/base/retrieve/search?query=ada')
    expect(seen[0]!.headers.get('ServicePAT')).toBe('spat_x')
    expect(seen[0]!.headers.get('X-Brain-ID')).toBe('b')
    const other = createEngramClient({ baseUrl: 'http://h', fetch: fakeFetch([]).fetch })
    // @ts-expect-error: the path is not an operation of the spec
    await expect(other.GET('/nope')).rejects.toThrow()
  })

  it('throws EngramError with the envelope fields, and never retries validation or auth failures', async () => {
    for (const [status, code] of [
      [422, 'VALIDATION_ERROR'],
      [401, 'AUTH_INVALID'],
      [403, 'AUTH_INVALID'],
      [404, 'BRAIN_NOT_FOUND'],
    ] as const) {
      const { fetch, seen } = fakeFetch([json(status, envelope(code)), json(200, {})])
      const engram = createEngramClient({ baseUrl: 'http://h', fetch })
      const error = await engram.GET('/meta/entity-labels').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(EngramError)
      expect(error).toMatchObject({
        status,
        code,
        resolution: 'Do the thing.',
        request_id: 'req-1',
        message: `${code} happened`,
      })
      expect(seen).toHaveLength(1)
    }
  })

  it('retries 429 and 503 after Retry-After, sending the body again', async () => {
    const { fetch, seen } = fakeFetch([
      json(429, envelope('RATE_LIMITED'), { 'retry-after': '0' }),
      json(503, envelope('SERVICE_UNAVAILABLE'), { 'retry-after': '1' }),
      json(202, { message: 'accepted', task_id: 't1' }),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    const started = Date.now()
    const answer = await engram.POST('/ingest/', { body: { text: 'Ada met Charles.' } })
    expect(answer.task_id).toBe('t1')
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(seen.map((s) => s.body)).toEqual(Array(3).fill(seen[0]!.body))
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ text: 'Ada met Charles.' })
  })

  it('gives up after its bounded retries, or at once when Retry-After is beyond its limit', async () => {
    const limited = json(429, envelope('RATE_LIMITED'), { 'retry-after': '0' })
    const { fetch, seen } = fakeFetch([limited, limited, limited])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch, retry: { retries: 2 } })
    await expect(engram.GET('/health')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter: 0,
    })
    expect(seen).toHaveLength(3)

    const far = fakeFetch([json(503, envelope('SERVICE_UNAVAILABLE'), { 'retry-after': '3600' })])
    const patient = createEngramClient({ baseUrl: 'http://h', fetch: far.fetch })
    await expect(patient.GET('/health')).rejects.toMatchObject({ status: 503, retryAfter: 3600 })
    expect(far.seen).toHaveLength(1)
  })

  it('backs off exponentially when no Retry-After is sent', async () => {
    const bare = () => new Response('{}', { status: 503 })
    const { fetch, seen } = fakeFetch([bare, bare, json(200, { status: 'ok' })])
    const engram = createEngramClient({
      baseUrl: 'http://h',
      fetch,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    })
    await expect(engram.GET('/health')).resolves.toMatchObject({ status: 'ok' })
    expect(seen).toHaveLength(3)
  })

  it('reports an unreachable server and a non-envelope answer with their own codes', async () => {
    const refused = async (): Promise<Response> => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') })
    }
    const engram = createEngramClient({ baseUrl: 'http://h', fetch: refused })
    await expect(engram.GET('/health')).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
      message: 'cannot reach http://h (connect ECONNREFUSED)',
    })
    const proxy = fakeFetch([() => new Response('<html>bad gateway</html>', { status: 502 })])
    const behindProxy = createEngramClient({ baseUrl: 'http://h', fetch: proxy.fetch })
    await expect(behindProxy.GET('/health')).rejects.toMatchObject({
      code: 'UNEXPECTED_RESPONSE',
      status: 502,
    })
  })

  it('uploads a file as multipart with its name and metadata', async () => {
    const { fetch, seen } = fakeFetch([
      json(202, { message: 'File ingestion accepted', task_id: 't' }),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    await engram.ingestFile({
      file: new Blob(['# Notes\n']),
      filename: 'notes.md',
      metaKeys: { title: 'Notes' },
      brain: 'b2',
    })
    expect(seen[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
    expect(seen[0]!.headers.get('X-Brain-ID')).toBe('b2')
    expect(seen[0]!.body).toContain('filename="notes.md"')
    expect(seen[0]!.body).toContain('{"title":"Notes"}')
    expect(seen[0]!.body).not.toContain('name="source_id"')
  })

  it('sends a file’s source id as its own multipart field', async () => {
    const { fetch, seen } = fakeFetch([
      json(202, { message: 'File ingestion accepted', task_id: 't', source_id: 'notes/a.md' }),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    const accepted = await engram.ingestFile({
      file: new Blob(['# Notes\n']),
      filename: 'a.md',
      sourceId: 'notes/a.md',
    })
    expect(accepted.source_id).toBe('notes/a.md')
    expect(seen[0]!.body).toMatch(/name="source_id"\r\n\r\nnotes\/a\.md\r\n/)
  })

  it('sends a file’s expiry as multipart fields: a Date as its ISO text, ttl as digits', async () => {
    const { fetch, seen } = fakeFetch([
      json(202, { message: 'File ingestion accepted', task_id: 't1', source_id: 't1' }),
      json(202, { message: 'File ingestion accepted', task_id: 't2', source_id: 't2' }),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    const file = new Blob(['# Notes\n'])
    await engram.ingestFile({ file, filename: 'a.md', expiresAt: new Date(Date.UTC(2030, 0, 2)) })
    await engram.ingestFile({ file, filename: 'a.md', ttl: 3600 })
    expect(seen[0]!.body).toMatch(/name="expires_at"\r\n\r\n2030-01-02T00:00:00\.000Z\r\n/)
    expect(seen[0]!.body).not.toContain('name="ttl"')
    expect(seen[1]!.body).toMatch(/name="ttl"\r\n\r\n3600\r\n/)
    expect(seen[1]!.body).not.toContain('name="expires_at"')
  })

  it('lists, reads and forgets sources, with ids percent-encoded in the path', async () => {
    const { fetch, seen } = fakeFetch([
      json(200, { sources: [], total: 0, message: 'ok' }),
      json(200, { source: {}, passages: [], total: 0, message: 'ok' }),
      json(202, { message: 'Forget accepted', task_id: 't9', source_id: 'a/b c' }),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', brain: 'b', fetch })
    await engram.sources.list({ queryText: 'notes', meta: { project: 'apollo', n: 2 }, limit: 5 })
    const list = new URL(seen[0]!.url)
    expect(list.pathname).toBe('/sources')
    expect(list.searchParams.get('query_text')).toBe('notes')
    expect(JSON.parse(list.searchParams.get('meta')!)).toEqual({ project: 'apollo', n: 2 })
    expect(list.searchParams.get('limit')).toBe('5')
    await engram.sources.get('a/b c', { skip: 10, brain: 'other' })
    expect(seen[1]!.url).toBe('http://h/sources/a%2Fb%20c?skip=10')
    expect(seen[1]!.headers.get('X-Brain-ID')).toBe('other')
    const forgotten = await engram.sources.forget('a/b c')
    expect(forgotten).toEqual({ message: 'Forget accepted', task_id: 't9', source_id: 'a/b c' })
    expect(seen[2]).toMatchObject({ method: 'DELETE', url: 'http://h/sources/a%2Fb%20c' })
    expect(seen[2]!.headers.get('X-Brain-ID')).toBe('b')
  })

  it('deletes entities, relationships and observations, and surfaces a 404', async () => {
    const counts = { deleted: { entities: 1, relationships: 2, observations: 3 } }
    const { fetch, seen } = fakeFetch([
      json(200, counts),
      json(200, counts),
      json(404, envelope('RESOURCE_NOT_FOUND')),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    expect(await engram.deleteEntity('e-1')).toEqual(counts)
    await engram.deleteRelationship('r-1')
    await expect(engram.deleteObservation('o/1')).rejects.toMatchObject({
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
    })
    expect(seen.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
      'DELETE /model/entity/e-1',
      'DELETE /model/relationship/r-1',
      'DELETE /model/observation/o%2F1',
    ])
  })

  it('waits for a task to end, reporting progress; a failed task is an answer', async () => {
    const { fetch } = fakeFetch([
      json(200, { ...TASK, status: 'queued' }),
      json(200, { ...TASK, status: 'started' }),
      json(200, { ...TASK, status: 'failed', error: 'bad file' }),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    const statuses: string[] = []
    const task = await engram.waitForTask('t1', {
      intervalMs: 1,
      onProgress: (t) => statuses.push(t.status),
    })
    expect(task).toMatchObject({ status: 'failed', error: 'bad file' })
    expect(statuses).toEqual(['queued', 'started', 'failed'])
  })

  it('stops waiting on abort and on timeout', async () => {
    const queued = json(200, { ...TASK, status: 'queued' })
    const engram = createEngramClient({
      baseUrl: 'http://h',
      fetch: fakeFetch(Array(50).fill(queued)).fetch,
    })
    const controller = new AbortController()
    // Aborted once the first read is in, while the minute's pause after it runs: only an abort that
    // ends the pause lets the test finish within its timeout.
    const leave = () => queueMicrotask(() => controller.abort(new Error('user left')))
    await expect(
      engram.waitForTask('t1', {
        intervalMs: 60_000,
        signal: controller.signal,
        onProgress: leave,
      }),
    ).rejects.toThrow('user left')
    await expect(engram.waitForTask('t1', { intervalMs: 5, timeoutMs: 20 })).rejects.toMatchObject({
      code: 'TIMEOUT',
    })
  })
})
