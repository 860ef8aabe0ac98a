import { EngramError } from '@engram/core'

export interface DemoRateLimiter {
  /** Counts a request of `client`; throws 429 RATE_LIMITED (with Retry-After) when over the limit. */
  check(client: string): void
}

/**
 * Fixed-window limiter for the public demo (CONTRACT.md section 8): `max` requests per `windowMs`
 * per client, and a client that exceeds it is blocked for `blockMs` from that moment (a plain
 * window reset would let it back in early). Own code rather than @fastify/rate-limit, whose window
 * reset does not give that block semantics.
 */
export function createDemoRateLimiter({
  max = 30,
  windowMs = 60_000,
  blockMs = 60_000,
  now = Date.now,
} = {}): DemoRateLimiter {
  const clients = new Map<string, { windowStart: number; count: number; blockedUntil: number }>()
  return {
    check(client) {
      const t = now()
      if (clients.size > 50_000) {
        for (const [key, c] of clients)
          if (c.blockedUntil < t && t - c.windowStart > windowMs) clients.delete(key)
      }
      let state = clients.get(client)
      if (state === undefined || (t - state.windowStart >= windowMs && t >= state.blockedUntil)) {
        state = { windowStart: t, count: 0, blockedUntil: 0 }
        clients.set(client, state)
      }
      if (t < state.blockedUntil) {
        throw new EngramError('RATE_LIMITED', 'Too many demo searches; wait before retrying.', {
          retryAfter: Math.ceil((state.blockedUntil - t) / 1000),
        })
      }
      state.count++
      if (state.count > max) {
        state.blockedUntil = t + blockMs
        throw new EngramError('RATE_LIMITED', 'Too many demo searches; wait before retrying.', {
          retryAfter: Math.ceil(blockMs / 1000),
        })
      }
    },
  }
}
