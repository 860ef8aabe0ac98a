export interface BackoffOptions {
  /** First retry delay in ms (default 500, as openai-node). */
  baseMs: number
  /** Longest computed delay in ms (default 8000, as openai-node). */
  maxMs: number
}

/**
 * Exponential backoff with up to 25% jitter: base * 2^retry, capped. The constants and the jitter
 * follow the official OpenAI Node client (openai/openai-node `calculateDefaultRetryTimeoutMillis`).
 */
export function backoffMs(retry: number, { baseMs, maxMs }: BackoffOptions): number {
  const delay = Math.min(baseMs * 2 ** retry, maxMs)
  return delay * (1 - Math.random() * 0.25)
}

/**
 * The wait a response asks for, in ms, or null when it names none. `retry-after-ms` (an OpenAI
 * extension) wins over `Retry-After`, which is either delay-seconds or an HTTP-date
 * (RFC 9110 section 10.2.3, https://www.rfc-editor.org/rfc/rfc9110#field.retry-after).
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const value = headers.get('retry-after')?.trim()
  if (value === undefined || value === '') return null
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
