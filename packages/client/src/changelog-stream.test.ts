import { describe, expect, it } from 'vitest'
import { createEngramClient } from './engram-client.js'
import { EngramError } from './engram-error.js'
import { readEventStream } from './event-stream.js'

const encoder = new TextEncoder()

/** A body that sends `chunks`, then ends, or fails as a dropped connection does. */
function body(chunks: string[], drop = false): ReadableStream<Uint8Array> {
  const queue = [...chunks]
  // One chunk per pull: erroring a stream drops what it still queues, so the drop comes once read.
  return new ReadableStream({
    pull(controller) {
      const chunk = queue.shift()
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk))
      else if (drop) controller.error(new TypeError('terminated'))
      else controller.close()
    },
  })
}

const stream =
  (chunks: string[], drop = false) =>
  () =>
    new Response(body(chunks, drop), { headers: { 'content-type': 'text/event-stream' } })

const entry = (seq: number, type = 'node_created') =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify({ id: `c${seq}`, timestamp: '2026-01-01T00:00:00Z', type, change: { type } })}\n\n`

/** A fetch double answering from a queue, recording each request. */
function fakeFetch(answers: Array<() => Response>) {
  const seen: Request[] = []
  const fetch = async (request: Request) => {
    seen.push(request)
    const next = answers.shift()
    if (next === undefined) throw new Error('no answer left')
    return next()
  }
  return { fetch, seen }
}

async function collect<T>(iterable: AsyncIterable<T>, count: number): Promise<T[]> {
  const out: T[] = []
  for await (const item of iterable) {
    out.push(item)
    if (out.length === count) break
  }
  return out
}

describe('readEventStream', () => {
  it('reads fields as an EventSource does, across chunk boundaries and line endings', async () => {
    const blocks = []
    for await (const block of readEventStream(
      body(['retry: 10\rid: 4\r', '\n\r\n: ping\n\nid: 5\nevent: x\ndata: a\ndata:', ' b\n', '\n']),
    ))
      blocks.push(block)
    expect(blocks).toEqual([
      { lastEventId: '4', event: 'message', data: null, retry: 10 },
      { lastEventId: '5', event: 'x', data: 'a\nb', retry: null },
    ])
  })
})

describe('changelogStream', () => {
  it('yields typed entries and resumes after a drop and after the server ends, with Last-Event-ID', async () => {
    const { fetch, seen } = fakeFetch([
      stream(['retry: 1\nid: 0\n\n', entry(1), entry(2, 'relationship_created')], true),
      stream(['retry: 1\nid: 2\n\n', entry(3)]),
      stream(['retry: 1\nid: 3\n\n', entry(4)]),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h/', token: 'spat_x', brain: 'b', fetch })
    const events = await collect(
      engram.changelogStream({ after: 0, types: ['node_created', 'relationship_created'] }),
      4,
    )
    expect(events.map((e) => [e.seq, e.type])).toEqual([
      [1, 'node_created'],
      [2, 'relationship_created'],
      [3, 'node_created'],
      [4, 'node_created'],
    ])
    expect(events[0]!.entry).toMatchObject({ id: 'c1', change: { type: 'node_created' } })
    expect(seen.map((r) => r.headers.get('Last-Event-ID'))).toEqual(['0', '2', '3'])
    expect(seen[0]!.url).toBe(
      'http://h/retrieve/changelogs/stream?types=node_created%2Crelationship_created',
    )
    expect(seen[0]!.headers.get('ServicePAT')).toBe('spat_x')
    expect(seen[0]!.headers.get('X-Brain-ID')).toBe('b')
    expect(seen[0]!.headers.get('Accept')).toBe('text/event-stream')
  })

  it('without `after`, resumes from the start position the server sent before any entry', async () => {
    const { fetch, seen } = fakeFetch([
      stream(['retry: 1\nid: 41\n\n: ping\n\n'], true),
      stream(['retry: 1\nid: 41\n\n', entry(42)]),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    const [event] = await collect(engram.changelogStream({ brain: 'other' }), 1)
    expect(event!.seq).toBe(42)
    expect(seen.map((r) => r.headers.get('Last-Event-ID'))).toEqual([null, '41'])
    expect(seen[1]!.headers.get('X-Brain-ID')).toBe('other')
  })

  it('throws the envelope of a refused first connection, and ends quietly on abort', async () => {
    const envelope = {
      detail: 'x',
      error: { code: 'AUTH_INVALID', message: 'no', resolution: 'r', request_id: 'q' },
    }
    const refused = fakeFetch([
      () => new Response(JSON.stringify(envelope), { status: 401, headers: {} }),
    ])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch: refused.fetch })
    const error = await collect(engram.changelogStream(), 1).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EngramError)
    expect(error).toMatchObject({ status: 401, code: 'AUTH_INVALID', request_id: 'q' })

    const abort = new AbortController()
    const open = fakeFetch([stream(['retry: 1\nid: 0\n\n', entry(1)])])
    const events = []
    for await (const event of createEngramClient({
      baseUrl: 'http://h',
      fetch: open.fetch,
    }).changelogStream({ signal: abort.signal })) {
      events.push(event)
      abort.abort()
    }
    expect(events.map((e) => e.seq)).toEqual([1])
    expect(open.seen).toHaveLength(1)
  })

  it('with reconnect: false, ends with the connection', async () => {
    const { fetch, seen } = fakeFetch([stream(['id: 0\n\n', entry(1)])])
    const engram = createEngramClient({ baseUrl: 'http://h', fetch })
    const events = []
    for await (const event of engram.changelogStream({ reconnect: false })) events.push(event)
    expect(events.map((e) => e.seq)).toEqual([1])
    expect(seen).toHaveLength(1)
  })
})
