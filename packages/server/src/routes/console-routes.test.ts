import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, envelope, type TestApp } from '../../test/support/test-app.js'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ basePath: '/api' })
})
afterAll(async () => {
  await t.close()
})

describe('the console at /console', () => {
  it('redirects /console to /console/ under BASE_PATH, keeping relative asset URLs right', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/console' })
    expect(response.statusCode).toBe(308)
    expect(response.headers.location).toBe('/api/console/')
  })

  it('serves the page, its bundle and its stylesheet with no token, locked to its own origin', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/console/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'")
    // Every script and stylesheet the page names is served from the package, none from elsewhere.
    const urls = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    // An inline `data:` URL (the empty favicon) fetches nothing; everything else is a file of ours.
    const assets = urls.filter((url) => !url.startsWith('data:'))
    expect(assets.length).toBeGreaterThanOrEqual(2)
    for (const asset of assets) {
      expect(asset).toMatch(/^\.\//)
      const response = await t.app.inject({ method: 'GET', url: `/api/console/${asset.slice(2)}` })
      expect(response.statusCode, asset).toBe(200)
    }
    const bundle = await t.app.inject({ method: 'GET', url: '/api/console/console.js' })
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(bundle.body).not.toMatch(/https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.(com|net|org|io)\//i)
  })

  it('answers an unknown file with the 404 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/console/secrets.env' })
    expect(response.statusCode).toBe(404)
    expect(envelope(response.body).error.code).toBe('RESOURCE_NOT_FOUND')
  })
})
