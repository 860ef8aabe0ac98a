import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import { EngramError } from '@engram/core'
import { sendError } from '../plugins/error-envelope.js'
import { restCaller } from './rest-call.js'

let app: FastifyInstance
const seen: { headers: Record<string, unknown>; ip: string; url: string }[] = []

beforeAll(async () => {
  app = Fastify()
  app.addHook('onRequest', async (request) => {
    seen.push({ headers: request.headers, ip: request.ip, url: request.url })
  })
  app.get('/api/pending', (request, reply) =>
    sendError(request, reply, new EngramError('NOT_IMPLEMENTED')),
  )
  app.get('/api/busy', (request, reply) =>
    sendError(
      request,
      reply,
      new EngramError('SERVICE_UNAVAILABLE', 'Queue full.', { retryAfter: 5 }),
    ),
  )
  app.get('/api/plain', (_request, reply) => reply.status(502).send('bad gateway'))
  app.post('/api/echo', async (request) => ({ query: request.query, body: request.body }))
  await app.ready()
})
afterAll(async () => {
  await app.close()
})

/** The parts of the MCP request a REST call reads. */
const mcpRequest = (headers: Record<string, string>) =>
  ({ id: '6f1c1f3e-9a56-4a4b-8f3c-2f0c8d2b9a10', ip: '203.0.113.7', headers }) as FastifyRequest

describe('restCaller', () => {
  it('rebuilds the route’s EngramError: a 501 is NOT_IMPLEMENTED, Retry-After is kept', async () => {
    const rest = restCaller(app, mcpRequest({}), { basePath: '/api', forwardCredentials: true })
    await expect(rest({ method: 'GET', path: '/pending' })).rejects.toMatchObject({
      code: 'NOT_IMPLEMENTED',
      status: 501,
    })
    await expect(rest({ method: 'GET', path: '/busy' })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      message: 'Queue full.',
      retryAfter: 5,
    })
    // Anything that is not an envelope is an internal error, never leaked.
    await expect(rest({ method: 'GET', path: '/plain' })).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      status: 500,
    })
  })

  it('forwards credentials, brain header, request id and client address; lists as repeated keys', async () => {
    seen.length = 0
    const headers = { authorization: 'Bearer spat_x', 'x-brain-id': 'alpha', cookie: 'c=1' }
    const rest = restCaller(app, mcpRequest(headers), {
      basePath: '/api',
      forwardCredentials: true,
    })
    const echoed = await rest({
      method: 'POST',
      path: '/echo',
      query: { brain_id: 'beta', labels: ['A', 'B'], k: 3, skip: undefined },
      body: { text: 'hi' },
    })
    expect(echoed).toEqual({
      query: { brain_id: 'beta', labels: ['A', 'B'], k: '3' },
      body: { text: 'hi' },
    })
    expect(seen[0]).toMatchObject({
      ip: '203.0.113.7',
      headers: {
        authorization: 'Bearer spat_x',
        'x-brain-id': 'alpha',
        'x-request-id': '6f1c1f3e-9a56-4a4b-8f3c-2f0c8d2b9a10',
      },
    })
    expect(seen[0]!.headers.cookie).toBeUndefined()
  })

  it('forwards no credentials for the public server', async () => {
    seen.length = 0
    const headers = { servicepat: 'spat_x', authorization: 'Bearer spat_x', 'x-brain-id': 'alpha' }
    const rest = restCaller(app, mcpRequest(headers), {
      basePath: '/api',
      forwardCredentials: false,
    })
    await rest({ method: 'POST', path: '/echo', body: {} })
    expect(Object.keys(seen[0]!.headers)).not.toContain('servicepat')
    expect(Object.keys(seen[0]!.headers)).not.toContain('authorization')
    expect(Object.keys(seen[0]!.headers)).not.toContain('x-brain-id')
  })
})
