import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { MIXED_SEQUENCE, runMixedLoad } from './mixed-load.js'
import { mixedRequests } from './mixed-load-requests.js'

let server: Server | undefined
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
)

/** A stand-in server: searches answer after 1 ms, everything else after 5 ms; records what it got. */
async function fakeServer() {
  const seen: { method: string; url: string; token: string | undefined; body: string }[] = []
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        token: req.headers.servicepat as string,
        body,
      })
      const search = req.url!.startsWith('/retrieve/search')
      const status = req.method === 'POST' ? (req.url === '/ingest/' ? 202 : 201) : 200
      const answer =
        req.url === '/model/entity' && req.method === 'POST'
          ? [{ uuid: `u${seen.length}` }]
          : { ok: true }
      setTimeout(
        () =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
        search ? 1 : 5,
      )
    })
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen }
}

describe('runMixedLoad', () => {
  it('keeps the 7/2/1 mix on every connection and reports each kind on its own', async () => {
    const { url, seen } = await fakeServer()
    const r = await runMixedLoad(
      url,
      'token',
      mixedRequests(['q one', 'q two'], ['a turn']),
      MIXED_SEQUENCE,
      1,
      4,
    )
    const by = Object.fromEntries(r.ops.map((o) => [o.op, o]))
    const total = r.ops.reduce((n, o) => n + o.requests, 0)
    expect(total).toBeGreaterThan(50)
    // Each connection cycles through 10 requests, so the shares are within one cycle per connection of 70/20/10.
    expect(Math.abs(by.search!.requests - 0.7 * total)).toBeLessThanOrEqual(4 * 7)
    expect(Math.abs(by.ingest!.requests - 0.2 * total)).toBeLessThanOrEqual(4 * 2)
    expect(by.search!.statuses).toEqual({ 200: by.search!.requests })
    expect(by.ingest!.statuses).toEqual({ 202: by.ingest!.requests })
    // Searches are answered in 1 ms, the rest in 5: the per-kind percentiles keep them apart.
    expect(by.search!.latency.p50).toBeLessThan(by.ingest!.latency.p50)
    expect(seen.every((s) => s.token === 'token')).toBe(true)
    // A model write alternates: create an entity, then update the one it created.
    const updates = seen.filter((s) => s.method === 'PUT')
    expect(updates.length).toBeGreaterThan(0)
    expect(JSON.parse(updates[0]!.body)).toMatchObject({ uuid: expect.stringMatching(/^u\d+$/) })
    expect(seen.find((s) => s.url.startsWith('/retrieve/search'))!.url).toContain('query=q%20one')
  })

  it('sends only searches for the searches-alone phase', async () => {
    const { url, seen } = await fakeServer()
    const r = await runMixedLoad(url, 't', mixedRequests(['q'], ['x']), ['search'], 0.3, 2)
    expect(r.ops.map((o) => o.op)).toEqual(['search'])
    expect(seen.every((s) => s.method === 'GET')).toBe(true)
  })
})
