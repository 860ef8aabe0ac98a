import { Transform, type Readable } from 'node:stream'
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { EngramError } from '@engram/core'

/**
 * Content codings a request body may carry (RFC 9110 section 8.4.1): `x-gzip` is gzip's old alias;
 * `deflate` is the zlib format, as the RFC defines it.
 */
const DECODERS: Record<string, () => Gunzip | Inflate> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
}

const RESOLUTION =
  'Send the body uncompressed, or compressed with one of gzip or deflate (Content-Encoding: gzip); multipart/form-data bodies uncompressed.'

/** The codings a `Content-Encoding` header lists, lower-cased, in order, `identity` left out. */
export function contentCodings(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header]
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v.length > 0 && v !== 'identity')
}

/** A stream Fastify's body reader accepts from a preParsing hook (it counts the encoded bytes). */
export type DecodedBody = Readable & { readonly receivedEncodedLength: number }

/**
 * `source` decoded through `coding`, ending in an error as soon as the decoded bytes pass `limit`
 * (413 PAYLOAD_TOO_LARGE). Then the decoder is destroyed and unpiped, so a small compressed body that
 * inflates to gigabytes (a zip bomb) costs the limit in memory and the time to inflate that much,
 * not the rest; the unread rest of the body is discarded by `drainUnreadBody`. Bytes that are not
 * valid `coding` end it in 422 VALIDATION_ERROR. `receivedEncodedLength` is the compressed size read
 * so far, which Fastify checks against `Content-Length` and the limit.
 */
export function decodeBody(source: Readable, coding: string, limit: number): DecodedBody {
  const decoder = DECODERS[coding]!()
  let decoded = 0
  const stop = () => {
    source.unpipe(decoder)
    decoder.destroy()
  }
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      decoded += chunk.length
      if (decoded <= limit) return callback(null, chunk)
      stop()
      callback(
        new EngramError(
          'PAYLOAD_TOO_LARGE',
          `The request body is over the ${limit}-byte limit once decoded (${coding}).`,
        ),
      )
    },
  })
  decoder.on('error', (error) => {
    stop()
    out.destroy(
      new EngramError('VALIDATION_ERROR', `The body is not valid ${coding} data.`, {
        status: 422,
        detail: [
          { loc: ['body'], msg: `not valid ${coding} data`, type: 'content_encoding_invalid' },
        ],
        cause: error,
      }),
    )
  })
  // Fastify listens while it reads the body; an answer that does not read it (415 for the content
  // type, 401) leaves the stream unread, and a late error then must not be unhandled.
  out.on('error', () => {})
  Object.defineProperty(out, 'receivedEncodedLength', { get: () => decoder.bytesWritten })
  source.pipe(decoder).pipe(out)
  return out as unknown as DecodedBody
}

/** Whether Fastify reads a body for this request (its methods with a body, and some bytes sent). */
function hasBody(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false
  const length = request.headers['content-length']
  return (
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  )
}

/**
 * preParsing: a request body sent with `Content-Encoding: gzip` (or `x-gzip`, `deflate`) is decoded
 * before any parser reads it, and the body limit bounds the decoded size (`decodeBody`). Any other
 * coding, more than one, or a coded multipart body (its parser reads the raw request, so it cannot be
 * handed the decoded stream) answers 415 UNSUPPORTED_MEDIA_TYPE. Without a body nothing is checked:
 * Fastify reads none.
 */
export function registerBodyDecoding(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const codings = contentCodings(request.headers['content-encoding'])
    if (codings.length === 0 || !hasBody(request)) return done(null, payload)
    const coding = codings[0]!
    const multipart = /^\s*multipart\//i.test(request.headers['content-type'] ?? '')
    if (codings.length > 1 || DECODERS[coding] === undefined || multipart) {
      const what = multipart ? `a multipart body with Content-Encoding` : 'Content-Encoding'
      return done(
        new EngramError(
          'UNSUPPORTED_MEDIA_TYPE',
          `The server does not read ${what}: ${codings.join(', ')}.`,
          { resolution: RESOLUTION },
        ),
      )
    }
    done(null, decodeBody(payload, coding, request.routeOptions.bodyLimit))
  })
}
