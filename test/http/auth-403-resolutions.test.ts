import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listeningApp, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 11 item 14: each 403 (`AUTH_INVALID`) says what would work: the system token for `/system/*`,
 * the brain's own token (or the system token) for a brain token naming another brain.
 */
let t: ListeningApp
let notesToken: string

interface Envelope {
  detail: unknown
  error: { code: string; message: string; resolution: string; request_id: string }
}

beforeAll(async () => {
  t = await listeningApp({ storage: 'memory' })
  for (const brain_id of ['notes', 'other']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/system/brains',
      headers: t.headers(),
      payload: { brain_id },
    })
    expect(res.statusCode).toBe(201)
    if (brain_id === 'notes') notesToken = res.json().pat
  }
})
afterAll(async () => {
  await t?.close()
})

describe('403 AUTH_INVALID', () => {
  it('on /system/* with a brain token: the resolution asks for the system token', async () => {
    for (const [method, url, payload] of [
      ['GET', '/system/brains-list', undefined],
      ['POST', '/system/brains', { brain_id: 'third' }],
      ['DELETE', '/system/brains/other', undefined],
      ['POST', '/system/brains/other/rotate-token', undefined],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { Authorization: `Bearer ${notesToken}` },
        ...(payload ? { payload } : {}),
      })
      expect(res.statusCode, `${method} ${url}`).toBe(403)
      const { error } = res.json() as Envelope
      expect(error.code).toBe('AUTH_INVALID')
      expect(error.resolution).toMatch(/system token/)
      expect(error.resolution).not.toMatch(/selected brain/)
    }
  })

  it('with a brain token naming another brain: the resolution points to its own brain', async () => {
    const requests = [
      { method: 'GET', url: '/retrieve/entities', headers: { 'X-Brain-ID': 'other' } },
      { method: 'GET', url: '/retrieve/entities?brain_id=other', headers: {} },
      {
        method: 'POST',
        url: '/retrieve/search',
        headers: {},
        payload: { query: 'x', brain_id: 'other' },
      },
    ] as const
    for (const request of requests) {
      const res = await t.app.inject({
        ...request,
        headers: { ...request.headers, ServicePAT: notesToken },
      })
      expect(res.statusCode, request.url).toBe(403)
      const { error } = res.json() as Envelope
      expect(error.code).toBe('AUTH_INVALID')
      expect(error.message).toMatch(/selected brain/)
      expect(error.resolution).toMatch(/only its own brain/)
      expect(error.resolution).toMatch(/system token/)
    }
    // The same token on its own brain (named, or selected by default) is fine.
    for (const headers of [{ 'X-Brain-ID': 'notes' }, {}]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/retrieve/entities',
        headers: { ...headers, ServicePAT: notesToken },
      })
      expect(res.statusCode).toBe(200)
    }
  })

  it('keeps the 401 resolution about sending a valid token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/system/brains-list',
      headers: { ServicePAT: 'spat_not-a-real-token-000000000000' },
    })
    expect(res.statusCode).toBe(401)
    expect((res.json() as Envelope).error.resolution).toMatch(/valid token/)
  })
})
