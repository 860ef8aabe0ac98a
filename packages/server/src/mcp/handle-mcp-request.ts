import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'

/** The request headers the transport reads; credentials stay out of the SDK's request info. */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
] as const

/**
 * Answers one Streamable HTTP POST statelessly: a fresh server and transport per request (the SDK's
 * guidance for stateless mode: a shared transport would mix up JSON-RPC ids of different clients),
 * with JSON responses rather than an SSE stream since every tool answers at once. The Fastify body is
 * handed over already parsed, and the Web `Response` is replayed on the Fastify reply so the usual
 * hooks (X-Request-ID, logging) still apply.
 */
export async function handleMcpRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  server: Server,
): Promise<FastifyReply> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  try {
    await server.connect(transport)
    const headers = new Headers()
    for (const name of TRANSPORT_HEADERS) {
      const value = request.headers[name]
      if (typeof value === 'string') headers.set(name, value)
    }
    const response = await transport.handleRequest(
      new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers }),
      { parsedBody: request.body },
    )
    void reply.status(response.status)
    response.headers.forEach((value, name) => void reply.header(name, value))
    const body = await response.text()
    return reply.send(body.length > 0 ? body : undefined)
  } finally {
    await server.close()
  }
}
