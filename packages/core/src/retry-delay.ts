/**
 * How long to wait between attempts at a remote call (the OpenAI-compatible embedder in core, the LLM
 * extractor plugin): exponential backoff with jitter, the server's own `Retry-After`, and an abortable
 * sleep. Which statuses to retry and what to do with a very long `Retry-After` stay with each caller.
 */

/**
 * How the exponential step d = min(maxMs, baseMs·2^retry) is randomised: `full` waits a uniform
 * [0, d) ("full jitter", Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015);
 * `quarter` waits (0.75·d, d], as the official OpenAI Node client does
 * (openai/openai-node `calculateDefaultRetryTimeoutMillis`).
 */
export type BackoffJitter = 'full' | 'quarter'

export interface BackoffOptions {
  /** First step, ms. */
  baseMs: number
  /** Longest step, ms (the embedder also caps an honoured `Retry-After` with it). */
  maxMs: number
  jitter: BackoffJitter
}

/** The wait before retry `retry` (0-based): min(maxMs, baseMs·2^retry), jittered. */
export function backoffMs(retry: number, { baseMs, maxMs, jitter }: BackoffOptions): number {
  const step = Math.min(maxMs, baseMs * 2 ** retry)
  return jitter === 'full' ? Math.random() * step : step * (1 - Math.random() * 0.25)
}

/**
 * The wait before retry `retry`: the server's `Retry-After` when it sent a readable one, else
 * {@link backoffMs}; both capped at `maxMs`.
 */
export function retryDelay(
  retry: number,
  retryAfter: string | null,
  options: BackoffOptions,
  now = Date.now(),
): number {
  const told = parseRetryAfter(retryAfter, now)
  if (told !== null) return Math.min(told, options.maxMs)
  return backoffMs(retry, options)
}

/**
 * Milliseconds a `Retry-After` value asks for (RFC 9110 section 10.2.3: delay-seconds or an
 * HTTP-date, https://www.rfc-editor.org/rfc/rfc9110#field.retry-after), or null when absent or
 * unreadable. A date in the past asks for 0.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  const trimmed = value?.trim()
  if (trimmed === undefined || trimmed === '') return null
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/**
 * The wait a response asks for, in ms, or null when it names none: `retry-after-ms` (an OpenAI
 * extension) wins over `Retry-After`.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  return parseRetryAfter(headers.get('retry-after'), now)
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
