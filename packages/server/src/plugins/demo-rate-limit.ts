import { EngramError } from '@engram/core'

export interface DemoRateLimiter {
  /** Counts a request of `client`; rejects with 429 RATE_LIMITED (with Retry-After) when over the limit. */
  check(client: string): Promise<void>
}

/** The demo's limits; the in-memory and the Redis limiter take the same options. */
export interface DemoRateLimitOptions {
  /** Requests a client may make per window (default 30). */
  max?: number
  /** Length of the fixed window in milliseconds (default 60 s). */
  windowMs?: number
  /** How long a client that exceeded `max` is refused, from that moment (default 60 s). */
  blockMs?: number
  /** Clock in epoch milliseconds (tests). */
  now?: () => number
}

export const DEMO_RATE_LIMIT = { max: 30, windowMs: 60_000, blockMs: 60_000 } as const

/** The 429 of a refused demo search, `waitMs` before the client may retry. */
export function demoRateLimited(waitMs: number): EngramError {
  return new EngramError('RATE_LIMITED', 'Too many demo searches; wait before retrying.', {
    retryAfter: Math.ceil(waitMs / 1000),
  })
}

/**
 * Fixed-window limiter for the public demo (CONTRACT.md section 8): `max` requests per `windowMs`
 * per client, and a client that exceeds it is blocked for `blockMs` from that moment (a plain
 * window reset would let it back in early). Own code rather than @fastify/rate-limit, whose window
 * reset does not give that block semantics. Per process: `createRedisDemoRateLimiter` shares the
 * count between processes.
 */
export function createDemoRateLimiter({
  max = DEMO_RATE_LIMIT.max,
  windowMs = DEMO_RATE_LIMIT.windowMs,
  blockMs = DEMO_RATE_LIMIT.blockMs,
  now = Date.now,
}: DemoRateLimitOptions = {}): DemoRateLimiter {
  const clients = new Map<string, { windowStart: number; count: number; blockedUntil: number }>()
  return {
    async check(client) {
      const t = now()
      if (clients.size > 50_000) {
        for (const [key, c] of clients)
          if (c.blockedUntil < t && t - c.windowStart > windowMs) clients.delete(key)
      }
      let state = clients.get(client)
      // A new window when the last one is over, or when a block has ended (else a block shorter than
      // the window would end in another refusal, and its Retry-After would have lied).
      const blockEnded = state !== undefined && state.blockedUntil > 0 && t >= state.blockedUntil
      const windowOver =
        state !== undefined && t - state.windowStart >= windowMs && t >= state.blockedUntil
      if (state === undefined || blockEnded || windowOver) {
        state = { windowStart: t, count: 0, blockedUntil: 0 }
        clients.set(client, state)
      }
      if (t < state.blockedUntil) throw demoRateLimited(state.blockedUntil - t)
      state.count++
      if (state.count > max) {
        state.blockedUntil = t + blockMs
        throw demoRateLimited(blockMs)
      }
    },
  }
}
