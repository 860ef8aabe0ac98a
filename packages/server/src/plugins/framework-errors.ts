import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { EngramError } from '@engram/core'
import { envelope, sendError, toEngramError } from './error-envelope.js'

/**
 * After answering a request Node could not parse, how long and how many more bytes the socket is read
 * (and discarded) before it is closed: a client that writes its whole request before reading then
 * finds the answer instead of a connection reset.
 */
const CLIENT_ERROR_DRAIN = { ms: 5_000, bytes: 16 * 1024 * 1024 }

const ANSWERED = Symbol('engram.clientErrorAnswered')

type ClientSocket = Socket & {
  [ANSWERED]?: number
  /** Node's in-flight response on this socket, if any. */
  _httpMessage?: { headersSent?: boolean } | null
}

/** The envelope for an error Node's HTTP parser raised before any request existed. */
function clientError(error: NodeJS.ErrnoException): EngramError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new EngramError('HEADERS_TOO_LARGE')
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new EngramError('REQUEST_TIMEOUT')
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new EngramError('PAYLOAD_TOO_LARGE', 'The chunk extensions are over the size limit.', {
        resolution: 'Send chunked bodies without chunk extensions.',
      })
    default:
      return new EngramError('VALIDATION_ERROR', 'The request is not valid HTTP/1.1.', {
        status: 400,
        resolution: 'Send a well-formed HTTP/1.1 request (request line, headers, body framing).',
      })
  }
}

/**
 * Fastify's `clientErrorHandler`: the error envelope, with an X-Request-ID, for what Node's parser
 * rejects (oversize headers or URL: 431; oversize chunk extensions: 413; malformed requests: 400;
 * timeouts: 408). Fastify's default writes a bare JSON body and destroys the socket at once, so a
 * client still writing its request saw a reset. Here the socket is half-closed after the answer and
 * read until the client closes, for at most CLIENT_ERROR_DRAIN; the parser reports each further
 * chunk as another error, ignored here.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, rawSocket: Socket): void {
  const socket = rawSocket as ClientSocket
  if (socket[ANSWERED] !== undefined) {
    if (socket.bytesRead - socket[ANSWERED] > CLIENT_ERROR_DRAIN.bytes) socket.destroy()
    return
  }
  socket[ANSWERED] = socket.bytesRead
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  // A response already under way on this socket cannot be followed by another one.
  if (!socket.writable || socket._httpMessage?.headersSent === true) {
    socket.destroy()
    return
  }
  const engramError = clientError(error)
  const requestId = randomUUID()
  const body = JSON.stringify(envelope(engramError, requestId))
  socket.write(
    `HTTP/1.1 ${engramError.status} ${STATUS_CODES[engramError.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-ID: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
  socket.end()
  const timer = setTimeout(() => socket.destroy(), CLIENT_ERROR_DRAIN.ms)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}

/**
 * Fastify's `frameworkErrors`: router failures before any route runs, in the envelope (onSend hooks do
 * not run for them, so X-Request-ID is set here). A bad %-encoding in the path: 400; a path parameter
 * over `maxParamLength`: 414.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.header('X-Request-ID', request.id)
  void sendError(request, reply, toEngramError(error))
}

/**
 * onRequest: HTTP/1.1 requires a Host header (RFC 9112 section 3.2). Node's own check answers a bare
 * 400 without the envelope, so the server turns it off (`requireHostHeader: false`) and checks here.
 */
export function requireHost(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined)
    return done(
      new EngramError('VALIDATION_ERROR', 'The request has no Host header.', {
        status: 400,
        resolution: 'Send a Host header, as HTTP/1.1 requires.',
      }),
    )
  done()
}
