import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { z } from 'zod'
import type { RouteAuth } from '../plugins/auth.js'
import { BRAIN_ROUTE_ERRORS, errorResponses } from '../schemas/common.js'

type Schema = z.ZodType

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
  /** Success responses by status. */
  success: Record<number, Schema>
  /** Extra error statuses this route answers (the usual ones are added by `auth`). */
  errors?: number[]
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

function errorStatuses(auth: RouteAuth, extra: number[] = []): number[] {
  if (auth === 'public') return [404, 405, ...extra]
  if (auth === 'brain') return [...BRAIN_ROUTE_ERRORS, ...extra]
  return [401, 403, 405, ...extra]
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
      ...(spec.multipartBody ? { consumes: ['multipart/form-data'] } : {}),
      response: { ...spec.success, ...errorResponses(...errorStatuses(spec.auth, spec.errors)) },
    },
    handler: handler as never,
  })
}
