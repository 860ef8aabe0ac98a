import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Engram } from '@engram/core'
import { brainServer, docsServer, type McpServerSpec } from './mcp-servers.js'
import { inProcessClient } from './in-process-client.js'
import type * as McpSdkParts from './mcp-sdk-parts.js'

export interface McpRoutesOptions {
  engram: Engram
  /** Where the REST routes are mounted (BASE_PATH); the tools call them there. */
  basePath: string
}

/** RFC 9110: a 401 names its scheme. Only the MCP routes add it; MCP clients look for it. */
async function bearerChallenge(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode === 401) void reply.header('WWW-Authenticate', 'Bearer realm="engram"')
  return payload
}

/**
 * The MCP SDK's server side, loaded by the first MCP request: it is about a third of the server's
 * start-up imports, and most servers are never asked for MCP. A failed load is retried next time.
 */
let sdk: Promise<typeof McpSdkParts> | null = null
const mcpSdk = () =>
  (sdk ??= import('./mcp-sdk-parts.js').catch((error: unknown) => {
    sdk = null
    throw error
  }))

/**
 * The MCP servers (CONTRACT.md section 10), at the root like `/.well-known` (spec section 1:
 * `{base_url_root}/mcp`), over stateless Streamable HTTP: `POST /mcp` (public documentation search),
 * `POST /mcp/brain` (any token; the tools select the brain as REST does) and the discovery document.
 * GET and DELETE answer 405 (no SSE stream, no session), which MCP clients expect. Not REST, so not in
 * the OpenAPI document.
 */
export function mcpRoutes(app: FastifyInstance, { engram, basePath }: McpRoutesOptions) {
  const docs = docsServer(engram.version)
  const brain = brainServer(engram.version, engram)
  let discovery: ReturnType<typeof McpSdkParts.mcpDiscovery> | undefined
  const serve = (spec: McpServerSpec, forwardCredentials: boolean) =>
    async function (request: FastifyRequest, reply: FastifyReply) {
      const { createMcpServer, handleMcpRequest } = await mcpSdk()
      const client = inProcessClient(app, request, { basePath, forwardCredentials })
      return handleMcpRequest(
        request,
        reply,
        createMcpServer(spec.info, spec.tools, { request, client }),
      )
    }

  app.get(
    '/.well-known/mcp.json',
    { schema: { hide: true }, config: { auth: 'public' } },
    async () => (discovery ??= (await mcpSdk()).mcpDiscovery(docs, brain)),
  )
  // Credentials sent to the public server are ignored and never forwarded (CONTRACT.md section 8).
  app.post(
    docs.endpoint,
    { schema: { hide: true }, config: { auth: 'public' } },
    serve(docs, false),
  )
  app.post(
    brain.endpoint,
    { schema: { hide: true }, config: { auth: 'login' }, onSend: bearerChallenge },
    serve(brain, true),
  )
}
