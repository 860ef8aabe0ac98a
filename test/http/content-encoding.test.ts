import { deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectFetchEnvelope } from '../support/envelope.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 25 point 6: request bodies with `Content-Encoding` (docs/request-limits.md). gzip and deflate
 * bodies are read, within the body limit once decoded (a zip bomb gets 413, not the memory it
 * inflates to); any other coding, and a coded multipart body, get 415 in the envelope.
 */
let server: ListeningApp
const LIMIT = 64 * 1024

beforeAll(async () => {
  server = await listeningApp({ storage: 'memory', maxBodyBytes: LIMIT })
})
afterAll(async () => {
  await server?.close()
})

function send(
  path: string,
  body: Buffer | FormData | undefined,
  headers: Record<string, string>,
  method = 'POST',
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { ServicePAT: SYSTEM_TOKEN, ...headers },
    ...(body !== undefined ? { body } : {}),
  })
}
const json = (value: unknown) => Buffer.from(JSON.stringify(value))
const JSON_TYPE = { 'content-type': 'application/json' }

describe('Content-Encoding on request bodies', () => {
  it('reads gzip, x-gzip and deflate JSON bodies as the JSON they encode', async () => {
    const encodings = [
      ['gzip', gzipSync],
      ['x-gzip', gzipSync],
      ['deflate', deflateSync],
    ] as const
    for (const [coding, encode] of encodings) {
      const name = `Encoded ${coding}`
      const res = await send('/model/entity', encode(json({ name, labels: ['TEST'] })), {
        ...JSON_TYPE,
        'content-encoding': coding,
      })
      expect(res.status, coding).toBe(201)
      expect(((await res.json()) as { name: string }[])[0]!.name).toBe(name)
    }
    const search = await send('/retrieve/search', gzipSync(json({ query: 'Encoded', k: 3 })), {
      ...JSON_TYPE,
      'content-encoding': 'GZIP',
    })
    expect(search.status).toBe(200)
  })

  it('bounds the decoded size by the body limit: a zip bomb gets 413', async () => {
    // 16 MB of zeros in about 16 KB (gzip members of 1 MB), under the 64 KB limit until decoded.
    const bomb = Buffer.concat(Array<Buffer>(16).fill(gzipSync(Buffer.alloc(1024 * 1024))))
    expect(bomb.length).toBeLessThan(LIMIT)
    const res = await send('/model/entity', bomb, { ...JSON_TYPE, 'content-encoding': 'gzip' })
    const envelope = await expectFetchEnvelope(res, 413, 'PAYLOAD_TOO_LARGE')
    expect(envelope.error.message).toContain('once decoded')
    // The connection's server is still serving.
    expect((await send('/health', undefined, {}, 'GET')).status).toBe(200)
  })

  it('answers 422 for a body that is not valid gzip', async () => {
    const res = await send('/model/entity', json({ name: 'plain' }), {
      ...JSON_TYPE,
      'content-encoding': 'gzip',
    })
    const envelope = await expectFetchEnvelope(res, 422, 'VALIDATION_ERROR')
    expect(envelope.detail).toEqual([
      { loc: ['body'], msg: 'not valid gzip data', type: 'content_encoding_invalid' },
    ])
  })

  it('answers 415 in the envelope for other codings, stacked codings and coded multipart', async () => {
    for (const coding of ['br', 'zstd', 'compress', 'gzip, deflate']) {
      const res = await send('/model/entity', gzipSync(json({ name: 'x' })), {
        ...JSON_TYPE,
        'content-encoding': coding,
      })
      const envelope = await expectFetchEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE')
      expect(envelope.error.resolution, coding).toContain('gzip or deflate')
    }
    const form = new FormData()
    form.append('file', new Blob(['# Notes\n']), 'notes.md')
    const multipart = await send('/ingest/file', form, { 'content-encoding': 'gzip' })
    const envelope = await expectFetchEnvelope(multipart, 415, 'UNSUPPORTED_MEDIA_TYPE')
    expect(envelope.error.message).toContain('multipart')
  })

  it('ignores the header where no body is read (GET) and for identity', async () => {
    const get = await send('/retrieve/entities', undefined, { 'content-encoding': 'br' }, 'GET')
    expect(get.status).toBe(200)
    const identity = await send('/model/entity', json({ name: 'Identity' }), {
      ...JSON_TYPE,
      'content-encoding': 'identity',
    })
    expect(identity.status).toBe(201)
  })
})
