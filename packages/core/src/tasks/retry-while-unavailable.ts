import { isStorageUnavailable, type StorageUnavailableError } from '../errors.js'
import { backoffMs, sleep, type BackoffOptions } from '../retry-delay.js'

/**
 * Waits between tries of task work that storage could not serve: the first within 100 ms (a dropped
 * connection is usually re-opened at once), doubling up to 5 s while the database stays away; full
 * jitter, so that the workers of a cluster do not come back in step.
 */
export const STORAGE_RETRY: BackoffOptions = { baseMs: 100, maxMs: 5_000, jitter: 'full' }

export interface RetryWhileUnavailableOptions {
  /** Default {@link STORAGE_RETRY}. */
  backoff?: BackoffOptions
  /** Aborting it ends the retries: a wait under way ends at once. */
  signal: AbortSignal
  /** Told of each failure that will be retried, before its wait (to log it). */
  onRetry?(error: StorageUnavailableError, retry: number, delayMs: number): void
}

/**
 * Runs `work` until it settles otherwise than with `StorageUnavailableError` (storage could not serve:
 * a connection dropped, which the adapter re-opens), waiting with exponential backoff between tries.
 * Resolves `{ value }` with what `work` returned, or null when `signal` aborted first (the work is
 * left for later: a task stays `started` and resumes at the next start or claim). Any other error
 * rejects at once: retrying cannot mend it.
 */
export async function retryWhileUnavailable<T>(
  work: () => Promise<T>,
  options: RetryWhileUnavailableOptions,
): Promise<{ value: T } | null> {
  for (let retry = 0; ; retry++) {
    if (options.signal.aborted) return null
    try {
      return { value: await work() }
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error
      if (options.signal.aborted) return null
      const delayMs = backoffMs(retry, options.backoff ?? STORAGE_RETRY)
      options.onRetry?.(error, retry, delayMs)
      const waited = await sleep(delayMs, options.signal).then(
        () => true,
        () => false,
      )
      if (!waited) return null
    }
  }
}
