import { createHash } from 'node:crypto'
import { createClient, ErrorReply } from '@redis/client'
import { silentLogger, type Logger } from '@engram/core'
import {
  createDemoRateLimiter,
  DEMO_RATE_LIMIT,
  demoRateLimited,
  type DemoRateLimiter,
  type DemoRateLimitOptions,
} from './demo-rate-limit.js'
import { redactUrl } from '../redact-url.js'

export interface RedisDemoRateLimitOptions extends DemoRateLimitOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string
  /** Prefix of the per-client keys (default `engram:demo-rl:`). */
  keyPrefix?: string
  /** A check Redis has not answered within this many milliseconds falls back (default 500). */
  commandTimeoutMs?: number
  /** Where outage warnings go, at most one per `warnEveryMs` (default 60 s). */
  logger?: Logger
  warnEveryMs?: number
}

export interface RedisDemoRateLimiter extends DemoRateLimiter {
  /** Connects once; rejects with a message naming the URL without its credentials. */
  connect(): Promise<void>
  /** Closes the connection; checks after it fall back to the process's own limiter. */
  close(): Promise<void>
  /**
   * Resolves once the connection to Redis is up (at once when it is): after an outage, from then on
   * checks count in Redis again. node-redis reconnects in the background, with backoff; this is its
   * `ready` event, for whoever must know when the shared count is back (tests wait on it).
   */
  ready(): Promise<void>
}

/**
 * One request of one client, atomically (a script runs alone on the server, so two processes racing
 * cannot both get past `max`). The same fixed window with block semantics as the in-memory limiter,
 * in a hash `start`, `count`, `blocked` whose TTL ends with the window or the block, whichever is
 * later: Redis keeps nothing for a client once its state would be reset anyway. The clock is Redis'
 * own TIME, one for every process, unless ARGV[4] gives one (tests). Returns the milliseconds to wait,
 * 0 when the request may go. Numbers are written with %d: Redis may print a Lua number in exponent form.
 */
const SCRIPT = `
local max, windowMs, blockMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local s = redis.call('HMGET', KEYS[1], 'start', 'count', 'blocked')
local start, count, blocked = tonumber(s[1]), tonumber(s[2]) or 0, tonumber(s[3]) or 0
if not start or (now >= blocked and (blocked > 0 or now - start >= windowMs)) then
  start, count, blocked = now, 0, 0
end
if now < blocked then return blocked - now end
count = count + 1
if count > max then blocked = now + blockMs end
local function int(x) return string.format('%d', x) end
redis.call('HSET', KEYS[1], 'start', int(start), 'count', int(count), 'blocked', int(blocked))
redis.call('PEXPIRE', KEYS[1], int(math.max(start + windowMs, blocked, now + 1) - now))
if count > max then return blockMs end
return 0
`
const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex')

/**
 * The demo limiter shared by every process on one Redis (issue 13): `/demo/search` behind a load
 * balancer keeps one count per client. Uses node-redis (`@redis/client`: the client Redis maintains,
 * with no dependencies; the `redis` package only adds the modules' commands).
 *
 * When Redis becomes unreachable mid-run the check falls back to this process's own in-memory
 * limiter with the same limits, rather than answering 503: the demo is a read-only search of public
 * documentation, so an outage of the shared counter should not take it down, and the local limiter
 * still holds a client to `max` per process per window. Checks fail fast (no offline queue, at most
 * `commandTimeoutMs` of waiting) so no request waits for a reconnect; node-redis reconnects in the
 * background, and the 'error' events it emits meanwhile become one warning per `warnEveryMs`.
 */
export function createRedisDemoRateLimiter({
  url,
  keyPrefix = 'engram:demo-rl:',
  commandTimeoutMs = 500,
  logger = silentLogger,
  warnEveryMs = 60_000,
  max = DEMO_RATE_LIMIT.max,
  windowMs = DEMO_RATE_LIMIT.windowMs,
  blockMs = DEMO_RATE_LIMIT.blockMs,
  now,
}: RedisDemoRateLimitOptions): RedisDemoRateLimiter {
  const fallback = createDemoRateLimiter({ max, windowMs, blockMs, now })
  let connected = false
  let lastWarning = Number.NEGATIVE_INFINITY
  const warn = (error: unknown) => {
    if (Date.now() - lastWarning < warnEveryMs) return
    lastWarning = Date.now()
    logger.warn(
      { err: error },
      'demo rate limit: Redis unreachable, each process limits on its own until it is back',
    )
  }

  let redis: ReturnType<typeof createClient>
  try {
    redis = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 5_000,
        // Never connected: give up, so a wrong REDIS_URL stops the start. Once up: retry for ever.
        reconnectStrategy: (retries, cause) =>
          connected ? Math.min(100 * 2 ** retries, 5_000) : cause,
      },
    })
  } catch (error) {
    throw unreachable(url, error)
  }
  redis.on('error', warn)

  const hit = async (client: string): Promise<number> => {
    const options = {
      keys: [keyPrefix + client],
      arguments: [max, windowMs, blockMs, now?.() ?? ''].map(String),
    }
    try {
      return Number(await redis.evalSha(SCRIPT_SHA, options))
    } catch (error) {
      // First call on this server (or after SCRIPT FLUSH): send the script itself, which caches it.
      if (!(error instanceof ErrorReply && error.message.startsWith('NOSCRIPT'))) throw error
      return Number(await redis.eval(SCRIPT, options))
    }
  }

  // node-redis' own command timeout covers only the wait to be sent: a command Redis never answers
  // stays pending (replies must keep their order). So the check stops waiting after commandTimeoutMs,
  // and until that command settles (a late reply, or the socket's error) checks skip Redis.
  let unanswered = false
  const answerWithin = (pending: Promise<number>) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        unanswered = true
        void pending
          .catch(() => {})
          .finally(() => {
            unanswered = false
          })
        reject(new Error(`Redis did not answer within ${commandTimeoutMs} ms`))
      }, commandTimeoutMs)
      pending.then(resolve, reject).finally(() => clearTimeout(timer))
    })

  return {
    async check(client) {
      let waitMs: number
      try {
        if (unanswered) throw new Error('Redis has not answered an earlier check yet')
        waitMs = await answerWithin(hit(client))
      } catch (error) {
        warn(error)
        return fallback.check(client)
      }
      if (waitMs > 0) throw demoRateLimited(waitMs)
    },
    async connect() {
      try {
        await redis.connect()
        connected = true
      } catch (error) {
        throw unreachable(url, error)
      }
    },
    ready() {
      if (redis.isReady) return Promise.resolve()
      return new Promise((resolve) => redis.once('ready', () => resolve()))
    },
    async close() {
      if (!redis.isOpen) return
      // A graceful close waits for the replies of sent commands, which a stalled Redis never sends.
      const force = setTimeout(() => redis.destroy(), commandTimeoutMs)
      try {
        await redis.close()
      } finally {
        clearTimeout(force)
      }
    },
  }
}

/**
 * The start-up failure, its cause's message with the URL and password cut out. The cause itself is
 * dropped: an invalid URL's TypeError carries the whole URL as `input`.
 */
function unreachable(url: string, error: unknown): Error {
  let reason = error instanceof Error ? error.message : String(error)
  const secrets = [url]
  try {
    const password = new URL(url).password
    secrets.push(password)
    secrets.push(decodeURIComponent(password))
  } catch {
    // Not a URL: only the whole string can leak.
  }
  for (const secret of secrets) if (secret !== '') reason = reason.split(secret).join('***')
  return new Error(`REDIS_URL: cannot connect to Redis at ${redactUrl(url)}: ${reason}`)
}
