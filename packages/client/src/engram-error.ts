import type { components } from './generated/engram-api.js'

/** The server's error codes, from the document's `ErrorEnvelope`. */
export type ServerErrorCode = components['schemas']['ErrorEnvelope']['error']['code']

/**
 * Codes the client adds for failures that never reached an envelope: the server could not be reached,
 * a task wait timed out, or the server answered something that is not the contract's envelope.
 */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'UNEXPECTED_RESPONSE'

/** What the server answered, field for field, in the contract's envelope `{ detail, error }`. */
type ErrorEnvelope = components['schemas']['ErrorEnvelope']

/**
 * A failed call. `code`, `resolution` and `request_id` come from the contract's error envelope (match on
 * `code`, never on `message`); `status` is the HTTP status (0 when no response arrived). `retryAfter` is
 * the `Retry-After` header in seconds for 429 and 503, after the client's own retries ran out.
 */
export class EngramError extends Error {
  override readonly name = 'EngramError'
  readonly status: number
  readonly code: ServerErrorCode | ClientErrorCode
  readonly resolution: string
  /** Equals the response's `X-Request-ID`; quote it when reporting a problem. */
  readonly request_id: string | null
  /** The envelope's legacy `detail` (for 422, a list of `{ loc, msg, type }`). */
  readonly detail: unknown
  readonly retryAfter: number | null

  constructor(init: {
    status: number
    code: ServerErrorCode | ClientErrorCode
    message: string
    resolution: string
    request_id?: string | null
    detail?: unknown
    retryAfter?: number | null
    cause?: unknown
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause })
    this.status = init.status
    this.code = init.code
    this.resolution = init.resolution
    this.request_id = init.request_id ?? null
    this.detail = init.detail ?? null
    this.retryAfter = init.retryAfter ?? null
  }

  /** The error a non-2xx response stands for; `body` is what openapi-fetch parsed (`error`). */
  static fromResponse(response: Response, body: unknown): EngramError {
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'), Date.now())
    const requestId = response.headers.get('x-request-id')
    if (isEnvelope(body)) {
      return new EngramError({
        status: response.status,
        code: body.error.code,
        message: body.error.message,
        resolution: body.error.resolution,
        request_id: body.error.request_id,
        detail: body.detail,
        retryAfter,
      })
    }
    return new EngramError({
      status: response.status,
      code: 'UNEXPECTED_RESPONSE',
      message: `HTTP ${response.status} without the contract's error envelope`,
      resolution: 'Check that the base URL points at an Engram server (including any BASE_PATH).',
      request_id: requestId,
      retryAfter,
    })
  }
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'string' && typeof error.message === 'string'
}

/**
 * `Retry-After` in seconds: either delay-seconds or an HTTP date (RFC 9110 section 10.2.3). Null when
 * absent or unreadable; never negative.
 */
export function retryAfterSeconds(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null
  const text = header.trim()
  if (/^\d+$/.test(text)) return Number(text)
  const date = Date.parse(text)
  if (Number.isNaN(date)) return null
  return Math.max(0, Math.ceil((date - now) / 1000))
}
