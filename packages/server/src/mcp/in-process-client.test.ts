import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import type { EngramError as ClientError } from '@engram/client'
import { EngramError } from '@engram/core'
import { sendError } from '../plugins/error-envelope.js'
import { fromClientError, inProcessClient } from './in-process-client.js'

let app: FastifyInstance
const seen: { headers: Record<string, unknown>; ip: string; url: string }[] = []

/** Spec paths on a bare app (under BASE_PATH `/api`), answering what each test needs. */
beforeAll(async () => {
  app = Fastify()
  app.addHook('onRequest', async (request) => {
    seen.push({ headers: request.headers, ip: request.ip, url: request.url })
  })
  app.get<{ Params: { id: string } }>('/api/tasks/:id', (request, reply) => {
    if (request.params.id === 'pending')
      return sendError(request, reply, new EngramError('NOT_IMPLEMENTED'))
    if (request.params.id === 'busy') {
      return sendError(
        request,
        reply,
        new EngramError('SERVICE_UNAVAILABLE', 'Queue full.', { retryAfter: 5 }),
      )
    }
    return reply.status(502).send('bad gateway')
  })
  app.get('/api/retrieve/entities', async (request) => ({ query: request.query }))
  app.post('/api/retrieve/search', async (request) => ({ body: request.body }))
  await app.ready()
})
afterAll(async () => {
  await app.close()
})

/** The parts of the MCP request a REST call reads. */
const mcpRequest = (headers: Record<string, string>) =>
  ({ id: '6f1c1f3e-9a56-4a4b-8f3c-2f0c8d2b9a10', ip: '203.0.113.7', headers }) as FastifyRequest

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (error: unknown) => fromClientError(error as ClientError),
  )

describe('inProcessClient', () => {
  it('rebuilds the route’s EngramError once, without retrying: 501, 503 with Retry-After', async () => {
    const client = inProcessClient(app, mcpRequest({}), {
      basePath: '/api',
      forwardCredentials: true,
    })()
    seen.length = 0
    const task = (task_id: string) =>
      client.GET('/tasks/{task_id}', { params: { path: { task_id } } })
    await expect(failure(task('pending'))).resolves.toMatchObject({
      code: 'NOT_IMPLEMENTED',
      status: 501,
    })
    await expect(failure(task('busy'))).resolves.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      message: 'Queue full.',
      retryAfter: 5,
    })
    expect(seen).toHaveLength(2)
    // Anything that is not an envelope is an internal error, never leaked.
    await expect(failure(task('plain'))).resolves.toMatchObject({
      code: 'INTERNAL_ERROR',
      status: 500,
    })
  })

  it('forwards credentials, brain header, request id and client address; lists as repeated keys', async () => {
    seen.length = 0
    const headers = { authorization: 'Bearer spat_x', cookie: 'c=1' }
    const client = inProcessClient(app, mcpRequest(headers), {
      basePath: '/api',
      forwardCredentials: true,
    })('beta')
    const echoed = await client.GET('/retrieve/entities', {
      params: { query: { node_labels: ['A', 'B'], limit: 3 } },
    })
    expect(echoed).toEqual({ query: { node_labels: ['A', 'B'], limit: '3' } })
    expect(await client.POST('/retrieve/search', { body: { query: 'hi' } })).toEqual({
      body: { query: 'hi' },
    })
    expect(seen[0]).toMatchObject({
      ip: '203.0.113.7',
      headers: {
        authorization: 'Bearer spat_x',
        'x-brain-id': 'beta',
        'x-request-id': '6f1c1f3e-9a56-4a4b-8f3c-2f0c8d2b9a10',
      },
    })
    expect(seen[0]!.headers.cookie).toBeUndefined()
  })

  it('lets the connection’s X-Brain-ID win over the brain_id argument', async () => {
    seen.length = 0
    const client = inProcessClient(app, mcpRequest({ 'x-brain-id': 'alpha' }), {
      basePath: '/api',
      forwardCredentials: true,
    })('beta')
    await client.POST('/retrieve/search', { body: { query: 'hi' } })
    expect(seen[0]!.headers['x-brain-id']).toBe('alpha')
  })

  it('forwards no credentials for the public server', async () => {
    seen.length = 0
    const headers = { servicepat: 'spat_x', authorization: 'Bearer spat_x', 'x-brain-id': 'alpha' }
    const client = inProcessClient(app, mcpRequest(headers), {
      basePath: '/api',
      forwardCredentials: false,
    })()
    await client.POST('/retrieve/search', { body: { query: 'hi' } })
    expect(Object.keys(seen[0]!.headers)).not.toContain('servicepat')
    expect(Object.keys(seen[0]!.headers)).not.toContain('authorization')
    expect(Object.keys(seen[0]!.headers)).not.toContain('x-brain-id')
  })
})
