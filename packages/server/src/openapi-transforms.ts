import type { FastifyContextConfig } from 'fastify'
import { z } from 'zod'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A multipart/form-data body the handler reads itself: documented, never validated. */
    multipartBody?: z.ZodObject
  }
}

type Json = Record<string, unknown>
type RouteTransform = typeof jsonSchemaTransform
type ObjectTransform = typeof jsonSchemaTransformObject

const X_BRAIN_ID = {
  type: 'object',
  properties: {
    'X-Brain-ID': {
      type: 'string',
      description:
        'Selects the brain (preferred over the `brain_id` fallbacks). A brain token selects its own brain without it.',
    },
  },
}

/**
 * The per-route transform: zod schemas to JSON Schema (fastify-type-provider-zod), then what zod
 * cannot say. Brain-scoped operations declare the optional `X-Brain-ID` header (spec section 4: every
 * authenticated operation but `/meta/login-info`, `/meta/search-plugins` (which name no brain: their routes
 * say `auth` other than `brain`) and `/system/*`; the public ones take no brain), and
 * a multipart operation gets its documented body. Both are documentation only: the auth plugin reads
 * `X-Brain-ID` and the handler parses the parts, so neither goes through validation.
 */
export const documentRoute: RouteTransform = (document) => {
  const result = jsonSchemaTransform(document)
  const config = (document.route.config ?? {}) as FastifyContextConfig
  const schema = result.schema as Json
  if (schema.hide === true) return result
  if (config.auth === 'brain') {
    // Beside the headers the route validates itself (the change stream's Last-Event-ID).
    const own = (schema.headers as { properties?: Json } | undefined)?.properties
    schema.headers = { ...X_BRAIN_ID, properties: { ...X_BRAIN_ID.properties, ...own } }
  }
  if (config.multipartBody !== undefined) {
    schema.body = z.toJSONSchema(config.multipartBody, { target: 'draft-2020-12', io: 'input' })
    delete (schema.body as Json).$schema
  }
  return result
}

/** Response headers every operation (`X-Request-ID`) or every 429/503 (`Retry-After`) sends. */
const HEADERS = {
  'X-Request-ID': {
    description:
      'The request id: the inbound X-Request-ID when it is a UUID, else a new UUID v4. Equals `error.request_id` in an error body.',
    schema: { type: 'string', format: 'uuid' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (429 and 503 only).',
    schema: { type: 'integer', minimum: 0 },
  },
}
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` })

/**
 * The document transform: component schemas from the zod registry (fastify-type-provider-zod), the
 * shared response headers, and no component that nothing references (each registered schema comes as
 * an input and an output variant; the routes use one of them).
 */
export const documentObject: ObjectTransform = (document) => {
  const doc = jsonSchemaTransformObject(document) as Json & {
    paths: Record<string, Record<string, { responses?: Record<string, Json> }>>
    components: Json & { schemas?: Record<string, unknown> }
  }
  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = {
          ...(response.headers as Json | undefined),
          'X-Request-ID': headerRef('X-Request-ID'),
          ...(status === '429' || status === '503'
            ? { 'Retry-After': headerRef('Retry-After') }
            : {}),
        }
      }
    }
  }
  doc.components = {
    ...doc.components,
    headers: HEADERS,
    schemas: referenced(doc, doc.components.schemas ?? {}),
  }
  return doc
}

/** The component schemas reachable from the paths (following `$ref`s between components). */
function referenced(doc: Json, schemas: Record<string, unknown>): Record<string, unknown> {
  const prefix = '#/components/schemas/'
  const keep = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (typeof node !== 'object' || node === null) return
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(prefix)) {
        const name = value.slice(prefix.length)
        if (!keep.has(name)) {
          keep.add(name)
          visit(schemas[name])
        }
      } else visit(value)
    }
  }
  visit(doc.paths)
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => keep.has(name)))
}
