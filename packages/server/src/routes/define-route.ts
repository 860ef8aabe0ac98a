import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import type { RouteAuth } from '../plugins/auth.js'
import { BRAIN_ROUTE_ERRORS, errorResponses, unavailableDescription } from '../schemas/common.js'

type Schema = z.ZodType

/** A success response in another media type than JSON (the change stream's `text/event-stream`). */
export interface ContentResponse {
  description: string
  content: Record<string, { schema: Schema }>
}

export interface RouteSpec<Q extends Schema, B extends Schema, P extends Schema> {
  method: HTTPMethods
  url: string
  operationId: string
  tag: string
  summary: string
  description: string
  auth: RouteAuth
  querystring?: Q
  body?: B
  params?: P
  /**
   * Request headers to validate and document (keys lower case, as Node gives them). Use a loose
   * object: the validated value replaces `request.headers`, so a strict one would drop the others.
   */
  headers?: z.ZodObject
  /** Success responses by status: a JSON body's schema, or the response with its media types. */
  success: Record<number, Schema | ContentResponse>
  /**
   * Extra error statuses this route answers. The usual ones are added: by `auth`; 413 and 415 for a
   * method that carries a body; 503 for every route (see `unavailableWhen`).
   */
  errors?: number[]
  /**
   * What else than shutting down makes this route answer 503 (every route does while the server
   * closes, plugins/closing-guard.ts): `embedder`, it embeds at request time (a query, an entity's
   * text) and the embedder is down or past its deadline; `queue`, it enqueues a task and the brain's
   * share of the task queue is full. The reasons go into the 503's description.
   */
  unavailableWhen?: ('embedder' | 'queue')[]
  /**
   * A multipart/form-data route: the handler parses the body itself (this schema only documents it,
   * openapi-transforms.ts) and selects the brain after reading its fields (a `brain_id` part may name it).
   */
  multipartBody?: z.ZodObject
}

type Infer<S> = S extends Schema ? z.output<S> : undefined

export type RouteHandler<Q, B, P> = (
  request: FastifyRequest & { query: Infer<Q>; body: Infer<B>; params: Infer<P> },
  reply: FastifyReply,
) => Promise<unknown>

const SECURITY: { [name: string]: string[] }[] = [{ ServicePAT: [] }, { BearerAuth: [] }]

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route submits a task (`unavailableWhen: ['queue']`): its requests do not hold tasks back (app.ts). */
    submitsTask?: boolean
  }
}

/**
 * Methods whose body Fastify reads: any of them can answer 413 (over the body limit, also after
 * decoding a compressed body) and 415 (a content type or encoding the server does not read), whether
 * or not the operation documents a body.
 */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

function errorStatuses(auth: RouteAuth, method: HTTPMethods, extra: number[] = []): number[] {
  const body = BODY_METHODS.has(method) ? [413, 415] : []
  const common = [...body, 503, ...extra]
  if (auth === 'public') return [404, 405, ...common]
  if (auth === 'brain') return [...BRAIN_ROUTE_ERRORS, ...common]
  return [401, 403, 405, ...common]
}

/**
 * Registers one operation, schema-first: the same zod schemas validate the request and describe it in
 * the OpenAPI document, with its operationId, security and error responses (STYLE item 10).
 */
export function defineRoute<Q extends Schema, B extends Schema, P extends Schema>(
  app: FastifyInstance,
  spec: RouteSpec<Q, B, P>,
  handler: RouteHandler<Q, B, P>,
): void {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: spec.method,
    url: spec.url,
    config: {
      auth: spec.auth,
      ...(spec.multipartBody ? { multipartBrain: true, multipartBody: spec.multipartBody } : {}),
      ...(spec.unavailableWhen?.includes('queue') ? { submitsTask: true } : {}),
    },
    schema: {
      operationId: spec.operationId,
      tags: [spec.tag],
      summary: spec.summary,
      description: spec.description,
      security: spec.auth === 'public' ? [] : SECURITY,
      ...(spec.querystring ? { querystring: spec.querystring } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.multipartBody ? { consumes: ['multipart/form-data'] } : {}),
      response: {
        ...spec.success,
        ...errorResponses(errorStatuses(spec.auth, spec.method, spec.errors), {
          503: unavailableDescription(spec.unavailableWhen ?? []),
        }),
      },
    },
    handler: handler as never,
  })
}
