// The parts of the MCP routes that load @modelcontextprotocol/sdk, imported together on first use
// (mcp-routes.ts).
export { createMcpServer } from './create-mcp-server.js'
export { handleMcpRequest } from './handle-mcp-request.js'
export { mcpDiscovery } from './mcp-discovery.js'
