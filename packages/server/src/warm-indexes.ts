import type { Engram, Logger } from '@engram/core'

/**
 * Builds the search indexes of every brain, one brain at a time, so that the first search of each
 * does not wait for them (vector indexes come from their snapshots when valid ones exist; BM25 is
 * rebuilt from storage). Runs after the server listens: builds yield to the event loop every ~20 ms,
 * so `/health` and requests are served meanwhile, and a request for a brain not reached yet builds
 * that brain itself. Stops at the first brain after `stopped()` turns true (shutdown).
 */
export async function warmIndexes(
  engram: Engram,
  logger: Logger,
  stopped: () => boolean,
): Promise<void> {
  const started = performance.now()
  let brains = 0
  for (const brain of await engram.brains.list()) {
    if (stopped()) return
    try {
      await engram.indexes.get(brain.id)
      brains++
    } catch (error) {
      // Deleted meanwhile, or storage closing: the brain's first request builds (or reports) it.
      if (!stopped()) logger.warn({ err: error, brainId: brain.id }, 'index warm-up failed')
    }
  }
  logger.info({ brains, ms: Math.round(performance.now() - started) }, 'brain indexes warm')
}
