import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createClient } from '@redis/client'

/** The server the tests use: the local Redis, unless REDIS_URL says otherwise. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const START =
  'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log'

async function canConnect(url: string): Promise<unknown> {
  const client = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 2_000 } })
  client.on('error', () => {})
  try {
    await client.connect()
    await client.ping()
    return null
  } catch (error) {
    return error
  } finally {
    if (client.isOpen) await client.close().catch(() => {})
  }
}

/**
 * Connects to REDIS_URL, starting the local server when nothing listens (ECONNREFUSED) and waiting up
 * to 30 s for it. Never skips: when Redis cannot be reached the tests fail with the reason.
 */
export async function ensureRedis(url = REDIS_URL): Promise<void> {
  let error = await canConnect(url)
  if (error === null) return
  if (/ECONNREFUSED/.test(String((error as Error).message))) {
    try {
      execSync(START, { shell: '/bin/sh', stdio: 'pipe' })
    } catch (startError) {
      error = startError
    }
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      error = await canConnect(url)
      if (error === null) return
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  throw new Error(
    `Redis is not reachable at ${url} and could not be started with \`${START}\`: ${String(error)}. ` +
      'Start it (or set REDIS_URL) and run the tests again.',
    { cause: error },
  )
}

/** A key prefix of its own for one test run, so parallel runs on one Redis never share a count. */
export function testKeyPrefix(): string {
  return `engram-test:${randomBytes(6).toString('hex')}:demo-rl:`
}
