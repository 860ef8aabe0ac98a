import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectEnvelope, expectFetchEnvelope } from '../support/envelope.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'
import { rawExchange } from '../support/raw-http.js'

/** Issue 11 item 4: multipart bodies the parser cannot read answered 500 on /ingest/file. */

const B = 'engram-boundary'
const part = (name: string, value: string, filename?: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"` +
  (filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: text/plain`) +
  `\r\n\r\n${value}\r\n`
const FILE = part('file', 'hello world', 'a.txt')
const END = `--${B}--\r\n`

let s: ListeningApp
const upload = (contentType: string, body: string) =>
  fetch(`${s.url}/ingest/file`, {
    method: 'POST',
    headers: { ServicePAT: SYSTEM_TOKEN, 'content-type': contentType },
    body,
  })

beforeAll(async () => {
  s = await listeningApp({ storage: 'memory', maxFileBytes: 64 * 1024 })
})
afterAll(async () => {
  await s.close()
})

describe('malformed multipart bodies on /ingest/file', () => {
  it('no boundary, or one over the parser limit: 422 naming the content type', async () => {
    for (const contentType of [
      'multipart/form-data',
      'multipart/form-data; charset=utf-8',
      `multipart/form-data; boundary=${'b'.repeat(300)}`,
    ]) {
      const envelope = await expectFetchEnvelope(
        await upload(contentType, FILE + END),
        422,
        'VALIDATION_ERROR',
      )
      expect(envelope.detail).toEqual([
        expect.objectContaining({ loc: ['header', 'content-type'], type: 'multipart_boundary' }),
      ])
    }
    // A long boundary the parser handles is accepted.
    const long = 'b'.repeat(200)
    const ok = await upload(
      `multipart/form-data; boundary=${long}`,
      `--${long}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--${long}--\r\n`,
    )
    expect(ok.status).toBe(202)
    await ok.text()
  })

  it('a truncated body: 422', async () => {
    for (const body of [
      FILE.slice(0, -8),
      `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello`,
      `--${B}\r\nContent-Disposition: form-da`,
      part('meta_keys', '{}') + `--${B}\r\nContent-Disposition: form-data; name="file"; filen`,
    ]) {
      const envelope = await expectFetchEnvelope(
        await upload(`multipart/form-data; boundary=${B}`, body),
        422,
        'VALIDATION_ERROR',
      )
      expect(envelope.detail).toEqual([expect.objectContaining({ loc: expect.any(Array) })])
    }
  })

  it('more than 20 fields: 413, before or after the file', async () => {
    const fields = Array.from({ length: 25 }, (_, i) => part(`f${i}`, 'v')).join('')
    for (const body of [fields + FILE + END, FILE + fields + END]) {
      const envelope = await expectFetchEnvelope(
        await upload(`multipart/form-data; boundary=${B}`, body),
        413,
        'PAYLOAD_TOO_LARGE',
      )
      expect(envelope.error.message).toContain('20 fields')
    }
    // 20 fields are fine.
    const twenty = Array.from({ length: 20 }, (_, i) => part(`f${i}`, 'v')).join('')
    const ok = await upload(`multipart/form-data; boundary=${B}`, twenty + FILE + END)
    expect(ok.status).toBe(202)
    await ok.text()
  })

  it('a file over the limit: 413 to a client that writes the whole body before reading', async () => {
    const big = part('file', 'x '.repeat(512 * 1024), 'big.txt') + END
    const answer = await rawExchange(s.port, [
      `POST /ingest/file HTTP/1.1\r\nHost: x\r\nServicePAT: ${SYSTEM_TOKEN}\r\n` +
        `Content-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${Buffer.byteLength(big)}\r\n\r\n`,
      big,
    ])
    expect(answer.error).toBeNull()
    expectEnvelope(
      { status: answer.status, requestId: answer.headers['x-request-id'], body: answer.body },
      413,
      'PAYLOAD_TOO_LARGE',
    )
  })
})
