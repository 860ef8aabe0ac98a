import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoRateLimiter } from '@engram/server'
import { runTour } from '../../packages/client/examples/tour.js'
import { listeningApp, SYSTEM_TOKEN, type ListeningApp } from '../support/listening-app.js'

/**
 * Issue 15: a program written only with @engram/client (packages/client/examples/tour.ts) runs every
 * operation group of the spec against a real server on a socket. The demo limiter here allows 3
 * searches a minute and then blocks for 1 s (the server's own: 30 a minute, then 60 s), so the tour's
 * burst of 4 gets a 429 whose Retry-After the client waits out before trying again.
 */
let server: ListeningApp
beforeAll(async () => {
  server = await listeningApp({
    storage: 'sqlite',
    demoRateLimiter: createDemoRateLimiter({ max: 3, windowMs: 60_000, blockMs: 1_000 }),
  })
})
afterAll(async () => {
  await server?.close()
})

describe('the @engram/client tour', () => {
  it('calls every operation of the spec, retrying a rate-limited demo search after Retry-After', async () => {
    const started = Date.now()
    const report = await runTour({
      baseUrl: server.url,
      systemToken: SYSTEM_TOKEN,
      brain: 'tour',
      demoBurst: 4,
    })
    expect(report.retried429).toBe(1)
    // The fourth search waited the server’s Retry-After (1 s) before its retry succeeded.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    const operationIds = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    )
    expect(operationIds.filter((id) => !report.operations.includes(id))).toEqual([])
    expect(operationIds.length).toBeGreaterThanOrEqual(46)
  })
})
