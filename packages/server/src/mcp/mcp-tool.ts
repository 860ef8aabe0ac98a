import type { FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import type { EngramClient } from '@engram/client'

/** What a tool sees of the MCP request that called it. */
export interface ToolContext {
  /** The HTTP request that carried the MCP message: headers, `principal`, `ip`, `id`. */
  readonly request: FastifyRequest
  /**
   * The REST API in-process (@engram/client over `app.inject`) with the caller's token and brain
   * headers; `brain` (a tool's `brain_id`) is used when the connection sends no X-Brain-ID. Calls
   * resolve to the 2xx body and throw the client's EngramError, which the server turns back into the
   * route's error (same code, status, detail and resolution).
   */
  client(brain?: string): EngramClient
}

/**
 * An MCP tool: a zod object for its input (advertised as JSON Schema and validated before `run`) and a
 * handler returning the structured result. Throw an EngramError for a tool error; anything else is
 * reported as INTERNAL_ERROR without internals.
 */
export interface McpTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: z.ZodObject
  readonly annotations: ToolAnnotations
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<Record<string, unknown>>
}

/** Types a tool's handler by its input schema. */
export function defineTool<S extends z.ZodObject>(tool: {
  name: string
  title: string
  description: string
  input: S
  annotations: ToolAnnotations
  run(args: z.output<S>, ctx: ToolContext): Promise<Record<string, unknown>>
}): McpTool {
  return tool as unknown as McpTool
}

/** Annotations of a tool that only reads the brain. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
}

/** structuredContent must be an object: arrays and scalars from REST are wrapped under `key`. */
export function asObject(value: unknown, key = 'result'): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { [key]: value }
}
