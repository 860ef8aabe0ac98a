import { describe, expect, it } from 'vitest'
import { backoffMs, retryAfterMs, sleep } from './retry-delay.js'

describe('retry delays', () => {
  it('reads retry-after-ms first, then Retry-After as seconds or an HTTP-date', () => {
    const now = Date.parse('2024-03-08T12:00:00Z')
    const wait = (headers: Record<string, string>) => retryAfterMs(new Headers(headers), now)
    expect(wait({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250)
    expect(wait({ 'retry-after': '2' })).toBe(2000)
    expect(wait({ 'retry-after': 'Fri, 08 Mar 2024 12:00:03 GMT' })).toBe(3000)
    expect(wait({ 'retry-after': 'Fri, 08 Mar 2024 11:00:00 GMT' })).toBe(0)
    expect(wait({ 'retry-after': 'soon' })).toBeNull()
    expect(wait({})).toBeNull()
  })

  it('doubles from the base up to the cap, with at most 25% jitter', () => {
    const options = { baseMs: 500, maxMs: 8000 }
    for (const [retry, full] of [
      [0, 500],
      [1, 1000],
      [3, 4000],
      [6, 8000],
    ] as const) {
      const delay = backoffMs(retry, options)
      expect(delay).toBeGreaterThan(full * 0.75 - 1e-9)
      expect(delay).toBeLessThanOrEqual(full)
    }
  })

  it('sleeps until aborted', async () => {
    const controller = new AbortController()
    const pending = sleep(60_000, controller.signal)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
