/**
 * How long to wait before retry `attempt` (0-based): the server's `Retry-After` when it sent one (RFC 9110
 * section 10.2.3: delay-seconds or an HTTP-date), otherwise exponential backoff with full jitter
 * (Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015). Both are capped at `maxMs`.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | null,
  { baseMs, maxMs }: { baseMs: number; maxMs: number },
  now = Date.now(),
): number {
  const told = parseRetryAfter(retryAfter, now)
  if (told !== null) return Math.min(told, maxMs)
  return Math.random() * Math.min(maxMs, baseMs * 2 ** attempt)
}

/** Milliseconds a `Retry-After` value asks for, or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
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
