import { describe, expect, it } from 'vitest'
import { backoffMs, parseRetryAfter, retryAfterMs, retryDelay, sleep } from './retry-delay.js'

describe('retry delays', () => {
  const now = Date.parse('2024-03-08T12:00:00Z')

  it('reads Retry-After as delay-seconds or an HTTP-date', () => {
    expect(parseRetryAfter('2', now)).toBe(2000)
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500)
    expect(parseRetryAfter('Fri, 08 Mar 2024 12:00:03 GMT', now)).toBe(3000)
    expect(parseRetryAfter('Fri, 08 Mar 2024 11:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeNull()
    expect(parseRetryAfter('', now)).toBeNull()
    expect(parseRetryAfter(null, now)).toBeNull()
  })

  it('reads retry-after-ms first, then Retry-After', () => {
    const wait = (headers: Record<string, string>) => retryAfterMs(new Headers(headers), now)
    expect(wait({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250)
    expect(wait({ 'retry-after': '2' })).toBe(2000)
    expect(wait({ 'retry-after': 'Fri, 08 Mar 2024 12:00:03 GMT' })).toBe(3000)
    expect(wait({ 'retry-after': 'soon' })).toBeNull()
    expect(wait({})).toBeNull()
  })

  it('doubles from the base up to the cap, with full or at most 25% jitter', () => {
    for (const [retry, step] of [
      [0, 500],
      [1, 1000],
      [3, 4000],
      [6, 8000],
    ] as const) {
      const quarter = backoffMs(retry, { baseMs: 500, maxMs: 8000, jitter: 'quarter' })
      expect(quarter).toBeGreaterThan(step * 0.75 - 1e-9)
      expect(quarter).toBeLessThanOrEqual(step)
      const full = backoffMs(retry, { baseMs: 500, maxMs: 8000, jitter: 'full' })
      expect(full).toBeGreaterThanOrEqual(0)
      expect(full).toBeLessThan(step)
    }
  })

  it('honours Retry-After up to the cap, else backs off', () => {
    const options = { baseMs: 100, maxMs: 5000, jitter: 'full' } as const
    expect(retryDelay(0, '2', options, now)).toBe(2000)
    expect(retryDelay(0, '60', options, now)).toBe(5000)
    expect(retryDelay(2, null, options, now)).toBeLessThan(400)
  })

  it('sleeps until aborted', async () => {
    const controller = new AbortController()
    const pending = sleep(60_000, controller.signal)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
