import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import { toolDefinition } from './create-mcp-server.js'
import type { McpServerSpec } from './mcp-servers.js'

const TRANSPORT = 'streamable-http'

const summary = (spec: McpServerSpec, authentication: Record<string, unknown>) => ({
  name: spec.info.name,
  title: spec.info.title,
  endpoint: spec.endpoint,
  transport: TRANSPORT,
  authentication,
  tools: spec.tools.map((t) => t.name),
})

/**
 * `/.well-known/mcp.json`: the public server (name, version, endpoint, transport, tools with their
 * input schemas) and a summary of both servers. Endpoints are paths, resolved against the address the
 * document was fetched from, so they stay right behind a TLS-terminating proxy.
 */
export function mcpDiscovery(docs: McpServerSpec, brain: McpServerSpec) {
  return {
    name: docs.info.name,
    title: docs.info.title,
    version: docs.info.version,
    description: docs.info.instructions,
    endpoint: docs.endpoint,
    transport: TRANSPORT,
    stateless: true,
    protocol_versions: SUPPORTED_PROTOCOL_VERSIONS,
    authentication: { type: 'none' },
    tools: docs.tools.map(toolDefinition),
    servers: [
      summary(docs, { type: 'none' }),
      summary(brain, {
        type: 'token',
        headers: ['Authorization: Bearer <token>', 'ServicePAT: <token>'],
        brain_selection: 'X-Brain-ID header, else the brain_id tool argument',
      }),
    ],
  }
}
