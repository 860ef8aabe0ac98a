import { connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { expectEnvelope } from '../support/envelope.js'
import { listeningApp, SYSTEM_TOKEN } from '../support/listening-app.js'

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

/** The HTTP/1.1 responses in `bytes`, in order (Content-Length framed). */
function responses(bytes: Buffer): Answer[] {
  const out: Answer[] = []
  let rest = bytes
  for (;;) {
    const end = rest.indexOf('\r\n\r\n')
    if (end === -1) return out
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n')
    const headers = Object.fromEntries(
      lines.map((l) => [
        l.slice(0, l.indexOf(':')).toLowerCase(),
        l.slice(l.indexOf(':') + 1).trim(),
      ]),
    )
    const length = Number(headers['content-length'] ?? 0)
    out.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: rest.subarray(end + 4, end + 4 + length).toString('utf8'),
    })
    rest = rest.subarray(end + 4 + length)
  }
}

/**
 * Issue 25 point 6 (503 where operations return it): a request that reaches the server while it
 * closes, on a connection that was busy when the listener closed, answers 503 in the error envelope
 * with Retry-After (plugins/closing-guard.ts), not Fastify's bare JSON. The test pipelines two
 * requests on one connection: the first, an ingestion whose body is half sent, keeps the connection
 * busy; the server starts closing; the rest of the first body and the second request follow.
 */
describe('a request arriving while the server closes', () => {
  it('answers 503 SERVICE_UNAVAILABLE in the envelope, and the running request completes', async () => {
    const server = await listeningApp({ storage: 'memory' })
    // The signal that closing has begun: Fastify closes the listener after its preClose hooks
    // (the guard's among them) have run.
    const listenerClosing = new Promise<void>((resolve) => {
      const close = server.app.server.close.bind(server.app.server)
      server.app.server.close = ((callback?: (error?: Error) => void) => {
        resolve()
        return close(callback)
      }) as typeof server.app.server.close
    })
    // The server has the first request (headers read, body pending) once it emits it: its
    // connection then counts as busy, so closing waits for it rather than dropping it as idle.
    const requested = new Promise<void>((resolve) =>
      server.app.server.once('request', () => resolve()),
    )
    const body = JSON.stringify({ text: 'Ada Lovelace wrote the first published algorithm.' })
    const socket = connect(server.port, '127.0.0.1')
    const received: Buffer[] = []
    const ended = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => received.push(chunk))
      socket.on('close', () => resolve())
    })
    socket.write(
      `POST /ingest/ HTTP/1.1\r\nHost: engram\r\nServicePAT: ${SYSTEM_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 10),
    )
    await requested
    const closed = server.close()
    await listenerClosing
    socket.write(`${body.slice(10)}GET /health HTTP/1.1\r\nHost: engram\r\n\r\n`)
    await ended
    await closed

    const [first, second] = responses(Buffer.concat(received))
    expect(first?.status, first?.body).toBe(202)
    expect(second, 'the second request is answered').toBeDefined()
    expectEnvelope(
      { status: second!.status, requestId: second!.headers['x-request-id'], body: second!.body },
      503,
      'SERVICE_UNAVAILABLE',
    )
    expect(second!.headers['retry-after']).toBe('5')
    expect(second!.headers.connection).toBe('close')
  })
})
