import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '@redis/client'
import { silentLogger } from '@engram/core'
import { ConfigError, loadConfig } from './config.js'
import { demoRateLimiterFromConfig } from './demo-rate-limiter-from-config.js'
import { startServer } from './start-server.js'
import { ensureRedis, REDIS_URL } from '../test/support/ensure-redis.js'

const dirs: string[] = []
beforeAll(() => ensureRedis())
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function config(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-redis-'))
  dirs.push(dataDir)
  return loadConfig({
    ENGRAM_DATA_DIR: dataDir,
    SERVICEPAT_TOKEN: 'spat_redis-limit-test-token-0123',
    PORT: '0',
    EMBEDDER: 'none',
    EXTRACTOR_WORKERS: '0',
    LOG_LEVEL: 'silent',
    WARM_INDEXES: 'false',
    ...env,
  })
}

describe('demoRateLimiterFromConfig', () => {
  it('keeps the in-memory limiter without REDIS_URL', async () => {
    const limiter = await demoRateLimiterFromConfig({ redisUrl: undefined }, silentLogger)
    await expect(limiter.check('a')).resolves.toBeUndefined()
    await limiter.close()
  })

  it('turns an unreachable REDIS_URL into a ConfigError without the password', async () => {
    const error = await demoRateLimiterFromConfig(
      { redisUrl: 'redis://:hunter2@127.0.0.1:1' },
      silentLogger,
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toMatch(
      /^REDIS_URL: cannot connect to Redis at redis:\/\/127\.0\.0\.1:1: /,
    )
    expect((error as Error).message).not.toMatch('hunter2')
  })
})

describe('startServer with REDIS_URL', () => {
  it('stops the start when Redis is unreachable', async () => {
    await expect(
      startServer(config({ REDIS_URL: 'redis://:hunter2@127.0.0.1:1' }), () => {}),
    ).rejects.toThrow(ConfigError)
  })

  it('counts /demo/search in Redis and closes the connection on close()', async () => {
    const server = await startServer(config({ REDIS_URL }), () => {})
    const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`
    const key = `engram:demo-rl:${ip}`
    const admin = createClient({ url: REDIS_URL })
    await admin.connect()
    try {
      const res = await server.app.inject({
        method: 'GET',
        url: '/demo/search?query=brain',
        remoteAddress: ip,
      })
      expect(res.statusCode).toBe(200)
      expect(await admin.hGet(key, 'count')).toBe('1')
      const clients = async () => (await admin.clientList()).length
      const before = await clients()
      await server.close()
      expect(await clients()).toBe(before - 1)
    } finally {
      await admin.del(key)
      await admin.close()
    }
  })
})
