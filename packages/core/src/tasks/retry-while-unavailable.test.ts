import { describe, expect, it } from 'vitest'
import { EngramError, StorageUnavailableError } from '../errors.js'
import { retryWhileUnavailable } from './retry-while-unavailable.js'

const fast = { baseMs: 1, maxMs: 2, jitter: 'full' } as const
const dropped = () => new StorageUnavailableError(new Error('Connection terminated unexpectedly'))

describe('retryWhileUnavailable', () => {
  it('tries again while storage is unavailable, then returns what the work returned', async () => {
    let calls = 0
    const retries: number[] = []
    const result = await retryWhileUnavailable(
      async () => {
        if (++calls <= 3) throw dropped()
        return 'done'
      },
      { signal: new AbortController().signal, backoff: fast, onRetry: (_, n) => retries.push(n) },
    )
    expect(result).toEqual({ value: 'done' })
    expect(retries).toEqual([0, 1, 2])
  })

  it('rejects at once with any other error, a 503 of another kind included', async () => {
    const busy = new EngramError('SERVICE_UNAVAILABLE', 'Embedder busy.')
    let calls = 0
    await expect(
      retryWhileUnavailable(
        async () => {
          calls++
          throw busy
        },
        { signal: new AbortController().signal, backoff: fast },
      ),
    ).rejects.toBe(busy)
    expect(calls).toBe(1)
  })

  it('gives up with null when the signal aborts during a wait', async () => {
    const stop = new AbortController()
    const result = retryWhileUnavailable(
      async () => {
        throw dropped()
      },
      {
        signal: stop.signal,
        backoff: { baseMs: 60_000, maxMs: 60_000, jitter: 'quarter' },
        // The first failure is told before its (minute-long) wait begins: stop then.
        onRetry: () => stop.abort(),
      },
    )
    await expect(result).resolves.toBeNull()
  })

  it('reports the StorageUnavailableError as a 503 with Retry-After and its cause', () => {
    const cause = new Error('terminating connection due to administrator command')
    const error = new StorageUnavailableError(cause)
    expect(error).toBeInstanceOf(EngramError)
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: 1, cause })
  })
})
