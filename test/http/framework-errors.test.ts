import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectEnvelope, expectFetchEnvelope } from '../support/envelope.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'
import { rawExchange, type RawResponse } from '../support/raw-http.js'

/**
 * Issue 11 item 5: errors raised before a route runs (Node's HTTP parser, the router) answered
 * without the envelope, and on 413/431 the socket closed while the client was still writing, so a
 * client that writes its whole request before reading saw EPIPE or ECONNRESET. Real sockets here:
 * `inject` skips both Node's parser and the socket.
 */

let s: ListeningApp
beforeAll(async () => {
  s = await listeningApp({ storage: 'memory' })
})
afterAll(async () => {
  await s.close()
})

const raw = (request: (string | Buffer)[]) => rawExchange(s.port, request)
function expectRawEnvelope(answer: RawResponse, status: number, code?: string) {
  expect(answer.error, `${answer.status} ${answer.body.slice(0, 200)}`).toBeNull()
  return expectEnvelope(
    { status: answer.status, requestId: answer.headers['x-request-id'], body: answer.body },
    status,
    code,
  )
}

const ELEVEN_MB = Buffer.alloc(11 * 1024 * 1024, 0x61)

describe('errors before a route runs, over real sockets', () => {
  it('fetch posting 11 MB gets the 413 envelope, not a reset', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${s.url}/model/entity`, {
        method: 'POST',
        headers: { ServicePAT: SYSTEM_TOKEN, 'content-type': 'application/json' },
        body: ELEVEN_MB,
      })
      await expectFetchEnvelope(res, 413, 'PAYLOAD_TOO_LARGE')
    }
  })

  it('a client that writes 11 MB before reading gets the 413, and one without a token the 401', async () => {
    const head = (token: string) =>
      `POST /ingest/ HTTP/1.1\r\nHost: x\r\nServicePAT: ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${ELEVEN_MB.length}\r\n\r\n`
    expectRawEnvelope(await raw([head(SYSTEM_TOKEN), ELEVEN_MB]), 413, 'PAYLOAD_TOO_LARGE')
    expectRawEnvelope(await raw([head('spat_wrong'), ELEVEN_MB]), 401, 'AUTH_INVALID')
    // Chunked: the size is only known while reading.
    const chunked = Buffer.concat([
      Buffer.from(`${ELEVEN_MB.length.toString(16)}\r\n`),
      ELEVEN_MB,
      Buffer.from('\r\n0\r\n\r\n'),
    ])
    const answer = await raw([
      `POST /ingest/ HTTP/1.1\r\nHost: x\r\nServicePAT: ${SYSTEM_TOKEN}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      chunked,
    ])
    expectRawEnvelope(answer, 413, 'PAYLOAD_TOO_LARGE')
  })

  it('oversize headers or URL: the 431 envelope, even to a client still writing a body', async () => {
    const bigHeader = `X-Filler: ${'a'.repeat(20_000)}\r\n`
    expectRawEnvelope(
      await raw([`GET /health HTTP/1.1\r\nHost: x\r\n${bigHeader}\r\n`]),
      431,
      'HEADERS_TOO_LARGE',
    )
    expectRawEnvelope(
      await raw([`GET /health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]),
      431,
      'HEADERS_TOO_LARGE',
    )
    const body = Buffer.alloc(2 * 1024 * 1024, 0x61)
    expectRawEnvelope(
      await raw([
        `POST /ingest/ HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n${bigHeader}\r\n`,
        body,
      ]),
      431,
      'HEADERS_TOO_LARGE',
    )
  })

  it('malformed HTTP: the 400 envelope', async () => {
    for (const request of [
      'GARBAGE\r\n\r\n',
      'GET /health HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'POST /ingest/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
      'POST /ingest/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ]) {
      expectRawEnvelope(await raw([request]), 400, 'VALIDATION_ERROR')
    }
  })

  it('an HTTP/1.1 request without Host: the 400 envelope (HTTP/1.0 needs none)', async () => {
    const envelope = expectRawEnvelope(
      await raw(['GET /health HTTP/1.1\r\n\r\n']),
      400,
      'VALIDATION_ERROR',
    )
    expect(envelope.error.message).toContain('Host')
    const old = await raw(['GET /health HTTP/1.0\r\n\r\n'])
    expect(old.status).toBe(200)
  })

  it('bad %-encoding in the path: 400; a path parameter over 500 characters: 414', async () => {
    const bad = expectRawEnvelope(
      await raw([`GET /retrieve/observations/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n`]),
      400,
      'VALIDATION_ERROR',
    )
    expect(bad.error.message).toContain('URL')
    expectRawEnvelope(
      await raw([`GET /tasks/${'a'.repeat(600)} HTTP/1.1\r\nHost: x\r\n\r\n`]),
      414,
      'URI_TOO_LONG',
    )
  })

  it('the connection stays usable after a drained 413 (keep-alive)', async () => {
    const first = await fetch(`${s.url}/model/entity`, {
      method: 'POST',
      headers: { ServicePAT: SYSTEM_TOKEN, 'content-type': 'application/json' },
      body: ELEVEN_MB,
    })
    await expectFetchEnvelope(first, 413)
    const health = await fetch(`${s.url}/health`)
    expect(health.status).toBe(200)
    await health.text()
  })
})
