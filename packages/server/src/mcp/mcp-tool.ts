import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import type { EngramClient } from '@engram/client'
import { compactResult } from './compact-result.js'

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
 * An MCP tool: a zod object for its input (advertised as JSON Schema and validated before `run`), one
 * for its result (advertised as `outputSchema`), and a handler returning the structured result,
 * compacted (`compactResult`). Throw an EngramError for a tool error; anything else is reported as
 * INTERNAL_ERROR without internals.
 */
export interface McpTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: z.ZodObject
  /** The compacted result; the structured content of every successful call validates against it. */
  readonly output: z.ZodObject
  readonly annotations: ToolAnnotations
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<Record<string, unknown>>
}

/** What a tool definition gives; `defineTool` adds `include_ids` and the compaction. */
export interface ToolSpec<S extends z.ZodObject> {
  name: string
  title: string
  description: string
  input: S
  output: z.ZodObject
  /**
   * Keys the result leaves out unless the call sets `include_ids` (`compactResult`'s `omit`: `key`
   * anywhere, `parent.key` inside `parent`). A tool with ids gets the `include_ids` argument.
   */
  ids?: readonly string[]
  annotations: ToolAnnotations
  /** The result as REST (or core) gives it: `defineTool` compacts it. */
  run(args: z.output<S>, ctx: ToolContext): Promise<Record<string, unknown>>
}

/**
 * Types a tool's handler by its input schema, and makes its result compact: no null or empty field,
 * scores to 3 significant digits, ids only when asked for. The output schema's required top-level
 * fields are kept even when empty (`hits: []`).
 */
export function defineTool<S extends z.ZodObject>(spec: ToolSpec<S>): McpTool {
  const omit = new Set(spec.ids ?? [])
  const keep = new Set(
    Object.entries(spec.output.shape)
      .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
      .map(([key]) => key),
  )
  const input = omit.size === 0 ? spec.input : spec.input.extend({ include_ids: includeIds(omit) })
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input,
    output: spec.output,
    annotations: spec.annotations,
    run: async (args, ctx) => {
      const { include_ids: withIds = false, ...rest } = args
      const result = await spec.run(rest as z.output<S>, ctx)
      return compactResult(result, { omit: withIds === true ? ALL_IDS : omit, keep })
    },
  }
}

const ALL_IDS: ReadonlySet<string> = new Set()

function includeIds(ids: ReadonlySet<string>) {
  return z
    .boolean()
    .optional()
    .describe(
      `Also return ids (${[...ids].join(', ')}), left out by default to keep the result short.`,
    )
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
