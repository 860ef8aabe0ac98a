import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { EngramError as ClientError } from '@engram/client'
import { createEngramClient, type EngramClient } from '@engram/client'
import { EngramError, ERROR_CODES, type ErrorCode } from '@engram/core'

/** Headers that carry the caller's identity and brain selection to REST. */
const CREDENTIAL_HEADERS = ['servicepat', 'authorization', 'x-brain-id'] as const

/** The origin the in-process client pretends to call; only the path and query reach the app. */
const ORIGIN = 'http://engram.internal'

/**
 * `fetch` for @engram/client that answers through `app.inject`: a tool's call goes through the route's
 * authentication, brain selection, validation and errors without a socket. The MCP caller's address
 * is kept (the demo rate limiter counts per client) and its request id is reused, so an error's
 * `request_id` is the `X-Request-ID` of the MCP response. Credentials are forwarded only for the brain
 * server; the public docs server forwards none.
 */
function injectFetch(
  app: FastifyInstance,
  request: FastifyRequest,
  forwardCredentials: boolean,
): (call: Request) => Promise<Response> {
  const forwarded: Record<string, string> = { 'x-request-id': request.id }
  if (forwardCredentials) {
    for (const name of CREDENTIAL_HEADERS) {
      const value = request.headers[name]
      if (typeof value === 'string') forwarded[name] = value
    }
  }
  return async (call) => {
    const url = new URL(call.url)
    const headers: Record<string, string> = {}
    call.headers.forEach((value, name) => {
      headers[name] = value
    })
    const body = call.body === null ? undefined : Buffer.from(await call.arrayBuffer())
    const response = await app.inject({
      method: call.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: `${url.pathname}${url.search}`,
      // The connection's headers win over what the tool sets (X-Brain-ID before the brain_id argument).
      headers: { ...headers, ...forwarded },
      remoteAddress: request.ip,
      ...(body !== undefined ? { payload: body } : {}),
    })
    const responseHeaders = new Headers()
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders.set(name, String(value))
    }
    const empty = response.statusCode === 204 || response.rawPayload.length === 0
    return new Response(empty ? null : response.rawPayload, {
      status: response.statusCode,
      headers: responseHeaders,
    })
  }
}

/**
 * The REST API for one MCP request, through @engram/client over `app.inject`. `brain` is the tool's
 * `brain_id` argument, sent as X-Brain-ID unless the connection sent its own. No retries: a 429 or 503
 * goes back to the MCP caller, whose client applies the spec's retry rule.
 */
export function inProcessClient(
  app: FastifyInstance,
  request: FastifyRequest,
  options: { basePath: string; forwardCredentials: boolean },
): (brain?: string) => EngramClient {
  const fetch = injectFetch(app, request, options.forwardCredentials)
  const base = createEngramClient({
    baseUrl: `${ORIGIN}${options.basePath}`,
    fetch,
    retry: { retries: 0 },
  })
  return (brain) => (brain === undefined ? base : base.withBrain(brain))
}

/**
 * The route's error as the engine's EngramError (same code, status, detail, resolution, Retry-After),
 * so a tool error carries what REST would have answered. What is not an envelope of a known code is an
 * internal error, never leaked.
 */
export function fromClientError(error: ClientError): EngramError {
  if (!(ERROR_CODES as string[]).includes(error.code)) {
    return new EngramError('INTERNAL_ERROR', undefined, {
      cause: new Error(`REST answered ${error.status} without an error envelope`),
    })
  }
  return new EngramError(error.code as ErrorCode, error.message, {
    status: error.status,
    detail: error.detail,
    resolution: error.resolution,
    ...(error.retryAfter !== null ? { retryAfter: error.retryAfter } : {}),
  })
}
