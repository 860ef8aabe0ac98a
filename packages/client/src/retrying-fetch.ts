import { retryAfterSeconds } from './engram-error.js'

/** The spec's retry rule (section 7.4): retry 429 and 503 only, with bounded exponential backoff. */
export interface RetryOptions {
  /** Retries after the first attempt (default 3); 0 turns retrying off. */
  retries?: number
  /** First backoff in ms, doubled on each retry (default 250). */
  baseDelayMs?: number
  /** Ceiling of one backoff in ms (default 8,000). */
  maxDelayMs?: number
  /**
   * Longest `Retry-After` the client waits, in seconds (default 60). A server asking for more gets the
   * error thrown at once, with `retryAfter` set, rather than a client that hangs.
   */
  maxRetryAfterSeconds?: number
}

/** The statuses the spec lets a client retry; validation, auth and permission failures are never retried. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503])

type Fetch = (request: Request) => Promise<Response>

/**
 * Wraps `fetch` so a 429 or 503 is retried: it waits the response's `Retry-After` when the server sent
 * one (that is the server's word on when to come back), otherwise `baseDelayMs * 2^attempt` with full
 * jitter, capped at `maxDelayMs`. The request is cloned before each attempt so bodies (JSON, uploads)
 * are sent again whole. The request's `AbortSignal` also cancels a wait.
 */
export function retryingFetch(fetchImpl: Fetch, options: RetryOptions = {}): Fetch {
  const retries = options.retries ?? 3
  const baseDelayMs = options.baseDelayMs ?? 250
  const maxDelayMs = options.maxDelayMs ?? 8_000
  const maxRetryAfter = options.maxRetryAfterSeconds ?? 60
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      const response = await fetchImpl(attempt < retries ? request.clone() : request)
      if (!RETRYABLE_STATUSES.has(response.status) || attempt >= retries) return response
      const retryAfter = retryAfterSeconds(response.headers.get('retry-after'), Date.now())
      if (retryAfter !== null && retryAfter > maxRetryAfter) return response
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt) * Math.random()
      const delay = retryAfter !== null ? retryAfter * 1000 : backoff
      await response.body?.cancel()
      await sleep(delay, request.signal)
    }
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
