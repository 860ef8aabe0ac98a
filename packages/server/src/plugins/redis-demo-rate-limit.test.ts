import net, { type AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createClient } from '@redis/client'
import { createEngine, isEngramError, memoryAdapter } from '@engram/core'
import { createDemoRateLimiter } from './demo-rate-limit.js'
import { buildApp } from '../app.js'
import { buildDocsSearch } from '../docs-brain.js'
import { envelope } from '../../test/support/test-app.js'
import { ensureRedis, REDIS_URL, testKeyPrefix } from '../../test/support/ensure-redis.js'
import { tcpProxy } from '../../test/support/tcp-proxy.js'
import { redactUrl } from '../redact-url.js'
import {
  createRedisDemoRateLimiter,
  type RedisDemoRateLimiter,
  type RedisDemoRateLimitOptions,
} from './redis-demo-rate-limit.js'

const keyPrefix = testKeyPrefix()
const admin = createClient({ url: REDIS_URL })
admin.on('error', () => {})
const opened: { close(): Promise<void> }[] = []

beforeAll(async () => {
  await ensureRedis()
  await admin.connect()
})
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close()
})
afterAll(async () => {
  const keys = await admin.keys(`${keyPrefix}*`)
  if (keys.length > 0) await admin.del(keys)
  await admin.close()
})

/** A limiter on the test Redis (one per simulated process), closed after the test. */
async function limiter(
  options: Partial<RedisDemoRateLimitOptions> = {},
): Promise<RedisDemoRateLimiter> {
  const created = createRedisDemoRateLimiter({ url: REDIS_URL, keyPrefix, ...options })
  opened.push(created)
  await created.connect()
  return created
}

/** The retryAfter of a refused check, or 'passed'. */
async function outcome(check: Promise<void>): Promise<number | 'passed'> {
  try {
    await check
    return 'passed'
  } catch (error) {
    if (isEngramError(error) && error.code === 'RATE_LIMITED') return error.retryAfter ?? NaN
    throw error
  }
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('redis demo rate limiter', () => {
  it('holds one limit across two processes sharing a Redis', async () => {
    const [a, b] = [await limiter({ max: 5 }), await limiter({ max: 5 })]
    for (const check of [a, a, a, b, b])
      expect(await outcome(check.check('10.0.0.1'))).toBe('passed')
    expect(await outcome(a.check('10.0.0.1'))).toBe(60)
    expect(await outcome(b.check('10.0.0.1'))).toBe(60)
    // Another client has its own count.
    expect(await outcome(b.check('10.0.0.2'))).toBe('passed')
  })

  it('lets exactly max through when both processes race', async () => {
    const [a, b] = [await limiter({ max: 5 }), await limiter({ max: 5 })]
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => outcome((i % 2 ? a : b).check('race'))),
    )
    expect(results.filter((r) => r === 'passed')).toHaveLength(5)
  })

  it('blocks a client for blockMs from the refused request, past the end of its window', async () => {
    let now = 1_000_000
    const options = { max: 2, windowMs: 10_000, blockMs: 30_000, now: () => now }
    const [a, b] = [await limiter(options), await limiter(options)]
    expect(await outcome(a.check('blocked'))).toBe('passed')
    now += 5_000
    expect(await outcome(b.check('blocked'))).toBe('passed')
    expect(await outcome(a.check('blocked'))).toBe(30)
    now += 10_000 // the window is over, the block (until 1_035_000) is not
    expect(await outcome(b.check('blocked'))).toBe(20)
    now += 19_500
    expect(await outcome(a.check('blocked'))).toBe(1)
    now += 500
    expect(await outcome(b.check('blocked'))).toBe('passed')
    expect(await outcome(a.check('blocked'))).toBe('passed')
    expect(await outcome(a.check('blocked'))).toBe(30)
  })

  it('admits a client when its block ends, even inside its window: Retry-After tells the truth', async () => {
    let now = 2_000_000
    const options = { max: 1, windowMs: 60_000, blockMs: 1_000, now: () => now }
    for (const check of [(await limiter(options)).check, createDemoRateLimiter(options).check]) {
      const client = `short-block-${now}`
      expect(await outcome(check(client))).toBe('passed')
      expect(await outcome(check(client))).toBe(1)
      now += 1_000
      expect(await outcome(check(client))).toBe('passed')
      expect(await outcome(check(client))).toBe(1)
    }
  })

  it("resets the count when the window ends, on Redis' clock, and keys expire with it", async () => {
    const a = await limiter({ max: 2, windowMs: 300, blockMs: 5_000 })
    expect(await outcome(a.check('window'))).toBe('passed')
    expect(await outcome(a.check('window'))).toBe('passed')
    const ttl = await admin.pTTL(`${keyPrefix}window`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(300)
    await new Promise((resolve) => setTimeout(resolve, 350))
    expect(await admin.exists(`${keyPrefix}window`)).toBe(0)
    expect(await outcome(a.check('window'))).toBe('passed')
    expect(await outcome(a.check('window'))).toBe('passed')
    expect(await outcome(a.check('window'))).toBe(5)
    // Blocked: the key lives as long as the block.
    expect(await admin.pTTL(`${keyPrefix}window`)).toBeGreaterThan(4_000)
  })

  it('uses the engram:demo-rl: namespace by default', async () => {
    const client = `default-prefix-${keyPrefix}`
    const a = createRedisDemoRateLimiter({ url: REDIS_URL })
    opened.push(a)
    await a.connect()
    await a.check(client)
    expect(await admin.hGet(`engram:demo-rl:${client}`, 'count')).toBe('1')
    await admin.del(`engram:demo-rl:${client}`)
  })

  it('refuses to start on an unreachable Redis, naming it without the password', async () => {
    const port = await closedPort()
    const url = `redis://engram:s3cr%3Dt@127.0.0.1:${port}/2`
    const a = createRedisDemoRateLimiter({ url })
    const error = await a.connect().then(
      () => null,
      (e: unknown) => e as Error,
    )
    expect(error?.message).toMatch(
      `REDIS_URL: cannot connect to Redis at redis://127.0.0.1:${port}/2`,
    )
    expect(error?.message).toMatch('ECONNREFUSED')
    expect(error?.message).not.toMatch(/s3cr|engram:/)
    expect(error?.cause).toBeUndefined()
    await a.close()
    expect(() => createRedisDemoRateLimiter({ url: 'not a url with p4ss' })).toThrow(
      /^REDIS_URL: cannot connect to Redis at \(an invalid URL\): Invalid URL$/,
    )
    expect(redactUrl('rediss://:pw@cache.internal:6380/0?x=pw')).toBe(
      'rediss://cache.internal:6380/0',
    )
  })

  it("falls back to the process's own limiter when Redis goes away mid-run, warning once", async () => {
    const proxy = await tcpProxy({
      host: '127.0.0.1',
      port: Number(new URL(REDIS_URL).port || 6379),
    })
    opened.push(proxy)
    const warn = vi.fn()
    const logger = { debug() {}, info() {}, warn, error() {} }
    const a = await limiter({ url: proxy.url, max: 3, logger })
    const b = await limiter({ max: 3 })
    expect(await outcome(a.check('outage'))).toBe('passed')
    await proxy.cut()
    // No 500, no crash: a's checks pass on its local count (1, 2, 3), then its local limit refuses.
    for (let i = 0; i < 3; i++) expect(await outcome(a.check('outage'))).toBe('passed')
    expect(await outcome(a.check('outage'))).toBe(60)
    expect(warn).toHaveBeenCalledTimes(1)
    // Redis holds only the request made before the cut.
    expect(await admin.hGet(`${keyPrefix}outage`, 'count')).toBe('1')
    await proxy.restore()
    // node-redis reconnects in the background, with backoff: once it is ready, a counts in Redis again.
    await a.ready()
    expect(await outcome(a.check('outage-2'))).toBe('passed')
    expect(await admin.hGet(`${keyPrefix}outage-2`, 'count')).toBe('1')
    await b.check('outage')
    await b.check('outage')
    expect(await outcome(a.check('outage'))).toBe(60)
  })

  it('falls back within the command timeout when Redis stops answering', async () => {
    const proxy = await tcpProxy({
      host: '127.0.0.1',
      port: Number(new URL(REDIS_URL).port || 6379),
    })
    opened.push(proxy)
    const a = await limiter({ url: proxy.url, max: 2, commandTimeoutMs: 500 })
    expect(await outcome(a.check('stalled'))).toBe('passed')
    proxy.stall()
    let started = Date.now()
    // Local count 1: passes once the 500 ms are over.
    expect(await outcome(a.check('stalled'))).toBe('passed')
    expect(Date.now() - started).toBeGreaterThanOrEqual(490)
    expect(Date.now() - started).toBeLessThan(2_000)
    // The first command is still unanswered: no second wait.
    started = Date.now()
    expect(await outcome(a.check('stalled'))).toBe('passed')
    expect(await outcome(a.check('stalled'))).toBe(60)
    expect(Date.now() - started).toBeLessThan(400)
    const closing = Date.now()
    await a.close()
    expect(Date.now() - closing).toBeLessThan(2_000)
  })
})

describe('/demo/search with the redis limiter', () => {
  it('answers 429 from either of two apps once the shared limit is spent', async () => {
    const docs = await buildDocsSearch()
    const apps = []
    for (let i = 0; i < 2; i++) {
      const engram = createEngine({ storage: memoryAdapter(), version: 't' })
      await engram.start()
      const app = await buildApp({ engram, docs, demoRateLimiter: await limiter({ max: 3 }) })
      opened.push({
        async close() {
          await app.close()
          await engram.stop()
        },
      })
      apps.push(app)
    }
    const [one, two] = apps as [(typeof apps)[0], (typeof apps)[0]]
    const search = (app: typeof one) =>
      app.inject({ method: 'GET', url: '/demo/search?query=brain', remoteAddress: '10.9.8.7' })
    for (const app of [one, two, one]) expect((await search(app)).statusCode).toBe(200)
    const limited = await search(two)
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBe('60')
    expect(envelope(limited.body).error.code).toBe('RATE_LIMITED')
    expect((await search(one)).statusCode).toBe(429)
  })
})
