import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { BrainStore, Engram } from '@engram/core'
import { brainIdQuery } from '../schemas/common.js'
import { defineRoute } from './define-route.js'

/** `/meta/*` (CONTRACT.md section 5). */
export function metaRoutes(app: FastifyInstance, engram: Engram) {
  const list = (
    url: string,
    operationId: string,
    description: string,
    read: (store: BrainStore) => Promise<string[]>,
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
      async (request) => read(await engram.store(request.brainId)),
    )

  list('/meta/entity-labels', 'meta_entity_labels', 'Distinct node labels of the brain', (s) =>
    s.entityLabels(),
  )
  list(
    '/meta/entity-properties',
    'meta_entity_properties',
    'Distinct property keys used by entities',
    (s) => s.entityPropertyKeys(),
  )
  list(
    '/meta/relationships-properties',
    'meta_relationships_properties',
    'Distinct relationship type names',
    (s) => s.relationshipNames(),
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
