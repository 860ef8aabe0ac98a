import { DEFAULT_SINGLE_VALUED } from '@engram/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

let t: TestApp
beforeEach(async () => {
  t = await buildTestApp()
})
afterEach(async () => {
  await t.close()
})

const settings = (method: 'GET' | 'PUT', brain: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/system/brains/${brain}/settings`,
    headers: t.system,
    ...(payload === undefined ? {} : { payload: payload as object }),
  })

describe('/system/brains/{brain_id}/settings', () => {
  it('reads and sets the BM25 override, applied to the brain at once', async () => {
    const before = await settings('GET', 'default')
    expect(before.statusCode).toBe(200)
    expect(before.json()).toEqual({
      brain_id: 'default',
      bm25: { variant: 'bm25+', k1: 2, b: 0.5, delta: 1 },
      overrides: { bm25: {} },
      expiry: {},
      temporal: { single_valued_predicates: DEFAULT_SINGLE_VALUED, overrides: {} },
    })
    const put = await settings('PUT', 'default', { bm25: { variant: 'lucene', k1: 0.9, b: 0.4 } })
    expect(put.statusCode).toBe(200)
    expect(put.json()).toEqual({
      brain_id: 'default',
      bm25: { variant: 'lucene', k1: 0.9, b: 0.4, delta: 0 },
      overrides: { bm25: { variant: 'lucene', k1: 0.9, b: 0.4 } },
      expiry: {},
      temporal: { single_valued_predicates: DEFAULT_SINGLE_VALUED, overrides: {} },
    })
    expect((await t.engram.indexes.get('default')).passages.settings).toEqual(put.json().bm25)
    const cleared = await settings('PUT', 'default', { bm25: null })
    expect(cleared.json().bm25).toEqual(before.json().bm25)
  })

  it('sets and clears the expiry default, leaving the BM25 override as it was', async () => {
    await settings('PUT', 'default', { bm25: { k1: 1.1 } })
    const set = await settings('PUT', 'default', { expiry: { default_ttl: 3600 } })
    expect(set.statusCode).toBe(200)
    expect(set.json()).toMatchObject({
      overrides: { bm25: { k1: 1.1 } },
      expiry: { default_ttl: 3600 },
    })
    expect((await settings('GET', 'default')).json().expiry).toEqual({ default_ttl: 3600 })
    const cleared = await settings('PUT', 'default', { expiry: { default_ttl: null } })
    expect(cleared.json().expiry).toEqual({})
    const zero = await settings('PUT', 'default', { expiry: { default_ttl: 0 } })
    expect(zero.statusCode).toBe(400)
    expect(envelope(zero.body).error.code).toBe('VALIDATION_ERROR')
    expect(zero.body).toContain('default_ttl')
    for (const body of [{ expiry: { default_ttl: '60' } }, { expiry: { ttl: 60 } }]) {
      const res = await settings('PUT', 'default', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(422)
    }
    await settings('PUT', 'default', { bm25: null })
  })

  it('answers 400 for out-of-range values, 422 for malformed ones, 404 for unknown brains', async () => {
    const range = await settings('PUT', 'default', { bm25: { b: 1.5 } })
    expect(range.statusCode).toBe(400)
    expect(envelope(range.body).error.code).toBe('VALIDATION_ERROR')
    expect(range.body).toContain('b must be in [0, 1]')
    for (const body of [{ bm25: { variant: 'okapi' } }, { bm25: { k1: '1' } }, { other: 1 }]) {
      const res = await settings('PUT', 'default', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(422)
    }
    expect((await settings('GET', 'missing')).statusCode).toBe(404)
    expect((await settings('PUT', 'missing', { bm25: {} })).statusCode).toBe(404)
    const brainToken = await t.app.inject({
      method: 'GET',
      url: '/system/brains/default/settings',
      headers: { ServicePAT: 'spat_not_the_system_token' },
    })
    expect(brainToken.statusCode).toBe(401)
  })
})
