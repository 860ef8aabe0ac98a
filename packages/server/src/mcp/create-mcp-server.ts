import { z } from 'zod'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { EngramError as ClientError } from '@engram/client'
import { EngramError, isEngramError } from '@engram/core'
import { toEngramError } from '../plugins/error-envelope.js'
import { customIssueType } from '../schemas/free-form-map.js'
import { fromClientError } from './in-process-client.js'
import type { McpTool, ToolContext } from './mcp-tool.js'
import { toolErrorOutput } from './tool-outputs.js'

export interface McpServerInfo {
  name: string
  title: string
  version: string
  /** Told to the client at initialization: what the server is for and how to use its tools. */
  instructions: string
}

const definitions = new WeakMap<McpTool, Tool>()

/**
 * The tool as `tools/list` describes it: its input and output as JSON Schema (draft 2020-12, MCP's
 * default dialect).
 */
export function toolDefinition(tool: McpTool): Tool {
  let definition = definitions.get(tool)
  if (definition === undefined) {
    const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input' })
    definition = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchema as Tool['inputSchema'],
      outputSchema: toolOutputSchema(tool) as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations },
    }
    definitions.set(tool, definition)
  }
  return definition
}

/**
 * A tool's `outputSchema`: its result or, for a failed call, the error envelope. The envelope is in
 * the schema because a failed call carries it as structured content too, and the SDK's Client (1.x)
 * validates structured content against the output schema even when `isError` is set
 * (modelcontextprotocol/typescript-sdk#1943): with a success-only schema, every tool error would reach
 * the agent as a schema violation instead of its code and resolution. Objects are left open
 * (`additionalProperties` unset) so that a field REST adds later does not fail validating clients;
 * `closed` keeps zod's `additionalProperties: false`, for tests that the schema lists every field.
 */
export function toolOutputSchema(tool: McpTool, { closed = false } = {}): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(z.union([tool.output, toolErrorOutput]), {
    io: 'output',
  })
  return { type: 'object', ...(tidy(schema, closed) as typeof schema) }
}

/**
 * Leaves out what says nothing to a client and costs every `tools/list` bytes: integers' safe-integer
 * bounds, `propertyNames: {type: string}` (JSON keys are strings), `additionalProperties: {}` (the
 * default), and unless `closed`, `additionalProperties: false` (records keep their value schemas).
 */
function tidy(node: unknown, closed: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item, closed))
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && isAny(value)) continue
    if (key === 'additionalProperties' && value === false && !closed) continue
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === MAX_SAFE) continue
    if (key === 'propertyNames' && isStringType(value)) continue
    out[key] = tidy(value, closed)
  }
  return out
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER
const isStringType = (schema: unknown) => JSON.stringify(schema) === '{"type":"string"}'
const isAny = (schema: unknown) => JSON.stringify(schema) === '{}'

/** A failed tool call: the REST error envelope (same code, status and resolution) as structured content. */
export function toolError(error: EngramError, requestId: string): CallToolResult {
  const envelope = {
    status: error.status,
    detail: error.detail,
    error: {
      code: error.code,
      message: error.message,
      resolution: error.resolution,
      request_id: requestId,
    },
    ...(error.retryAfter !== undefined ? { retry_after: error.retryAfter } : {}),
  }
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope,
  }
}

/** Input validation mirrors REST's 422: `detail` lists `{loc, msg, type}` under `arguments`. */
function invalidArguments(error: z.ZodError): EngramError {
  return new EngramError('VALIDATION_ERROR', 'The tool arguments failed validation.', {
    status: 422,
    detail: error.issues.map((issue) => ({
      loc: ['arguments', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      msg: issue.message,
      // A custom check (a free-form map's limits) names its own type.
      type: customIssueType(issue) ?? issue.code,
    })),
  })
}

async function callTool(tool: McpTool, args: unknown, ctx: ToolContext): Promise<CallToolResult> {
  try {
    const parsed = tool.input.safeParse(args ?? {})
    if (!parsed.success) throw invalidArguments(parsed.error)
    const result = await tool.run(parsed.data, ctx)
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
    }
  } catch (thrown) {
    const error = thrown instanceof ClientError ? fromClientError(thrown) : thrown
    // REST already logged its own failures; only what broke in the tool itself is logged here.
    if (!isEngramError(error))
      ctx.request.log.error({ err: error, tool: tool.name }, 'MCP tool failed')
    return toolError(toEngramError(error), ctx.request.id)
  }
}

let validator: AjvJsonSchemaValidator | undefined

/**
 * One MCP server for one HTTP request (stateless Streamable HTTP). It uses the SDK's low-level
 * `Server` rather than `McpServer` so that invalid arguments come back as tool errors with REST's
 * VALIDATION_ERROR code and `{loc, msg, type}` detail; McpServer reports them as plain text.
 */
export function createMcpServer(info: McpServerInfo, tools: McpTool[], ctx: ToolContext): Server {
  validator ??= new AjvJsonSchemaValidator()
  const server = new Server(
    { name: info.name, title: info.title, version: info.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: info.instructions,
      // Only used for elicitation, which these servers never send; one instance spares an Ajv per request.
      jsonSchemaValidator: validator,
    },
  )
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(toolDefinition) }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name)
    if (tool === undefined) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool '${request.params.name}'. Use one of: ${[...byName.keys()].join(', ')}.`,
      )
    }
    return callTool(tool, request.params.arguments, ctx)
  })
  return server
}
