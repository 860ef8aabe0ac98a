import type { FastifyInstance, FastifyRequest } from 'fastify'
import { EngramError, ERROR_CODES, type ErrorCode } from '@engram/core'
import type { RestCall } from './mcp-tool.js'

/** Headers that carry the caller's identity and brain selection to REST. */
const CREDENTIAL_HEADERS = ['servicepat', 'authorization', 'x-brain-id'] as const

interface Envelope {
  detail?: unknown
  error?: { code?: string; message?: string; resolution?: string }
}

function queryString(query: RestCall['query']): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v))
  }
  const text = params.toString()
  return text.length > 0 ? `?${text}` : ''
}

/** Rebuilds the EngramError a REST route answered with, so the tool error carries the same code. */
function restError(status: number, body: string, retryAfter: string | undefined): EngramError {
  let envelope: Envelope = {}
  try {
    envelope = JSON.parse(body) as Envelope
  } catch {
    // Not an envelope: reported as an internal error below.
  }
  const code = envelope.error?.code
  if (code === undefined || !(ERROR_CODES as string[]).includes(code)) {
    return new EngramError('INTERNAL_ERROR', undefined, {
      cause: new Error(`REST answered ${status} without an error envelope`),
    })
  }
  return new EngramError(code as ErrorCode, envelope.error?.message, {
    status,
    detail: envelope.detail,
    ...(envelope.error?.resolution !== undefined ? { resolution: envelope.error.resolution } : {}),
    ...(retryAfter !== undefined && Number.isFinite(Number(retryAfter))
      ? { retryAfter: Number(retryAfter) }
      : {}),
  })
}

/**
 * Calls REST routes in-process (`app.inject`) on behalf of an MCP request, so a tool has exactly the
 * route's authentication, brain selection, validation and errors. The caller's address is kept (the
 * demo rate limiter counts per client) and its request id is reused, so an error's `request_id` is the
 * `X-Request-ID` of the MCP response. The public docs server forwards no credentials.
 */
export function restCaller(
  app: FastifyInstance,
  request: FastifyRequest,
  options: { basePath: string; forwardCredentials: boolean },
): (call: RestCall) => Promise<unknown> {
  const forwarded: Record<string, string> = { 'x-request-id': request.id }
  if (options.forwardCredentials) {
    for (const name of CREDENTIAL_HEADERS) {
      const value = request.headers[name]
      if (typeof value === 'string') forwarded[name] = value
    }
  }
  return async (call) => {
    const response = await app.inject({
      method: call.method,
      url: `${options.basePath}${call.path}${queryString(call.query)}`,
      headers: { ...forwarded, ...call.headers },
      remoteAddress: request.ip,
      ...(call.body !== undefined ? { payload: call.body } : {}),
    })
    if (response.statusCode >= 200 && response.statusCode < 300) {
      return response.body.length > 0 ? (JSON.parse(response.body) as unknown) : null
    }
    const retryAfter = response.headers['retry-after']
    throw restError(
      response.statusCode,
      response.body,
      typeof retryAfter === 'string' ? retryAfter : undefined,
    )
  }
}
