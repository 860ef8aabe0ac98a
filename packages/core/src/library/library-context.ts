import type { Engram } from '../engine/engine-types.js'
import { EngramError, isEngramError } from '../errors.js'

/** What every library method reads: the engine, the file limit, and whether the handle is closed. */
export interface LibraryContext {
  readonly engine: Engram
  /** Largest file `ingest.file` accepts, in bytes. */
  readonly maxFileBytes: number
  /**
   * Runs one library call: refused with SERVICE_UNAVAILABLE once `close()` has begun, and anything
   * thrown that is not an EngramError (a bug, a storage failure) becomes INTERNAL_ERROR with the
   * original as `cause`, so callers match every failure by `code`, as REST clients do. The reason of
   * an aborted `signal` reaches the caller as it is.
   */
  run<T>(what: string, call: () => Promise<T>, signal?: AbortSignal): Promise<T>
}

export function createLibraryContext(
  engine: Engram,
  maxFileBytes: number,
  isClosed: () => boolean,
): LibraryContext {
  return {
    engine,
    maxFileBytes,
    async run(what, call, signal) {
      if (isClosed())
        throw new EngramError('SERVICE_UNAVAILABLE', `${what}: this Engram is closed.`, {
          resolution: 'Create a new one with createEngram(); close() is final.',
        })
      try {
        return await call()
      } catch (error) {
        if (isEngramError(error) || (signal?.aborted && error === signal.reason)) throw error
        const message = error instanceof Error ? error.message : String(error)
        throw new EngramError('INTERNAL_ERROR', `${what}: ${message}`, { cause: error })
      }
    },
  }
}
