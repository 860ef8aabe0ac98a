import type { Schema } from './schema-values.js'

export interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  schema: Schema
}

/** One operation of the OpenAPI document, or an MCP tool (reached by JSON-RPC on its endpoint). */
export interface Operation {
  id: string
  method: string
  /** OpenAPI path template, e.g. `/tasks/{task_id}`. */
  path: string
  parameters: Parameter[]
  body: { type: 'json' | 'multipart'; schema: Schema } | null
  /** Set for MCP tools: the tool name, called with a JSON-RPC `tools/call` on `path`. */
  tool?: string
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string
        parameters?: Parameter[]
        requestBody?: { content?: Record<string, { schema?: Schema }> }
      }
    >
  >
}

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch'])

/**
 * Every operation of the server's own OpenAPI document with its parameters and request body schema.
 * `/ingest/file` is multipart whether or not the document declares its body yet.
 */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.has(method)) continue
      const content = op.requestBody?.content ?? {}
      const json = content['application/json']?.schema
      const multipart = content['multipart/form-data']?.schema
      const body =
        multipart !== undefined || op.operationId === 'ingest_file'
          ? { type: 'multipart' as const, schema: multipart ?? {} }
          : json !== undefined
            ? { type: 'json' as const, schema: json }
            : null
      out.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body,
      })
    }
  }
  return out
}

/** The tools of an MCP server's `tools/list` as operations on its endpoint. */
export function toolOperations(
  endpoint: string,
  tools: { name: string; inputSchema: Schema }[],
): Operation[] {
  return tools.map((tool) => ({
    id: `mcp ${endpoint} ${tool.name}`,
    method: 'POST',
    path: endpoint,
    parameters: [],
    body: { type: 'json', schema: tool.inputSchema },
    tool: tool.name,
  }))
}
