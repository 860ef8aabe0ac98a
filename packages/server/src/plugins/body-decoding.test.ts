import { Readable } from 'node:stream'
import { deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { contentCodings, decodeBody } from './body-decoding.js'

/** Reads `stream` to its end; resolves with the bytes, or with the error it ended in. */
function drain(stream: Readable): Promise<{ body: Buffer } | { error: unknown }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve({ body: Buffer.concat(chunks) }))
    stream.on('error', (error) => resolve({ error }))
  })
}

/** `bytes` as a request body arriving in 16 KB chunks, counting what was read from it. */
function source(bytes: Buffer): { stream: Readable; read: () => number } {
  let offset = 0
  const stream = new Readable({
    read() {
      if (offset >= bytes.length) return void this.push(null)
      const end = Math.min(bytes.length, offset + 16 * 1024)
      this.push(bytes.subarray(offset, end))
      offset = end
    },
  })
  return { stream, read: () => offset }
}

describe('contentCodings', () => {
  it('lists the codings in order, lower-cased, without identity', () => {
    expect(contentCodings(undefined)).toEqual([])
    expect(contentCodings('identity')).toEqual([])
    expect(contentCodings(' GZip ')).toEqual(['gzip'])
    expect(contentCodings('deflate, gzip')).toEqual(['deflate', 'gzip'])
    expect(contentCodings(['br', 'identity'])).toEqual(['br'])
  })
})

describe('decodeBody', () => {
  const json = Buffer.from(JSON.stringify({ text: 'Ada Lovelace '.repeat(1000) }))

  it('decodes gzip, x-gzip and deflate, and reports the compressed size read', async () => {
    for (const [coding, encoded] of [
      ['gzip', gzipSync(json)],
      ['x-gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
    ] as const) {
      const decoded = decodeBody(source(encoded).stream, coding, 1024 * 1024)
      expect(await drain(decoded), coding).toEqual({ body: json })
      expect(decoded.receivedEncodedLength, coding).toBe(encoded.length)
    }
  })

  it('stops a zip bomb at the limit: 413 after reading a small part of it', async () => {
    // 1 GB of zeros in about 1 MB: 1,024 gzip members of 1 MB each (a valid gzip stream); the limit
    // is 1 MB decoded.
    const bomb = Buffer.concat(Array<Buffer>(1024).fill(gzipSync(Buffer.alloc(1024 * 1024))))
    const body = source(bomb)
    const result = await drain(decodeBody(body.stream, 'gzip', 1024 * 1024))
    expect(result).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', status: 413 } })
    // Inflating the whole body would read all of it; stopping at 1 MB reads a few chunks.
    expect(body.read()).toBeLessThan(bomb.length / 10)
  })

  it('answers 422 naming the coding for bytes that are not valid gzip or deflate', async () => {
    for (const coding of ['gzip', 'deflate']) {
      const result = await drain(decodeBody(source(json).stream, coding, 1024 * 1024))
      expect(result, coding).toMatchObject({
        error: {
          code: 'VALIDATION_ERROR',
          status: 422,
          detail: [{ loc: ['body'], type: 'content_encoding_invalid' }],
        },
      })
    }
  })
})
