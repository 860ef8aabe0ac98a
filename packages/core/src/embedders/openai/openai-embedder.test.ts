import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { embeddingsUrl, openaiEmbedder } from './openai-embedder.js'
import { parseRetryAfter } from '../../retry-delay.js'

const never = new AbortController().signal
const KEY = 'sk-test-secret-key-123456'

interface Seen {
  path: string
  authorization: string | undefined
  body: { model: string; input: string[] }
}

/** A local server speaking the embeddings protocol; `script` answers each request in turn. */
let seen: Seen[] = []
let script: ((req: Seen, res: ServerResponse) => void)[] = []
let baseUrl = ''
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let raw = ''
  req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
  req.on('end', () => {
    const request: Seen = {
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: JSON.parse(raw) as Seen['body'],
    }
    seen.push(request)
    ;(script.shift() ?? ok)(request, res)
  })
})

/** 3-d vectors, unnormalised, rows in reverse order: [i + 1, 0, 0] for input i (or `dims` of them). */
function ok(request: Seen, res: ServerResponse, dims = 3) {
  const data = request.body.input
    .map((_, index) => ({
      object: 'embedding',
      index,
      embedding: Array.from({ length: dims }, (_, d) => (d === 0 ? index + 1 : d === 1 ? 2 : 0)),
    }))
    .reverse()
  res.setHeader('content-type', 'application/json')
  res.end(JSON.stringify({ object: 'list', data, model: request.body.model, usage: {} }))
}
const status =
  (code: number, headers: Record<string, string> = {}, body = '{"error":{"message":"busy"}}') =>
  (_: Seen, res: ServerResponse) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers })
    res.end(body)
  }
const json = (body: unknown) => (_: Seen, res: ServerResponse) => {
  res.setHeader('content-type', 'application/json')
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
beforeEach(() => {
  seen = []
  script = []
})

const make = (extra: Partial<Parameters<typeof openaiEmbedder>[0]> = {}) =>
  openaiEmbedder({
    baseUrl,
    model: 'test-embed',
    apiKey: KEY,
    dimension: 3,
    retryBaseMs: 1,
    ...extra,
  })

describe('openaiEmbedder', () => {
  it('posts to /v1/embeddings and returns normalised vectors in input order', async () => {
    const embedder = make()
    expect(embedder).toMatchObject({ kind: 'embedder', name: 'openai:test-embed', dimension: 3 })
    const vectors = await embedder.embed(['a', 'b'], never)
    expect(seen).toEqual([
      {
        path: '/v1/embeddings',
        authorization: `Bearer ${KEY}`,
        body: { model: 'test-embed', input: ['a', 'b'] },
      },
    ])
    expect([...vectors[0]!]).toEqual([1 / Math.sqrt(5), 2 / Math.sqrt(5), 0].map(Math.fround))
    expect([...vectors[1]!]).toEqual([2 / Math.sqrt(8), 2 / Math.sqrt(8), 0].map(Math.fround))
  })

  it('does not double a trailing /v1 in the base URL', () => {
    expect(embeddingsUrl('http://h:1')).toBe('http://h:1/v1/embeddings')
    expect(embeddingsUrl('http://h:1/v1/')).toBe('http://h:1/v1/embeddings')
    expect(embeddingsUrl('https://h/openai/v1')).toBe('https://h/openai/v1/embeddings')
    expect(embeddingsUrl('https://h/api')).toBe('https://h/api/v1/embeddings')
  })

  it('batches inputs, sends no key when none is set, and caches repeated texts', async () => {
    const embedder = make({ batchSize: 2, apiKey: undefined })
    const vectors = await embedder.embed(['a', 'b', 'c', 'a', ''], never)
    expect(vectors).toHaveLength(5)
    expect(seen.map((s) => s.body.input)).toEqual([
      ['a', 'b'],
      ['c', ' '],
    ])
    expect(seen[0]!.authorization).toBeUndefined()
    expect(vectors[3]).toEqual(vectors[0])
    await embedder.embed(['c'], never)
    expect(seen).toHaveLength(2)
  })

  it('reads base64-encoded embeddings', async () => {
    const encoded = Buffer.from(new Float32Array([3, 4, 0]).buffer).toString('base64')
    script = [json({ data: [{ index: 0, embedding: encoded }] })]
    const [vector] = await make().embed(['x'], never)
    expect([...vector!]).toEqual([0.6, 0.8, 0].map(Math.fround))
  })

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    script = [status(429, { 'retry-after': '0' }), status(503), status(502)]
    const vectors = await make().embed(['x'], never)
    expect(vectors).toHaveLength(1)
    expect(seen).toHaveLength(4)
  })

  it('honours Retry-After, capped by retryMaxMs', async () => {
    // An hour asked for: only the cap lets the call end within the test's timeout (no clock here).
    script = [status(429, { 'retry-after': '3600' })]
    const started = performance.now()
    await make({ retryMaxMs: 150 }).embed(['x'], never)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    expect(parseRetryAfter('2')).toBe(2000)
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', Date.UTC(2015, 9, 21, 7, 28, 0))).toBe(
      5000,
    )
    expect(parseRetryAfter('soon')).toBeNull()
  })

  it('gives up after maxRetries with SERVICE_UNAVAILABLE', async () => {
    script = [status(500), status(500), status(500)]
    await expect(make({ maxRetries: 2 }).embed(['x'], never)).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringContaining('HTTP 500 after 3 attempts'),
    })
    expect(seen).toHaveLength(3)
  })

  it('reports an unreachable endpoint clearly, without the key', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await make({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 })
      .embed(['x'], never)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'EngramError',
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/unreachable after 2 attempts \(ECONNREFUSED\)/),
    })
    expect(JSON.stringify(error) + String(error)).not.toContain(KEY)
  })

  it.each([
    ['no data array', { object: 'list' }, /no `data` array/],
    ['too few rows', { data: [] }, /returned 0 embeddings for 1 inputs/],
    ['wrong dimension', { data: [{ index: 0, embedding: [1, 2] }] }, /2 dimensions, expected 3/],
    ['not numbers', { data: [{ index: 0, embedding: ['a', 'b', 'c'] }] }, /not a list of numbers/],
    ['not JSON', '<html>proxy error</html>', /not JSON/],
  ])('refuses a malformed response (%s) with a clear error', async (_, body, message) => {
    script = [json(body)]
    await expect(make().embed(['x'], never)).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(message),
    })
  })

  it('does not retry other 4xx, and redacts the key from the upstream message', async () => {
    script = [status(401, {}, `{"error":{"message":"Incorrect API key provided: ${KEY}"}}`)]
    const error = await make()
      .embed(['x'], never)
      .catch((e: unknown) => e as Error)
    expect(error).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining('401') })
    expect(String((error as Error).message)).not.toContain(KEY)
    expect(seen).toHaveLength(1)
  })

  it('stops at once when the signal aborts, also during a backoff wait', async () => {
    // Aborted once the server has the request, which it never answers.
    const controller = new AbortController()
    script = [() => controller.abort(new Error('cancelled'))]
    await expect(make().embed(['x'], controller.signal)).rejects.toThrow('cancelled')

    // Aborted once the 429 is in the embedder's hands (its transport says so), asking for an hour's
    // wait: only an abort that ends the wait lets the test finish within its timeout.
    script = [status(429, { 'retry-after': '3600' })]
    const backoff = new AbortController()
    const answered = async (...args: Parameters<typeof fetch>) => {
      const response = await fetch(...args)
      queueMicrotask(() => backoff.abort(new Error('cancelled in backoff')))
      return response
    }
    await expect(
      make({ retryMaxMs: 7_200_000, fetch: answered }).embed(['y'], backoff.signal),
    ).rejects.toThrow('cancelled in backoff')
  })

  it('needs a dimension for models it does not know', () => {
    expect(() => openaiEmbedder({ baseUrl, model: 'nomic-embed-text' })).toThrow(/dimension/)
    expect(openaiEmbedder({ baseUrl, model: 'text-embedding-3-small' }).dimension).toBe(1536)
  })
})
