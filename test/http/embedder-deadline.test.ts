import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createEngine,
  hashToken,
  memoryAdapter,
  scheduledEmbedder,
  type Embedder,
  type Engram,
} from '@engram/core'
import { buildApp } from '@engram/server'

/*
 * Issue 11 point 1: with the embedder jammed, POST /model/entity answered 500 after 60 s and a search
 * that needs a query embedding 500 after 30 s. The server's embedder is a `scheduledEmbedder`: a call
 * someone waits for gets 503 with Retry-After once its deadline passes (10 s in the server; 300 ms here).
 */

const TOKEN = 'spat_embedder-deadline-token-0123456789'
const headers = { ServicePAT: TOKEN }

/** A 4-d embedder that answers at once until `jam()`, then never (until its signal aborts). */
function jammableEmbedder(): Embedder & { jam(): void } {
  let jammed = false
  return {
    kind: 'embedder',
    name: 'jammable',
    dimension: 4,
    embed(texts, signal) {
      if (!jammed) return Promise.resolve(texts.map((t) => Float32Array.of(1, t.length, 0, 0)))
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      )
    },
    jam: () => (jammed = true),
  }
}

let engram: Engram
let app: Awaited<ReturnType<typeof buildApp>>
const inner = jammableEmbedder()

beforeAll(async () => {
  const embedder = scheduledEmbedder(inner, { concurrency: 1, interactiveDeadlineMs: 300 })
  engram = createEngine({
    storage: memoryAdapter(),
    version: '0.0.0-test',
    systemTokenHash: hashToken(TOKEN),
    embedder,
  })
  await engram.start()
  app = await buildApp({ engram })
  // Vectors exist, so a passages search embeds its query.
  await app.inject({
    method: 'POST',
    url: '/model/entity',
    headers,
    payload: { name: 'Ada Lovelace' },
  })
  inner.jam()
})
afterAll(async () => {
  await app.close()
  await engram.stop({ graceMs: 100 })
})

describe('a jammed embedder (issue 11 point 1)', () => {
  it('answers /model/entity with 503 and Retry-After at its deadline', async () => {
    const started = performance.now()
    const res = await app.inject({
      method: 'POST',
      url: '/model/entity',
      headers,
      payload: { name: 'Charles Babbage' },
    })
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE')
  })

  it('answers a search that needs a query embedding with 503 and Retry-After', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/retrieve/search?query=who%20wrote%20programs&channels=entities',
      headers,
    })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('5')
    // Lexical search never waits for the embedder.
    const lexical = await app.inject({
      method: 'GET',
      url: '/demo/search?query=brain',
    })
    expect(lexical.statusCode).toBe(200)
  })
})
