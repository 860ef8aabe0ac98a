import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { maskToken, type Engram } from '@engram/core'
import { defineRoute } from './define-route.js'

const brainWire = z.object({ id: z.string(), name_key: z.string(), pat: z.string() })
const brainParams = z.object({ brain_id: z.string().min(1).max(200) })

/** `/system/*` (CONTRACT.md section 9): the system token only. */
export function systemRoutes(app: FastifyInstance, engram: Engram) {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/system/brains',
      operationId: 'system_create_brain',
      tag: 'system',
      summary: 'Create a brain',
      description:
        'Creates a brain and returns its token in `pat`. This is the only time the token is shown; only its hash is stored.',
      auth: 'system',
      body: z.object({ brain_id: z.string().min(1).max(200) }),
      success: { 201: brainWire },
      errors: [409],
    },
    async (request, reply) => {
      const { record, token } = await engram.brains.create(request.body.brain_id)
      return reply.status(201).send({ id: record.id, name_key: record.nameKey, pat: token })
    },
  )

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/system/brains-list',
      operationId: 'system_list_brains',
      tag: 'system',
      summary: 'List brains',
      description:
        'Every brain, oldest first. Tokens are masked as `spat_…` + their last four characters.',
      auth: 'system',
      success: { 200: z.array(brainWire) },
    },
    async () =>
      (await engram.brains.list()).map((b) => ({
        id: b.id,
        name_key: b.nameKey,
        pat: maskToken(b.tokenLast4),
      })),
  )

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/system/brains/:brain_id',
      operationId: 'system_delete_brain',
      tag: 'system',
      summary: 'Delete a brain',
      description:
        'Deletes every record, index and vector of the brain and returns what was removed. The default brain cannot be deleted.',
      auth: 'system',
      params: brainParams,
      success: {
        200: z.object({
          brain_id: z.string(),
          deleted: z.literal(true),
          removed: z.record(z.string(), z.number()),
        }),
      },
      errors: [400, 404],
    },
    async (request) => {
      const removed = await engram.brains.delete(request.params.brain_id)
      return { brain_id: request.params.brain_id, deleted: true as const, removed: { ...removed } }
    },
  )

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/system/brains/:brain_id/rotate-token',
      operationId: 'system_rotate_brain_token',
      tag: 'system',
      summary: 'Rotate a brain token',
      description:
        'Issues a new token for the brain (returned once); the previous token stops working at once.',
      auth: 'system',
      params: brainParams,
      success: { 200: brainWire },
      errors: [404],
    },
    async (request) => {
      const { record, token } = await engram.brains.rotateToken(request.params.brain_id)
      return { id: record.id, name_key: record.nameKey, pat: token }
    },
  )
}
