import type { FastifyInstance } from 'fastify'
import type { z } from 'zod'
import type { Records } from '@engram/core'
import { defineRoute } from './define-route.js'

type Schema = z.ZodType

/**
 * One read-only record route of a brain (`/retrieve/*` lists and lookups, `/meta/*`), declared as data:
 * its path and schemas, the core operation it calls and how the result goes on the wire.
 */
export interface RecordRouteSpec<Q extends Schema, P extends Schema, T> {
  url: string
  operationId: string
  tag: string
  summary: string
  description: string
  querystring: Q
  /** Path parameters (`/:id` lookups). */
  params?: P
  /** The 200 response. */
  response: Schema
  /** The core operation, on the request's brain. */
  read: (records: Records, brainId: string, query: z.output<Q>, params: z.output<P>) => Promise<T>
  /** The response body for the operation's result (`query` for echoes such as paging). */
  toWire: (result: T, query: z.output<Q>) => unknown
}

/** Registers a record route on `app`, reading through `records`. */
export type RecordRoute = (app: FastifyInstance, records: Records) => void

/** A record route from its declaration (GET, brain-scoped: the brain comes from the request). */
export function recordRoute<Q extends Schema, P extends Schema, T>(
  spec: RecordRouteSpec<Q, P, T>,
): RecordRoute {
  return (app, records) =>
    defineRoute(
      app,
      {
        method: 'GET',
        url: spec.url,
        operationId: spec.operationId,
        tag: spec.tag,
        summary: spec.summary,
        description: spec.description,
        auth: 'brain',
        querystring: spec.querystring,
        ...(spec.params ? { params: spec.params } : {}),
        success: { 200: spec.response },
      },
      async (request) =>
        spec.toWire(
          await spec.read(
            records,
            request.brainId,
            request.query as z.output<Q>,
            request.params as z.output<P>,
          ),
          request.query as z.output<Q>,
        ),
    )
}
