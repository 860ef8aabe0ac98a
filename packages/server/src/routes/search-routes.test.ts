import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngine, hashToken, memoryAdapter, type ChannelPlugin } from '@engram/core'
import { buildApp } from '../app.js'
import { createDemoRateLimiter } from '../plugins/demo-rate-limit.js'
import { buildTestApp, envelope, SYSTEM_TOKEN, type TestApp } from '../../test/support/test-app.js'

let t: TestApp
beforeEach(async () => {
  t = await buildTestApp()
  await t.engram.commit('default', {
    passages: [
      {
        id: 'p1',
        text: 'Emily organized the AI Ethics Meetup in London.',
        metadata: { dia_id: 'D1:1' },
        insertedAt: '2025-01-01T00:00:00.000Z',
        brainVersion: 't',
        source: null,
        position: 0,
        start: 0,
        end: 10,
      },
      {
        id: 'p2',
        text: 'Bob went hiking in the Alps.',
        metadata: { dia_id: 'D1:2' },
        insertedAt: '2025-01-01T00:00:00.000Z',
        brainVersion: 't',
        source: null,
        position: 1,
        start: 0,
        end: 10,
      },
    ],
  })
})
afterEach(async () => {
  await t.close()
})

describe('/retrieve/search', () => {
  it('answers GET and POST with every response field', async () => {
    const get = await t.app.inject({
      method: 'GET',
      url: '/retrieve/search?query=ethics%20meetup&profile_stages=true',
      headers: t.system,
    })
    expect(get.statusCode).toBe(200)
    const body = get.json()
    expect(body.hits[0]).toMatchObject({
      id: 'p1',
      node_id: 'p1',
      channel: 'passages',
      labels: ['PASSAGE'],
      extras: { dia_id: 'D1:1' },
    })
    expect(body.hits[0].snippet.length).toBeLessThanOrEqual(240)
    expect(body).toMatchObject({
      node_ids: ['p1'],
      channel_lists: { bm25: ['p1'] },
      facets: { dia_id: { 'D1:1': 1 } },
    })
    expect(body.stage_timings.stages.length).toBeGreaterThan(0)
    const post = await t.app.inject({
      method: 'POST',
      url: '/retrieve/search',
      headers: t.system,
      payload: { query: 'ethics hiking', extras: { dia_id: 'd1:2' } },
    })
    expect(post.json().hits.map((h: { id: string }) => h.id)).toEqual(['p2'])
    expect(post.json().stage_timings).toEqual({})
  })

  it('400 for unknown fusion, channel or rerank; 422 for k out of bounds', async () => {
    for (const q of ['fusion=linear', 'channels=nope', 'rerank=plugin:nope', 'rerank=linear']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/retrieve/search?query=x&${q}`,
        headers: t.system,
      })
      expect(res.statusCode, q).toBe(400)
      expect(envelope(res.body).error.code).toBe('VALIDATION_ERROR')
    }
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/retrieve/search?query=x&channels=nope',
          headers: t.system,
        })
      ).json().error.message,
    ).toContain('passages')
    for (const k of [0, 201]) {
      expect(
        (
          await t.app.inject({
            method: 'GET',
            url: `/retrieve/search?query=x&k=${k}`,
            headers: t.system,
          })
        ).statusCode,
      ).toBe(422)
    }
  })

  it('shows a registered plugin channel as plugin:<name>', async () => {
    const plugin: ChannelPlugin = {
      kind: 'channel',
      name: 'fixed',
      yields: 'passages',
      search: async () => [{ name: 'fixed', signal: 'plugin', items: [{ id: 'q1', score: 7 }] }],
    }
    const engram = createEngine({
      storage: memoryAdapter(),
      version: 't',
      systemTokenHash: hashToken(SYSTEM_TOKEN),
      plugins: [plugin],
    })
    await engram.start()
    await engram.commit('default', {
      passages: [
        {
          id: 'q1',
          text: 'anything',
          metadata: {},
          insertedAt: '2025-01-01T00:00:00.000Z',
          brainVersion: 't',
          source: null,
          position: 0,
          start: 0,
          end: 8,
        },
      ],
    })
    const app = await buildApp({ engram })
    const res = await app.inject({
      method: 'GET',
      url: '/retrieve/search?query=zzz&channels=passages,plugin:fixed',
      headers: { ServicePAT: SYSTEM_TOKEN },
    })
    expect(res.json().channel_lists['plugin:fixed']).toEqual(['q1'])
    expect(res.json().hits[0]).toMatchObject({
      id: 'q1',
      channel: 'plugin:fixed',
      scores: { plugin: { fixed: 7 } },
    })
    await app.close()
    await engram.stop()
  })
})

describe('/demo/search', () => {
  it('searches the documentation without credentials and validates k', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/demo/search?query=error%20envelope&k=3',
      headers: { ServicePAT: 'ignored' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().hits.length).toBeGreaterThan(0)
    expect(res.json().hits[0].extras.title).toMatch(/\.md$/)
    expect(
      (await t.app.inject({ method: 'GET', url: '/demo/search?query=x&k=11' })).statusCode,
    ).toBe(422)
    expect((await t.app.inject({ method: 'GET', url: '/demo/search?query=' })).statusCode).toBe(422)
  })

  it('allows 30 requests a minute per client, then 429 with Retry-After for 60 s', async () => {
    let now = 1_000_000
    const engram = createEngine({ storage: memoryAdapter(), version: 't' })
    await engram.start()
    const app = await buildApp({
      engram,
      demoRateLimiter: createDemoRateLimiter({ now: () => now }),
    })
    for (let i = 0; i < 30; i++)
      expect(
        (await app.inject({ method: 'GET', url: '/demo/search?query=brain' })).statusCode,
      ).toBe(200)
    const limited = await app.inject({ method: 'GET', url: '/demo/search?query=brain' })
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBe('60')
    expect(envelope(limited.body).error.code).toBe('RATE_LIMITED')
    now += 59_000
    expect((await app.inject({ method: 'GET', url: '/demo/search?query=brain' })).statusCode).toBe(
      429,
    )
    now += 2_000
    expect((await app.inject({ method: 'GET', url: '/demo/search?query=brain' })).statusCode).toBe(
      200,
    )
    await app.close()
    await engram.stop()
  })
})
