import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { type Engram, type Records } from '@engram/core'
import { brainIdQuery } from '../schemas/common.js'
import { defineRoute } from './define-route.js'

/** `/meta/*` (CONTRACT.md section 5). */
export function metaRoutes(app: FastifyInstance, engram: Engram) {
  const records = engram.records
  const list = (
    url: string,
    operationId: string,
    description: string,
    read: (records: Records, brainId: string) => Promise<string[]>,
  ) =>
    defineRoute(
      app,
      {
        method: 'GET',
        url,
        operationId,
        tag: 'meta',
        summary: description,
        description: `${description}, sorted. The brain is \`default\` when none is selected.`,
        auth: 'brain',
        querystring: z.object(brainIdQuery),
        success: { 200: z.array(z.string()) },
      },
      async (request) => read(records, request.brainId),
    )

  list(
    '/meta/entity-labels',
    'meta_entity_labels',
    'Distinct node labels of the brain',
    (r, brainId) => r.entityLabels(brainId),
  )
  list(
    '/meta/entity-properties',
    'meta_entity_properties',
    'Distinct property keys used by entities',
    (r, brainId) => r.entityPropertyKeys(brainId),
  )
  list(
    '/meta/relationships-properties',
    'meta_relationships_properties',
    'Distinct relationship type names',
    (r, brainId) => r.relationshipNames(brainId),
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/meta/login-info',
      operationId: 'meta_login_info',
      tag: 'meta',
      summary: 'Scope of the caller’s token',
      description:
        'Tells whether the token is the system token (reported with brain `default`) or scoped to one brain. Takes no brain selection.',
      auth: 'login',
      success: { 200: z.object({ brain_id: z.string(), is_system_pat: z.boolean() }) },
    },
    async (request) =>
      request.principal?.kind === 'brain'
        ? { brain_id: request.principal.brainId, is_system_pat: false }
        : { brain_id: engram.defaultBrain ?? 'default', is_system_pat: true },
  )
}
