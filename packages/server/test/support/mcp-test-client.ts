import type { FastifyInstance } from 'fastify'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

/** Listens on an ephemeral port of the loopback interface; returns the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' })
}

/** The official SDK client over Streamable HTTP, connected (initialized) to `path`. */
export async function connect(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'engram-test', version: '0.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(path, base), { requestInit: { headers } }),
  )
  return client
}

/** The REST error envelope a failed tool call carries in its structured content. */
export interface ToolErrorContent {
  status: number
  detail: unknown
  error: { code: string; message: string; resolution: string; request_id: string }
  retry_after?: number
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult
}

/** Calls a tool that must succeed; returns its structured content. */
export async function ok<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = await call(client, name, args)
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`)
  return result.structuredContent as T
}

/** Calls a tool that must fail; returns the error envelope. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolErrorContent> {
  const result = await call(client, name, args)
  if (!result.isError)
    throw new Error(`${name} succeeded: ${JSON.stringify(result.structuredContent)}`)
  return result.structuredContent as unknown as ToolErrorContent
}
