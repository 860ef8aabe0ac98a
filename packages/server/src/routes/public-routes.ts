import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Engram } from '@engram/core'
import { defineRoute } from './define-route.js'

/** `/health` and `/demo/search` (CONTRACT.md section 8): no credentials. */
export function publicRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/health',
      operationId: 'public_health',
      tag: 'public',
      summary: 'Liveness',
      description: 'Liveness check. Touches nothing but memory.',
      auth: 'public',
      success: {
        200: z.object({
          service: z.literal('engram'),
          status: z.literal('ok'),
          version: z.string(),
        }),
      },
    },
    async () => ({ service: 'engram' as const, status: 'ok' as const, version: engram.version }),
  )
}
